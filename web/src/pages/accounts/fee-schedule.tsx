// An account's fee schedule (lib/accounts/fees.ts): what the broker charges per asset class, used for imported
// rows that carry no fee. Every part optional; an empty class has no rule, an empty schedule is none.
import { TextField } from "../../components/ui.tsx";

type Kind = "stock" | "option" | "future";
type Part = "perOrder" | "perUnit" | "percent" | "minimum" | "maximum";
export type FeeScheduleDraft = Record<Kind, Record<Part, string>>;
type Schedule = Partial<Record<Kind, Partial<Record<Part, string>>>>;

const KINDS: Array<{ kind: Kind; label: string; unit: string }> = [
  { kind: "stock", label: "Stocks", unit: "per share" },
  { kind: "option", label: "Options", unit: "per contract" },
  { kind: "future", label: "Futures", unit: "per contract" },
];
const PARTS: Array<{ part: Part; label: (unit: string) => string }> = [
  { part: "perUnit", label: (unit) => `Fee ${unit}` },
  { part: "perOrder", label: () => "Fee per order" },
  { part: "percent", label: () => "% of the value" },
  { part: "minimum", label: () => "Minimum" },
  { part: "maximum", label: () => "Maximum" },
];

export function draftOf(schedule: Schedule | null): FeeScheduleDraft {
  const empty = () => ({ perOrder: "", perUnit: "", percent: "", minimum: "", maximum: "" });
  const draft: FeeScheduleDraft = { stock: empty(), option: empty(), future: empty() };
  for (const { kind } of KINDS) for (const { part } of PARTS) draft[kind][part] = schedule?.[kind]?.[part] ?? "";
  return draft;
}

/** The draft as the API takes it: blank parts left out, a class without parts left out, nothing at all null. */
export function scheduleOf(draft: FeeScheduleDraft): Schedule | null {
  const schedule: Schedule = {};
  for (const { kind } of KINDS) {
    const rule = Object.fromEntries(PARTS.flatMap(({ part }) => (draft[kind][part].trim() ? [[part, draft[kind][part].trim()]] : [])));
    if (Object.keys(rule).length) schedule[kind] = rule;
  }
  return Object.keys(schedule).length ? schedule : null;
}

export function FeeScheduleFields({ draft, onChange, currency, error }: { draft: FeeScheduleDraft; onChange(d: FeeScheduleDraft): void; currency: string; error?: string | undefined }) {
  const set = (kind: Kind, part: Part, value: string) => onChange({ ...draft, [kind]: { ...draft[kind], [part]: value } });
  return (
    <details className="fee-schedule" open={scheduleOf(draft) !== null}>
      <summary>Fee schedule, for files without fees</summary>
      <p className="field__hint">
        What your broker charges, in {currency}. Imported rows that carry no fee get this one, marked estimated; a fee in the file (0
        included) is always kept.
      </p>
      {error && <p className="field__error">Fee schedule {error}.</p>}
      {KINDS.map(({ kind, label, unit }) => (
        <fieldset key={kind}>
          <legend>{label}</legend>
          <div className="grid-3">
            {PARTS.map(({ part, label: name }) => (
              <TextField key={part} label={`${label}: ${name(unit)}`} inputMode="decimal" value={draft[kind][part]} onChange={(e) => set(kind, part, e.target.value)} />
            ))}
          </div>
        </fieldset>
      ))}
    </details>
  );
}
