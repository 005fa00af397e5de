// Playbooks (docs/discipline.md): the setups a trader trades, each with entry and exit criteria and a
// checklist, and beside each one its report over the chosen accounts: the trades taken from it, their net
// P&L, win rate and expectancy in money and R, and per checklist item how the trades that followed it did
// against those that did not.
import { DisciplineTabs } from "../../components/discipline-tabs.tsx";
import { ImageGallery } from "../../components/image-gallery.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { NewPlaybookSchema } from "../../../../lib/playbooks/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts, usePlaybooks, useSettings, type Account } from "../../api/queries.ts";
import { MissingRates } from "../../components/missing-rates.tsx";
import { ScopeSelect, useStatsScope, type Filter } from "../../components/stats-scope.tsx";
import { EmptyState, ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextAreaField, TextField } from "../../components/ui.tsx";
import { formatPnl, formatR, toneOf } from "../../lib/format.ts";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { formatWinRate } from "../dashboard/format.ts";

type Playbook = NonNullable<ReturnType<typeof usePlaybooks>["data"]>["playbooks"][number];
type Kind = "checkbox" | "number" | "text" | "choice";
type DraftItem = { key: string; id?: string; kind: Kind; label: string; options: string };
type Report = Awaited<ReturnType<typeof fetchReport>>;
type Figures = Report["none"];

const KINDS: { value: Kind; label: string }[] = [
  { value: "checkbox", label: "Tick box" },
  { value: "number", label: "Number" },
  { value: "text", label: "Text" },
  { value: "choice", label: "Choice" },
];

function fetchReport(filter: Filter) {
  return unwrap(api.api.stats.playbooks.$get({ query: filter }));
}

const draftOf = (b?: Playbook): DraftItem[] =>
  (b?.items ?? []).map((i) => ({ key: i.id, id: i.id, kind: i.kind, label: i.label, options: (i.options ?? []).join(", ") }));

/** The create and edit form: name, description, criteria and the checklist items. */
function PlaybookForm({ playbook, onDone }: { playbook?: Playbook; onDone(message: string): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(playbook?.name ?? "");
  const [description, setDescription] = useState(playbook?.description ?? "");
  const [entry, setEntry] = useState(playbook?.entryCriteria ?? "");
  const [exit, setExit] = useState(playbook?.exitCriteria ?? "");
  const [items, setItems] = useState<DraftItem[]>(() => draftOf(playbook));
  const [errors, setErrors] = useState<FieldErrors>({});
  type Body = { name: string; description: string | null; entryCriteria: string | null; exitCriteria: string | null; items: Array<{ id?: string; kind: Kind; label: string; options?: string[] }> };
  const save = useMutation({
    mutationFn: (json: Body) =>
      playbook ? unwrap(api.api.playbooks[":id"].$patch({ param: { id: playbook.id }, json })) : unwrap(api.api.playbooks.$post({ json })),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: keys.playbooks });
      await queryClient.invalidateQueries({ queryKey: ["stats", "playbooks"] });
      onDone(playbook ? `Saved ${saved.name}.` : `Created ${saved.name}.`);
    },
  });
  const shown = { ...serverFieldErrors(save.error), ...errors };
  const update = (key: string, change: Partial<DraftItem>) => setItems(items.map((i) => (i.key === key ? { ...i, ...change } : i)));

  function submit(e: FormEvent) {
    e.preventDefault();
    const text = (v: string) => (v.trim() ? v.trim() : null);
    const value: Body = {
      name: name.trim(),
      description: text(description),
      entryCriteria: text(entry),
      exitCriteria: text(exit),
      items: items.map((i) => ({
        ...(i.id ? { id: i.id } : {}),
        kind: i.kind,
        label: i.label.trim(),
        ...(i.kind === "choice" ? { options: i.options.split(",").map((o) => o.trim()).filter(Boolean) } : {}),
      })),
    };
    const found = schemaErrors(NewPlaybookSchema, value);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={playbook ? `Edit ${playbook.name}` : "New playbook"}>
      <ErrorAlert error={save.error} title="Could not save the playbook." />
      <TextField label="Name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={shown.name} hint="e.g. Opening range breakout" />
      <TextAreaField label="Description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} error={shown.description} />
      <div className="grid-2">
        <TextAreaField label="Entry criteria" rows={3} value={entry} onChange={(e) => setEntry(e.target.value)} error={shown.entryCriteria} />
        <TextAreaField label="Exit criteria" rows={3} value={exit} onChange={(e) => setExit(e.target.value)} error={shown.exitCriteria} />
      </div>
      <fieldset>
        <legend>Checklist</legend>
        {items.length === 0 && <p className="muted">No items yet: add what a trade taken from this playbook should pass.</p>}
        <ol className="checklist-editor">
          {items.map((item, n) => (
            <li key={item.key}>
              <div className="grid-3">
                <TextField label={`Item ${n + 1}`} value={item.label} maxLength={200} onChange={(e) => update(item.key, { label: e.target.value })} error={shown[`items.${n}.label`] ?? shown[`items.${n}.id`]} />
                <SelectField label={`Item ${n + 1} answer`} value={item.kind} disabled={item.id !== undefined} onChange={(e) => update(item.key, { kind: e.target.value as Kind })} error={shown[`items.${n}.kind`]}>
                  {KINDS.map((k) => (
                    <option key={k.value} value={k.value}>
                      {k.label}
                    </option>
                  ))}
                </SelectField>
                {item.kind === "choice" && (
                  <TextField label={`Item ${n + 1} options`} value={item.options} onChange={(e) => update(item.key, { options: e.target.value })} error={shown[`items.${n}.options`]} hint="Separated by commas, e.g. up, flat, down" />
                )}
              </div>
              <button type="button" className="button button--secondary button--small" onClick={() => setItems(items.filter((i) => i.key !== item.key))}>
                Remove<span className="visually-hidden"> item {n + 1}</span>
              </button>
            </li>
          ))}
        </ol>
        {shown.items && <p className="field__error">Checklist {shown.items}.</p>}
        <button type="button" className="button button--secondary" disabled={items.length >= 50} onClick={() => setItems([...items, { key: crypto.randomUUID(), kind: "checkbox", label: "", options: "" }])}>
          Add item
        </button>
      </fieldset>
      <div className="button-row">
        <button type="submit" className="button" disabled={save.isPending}>
          {playbook ? "Save playbook" : "Create playbook"}
        </button>
        {playbook && (
          <button type="button" className="button button--secondary" onClick={() => onDone("")}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function FigureList({ f, currency }: { f: Figures; currency: string | null }) {
  return (
    <dl className="stats">
      <div>
        <dt>Trades</dt>
        <dd>{f.trades}</dd>
      </div>
      <div>
        <dt>Net P&amp;L</dt>
        <dd className={toneOf(f.netPnl)}>{formatPnl(f.netPnl, currency)}</dd>
      </div>
      <div>
        <dt>Win rate</dt>
        <dd>{formatWinRate(f.wins, f.trades)}</dd>
      </div>
      <div>
        <dt>Expectancy</dt>
        <dd>{f.expectancy === null ? "—" : formatPnl(f.expectancy, currency)}</dd>
      </div>
      <div>
        <dt>Expectancy in R</dt>
        <dd>
          {f.expectancyR === null ? "—" : formatR(f.expectancyR)}
          {f.withRisk > 0 && f.withRisk < f.trades && <span className="muted"> ({f.withRisk} with a risk)</span>}
        </dd>
      </div>
    </dl>
  );
}

const cell = (f: Figures, currency: string | null) => (f.trades === 0 ? "—" : `${f.trades} · ${formatWinRate(f.wins, f.trades)} won · ${formatPnl(f.netPnl, currency)}`);

function PlaybookCard({ playbook, report, currency }: { playbook: Playbook; report: Report["playbooks"][number] | undefined; currency: string | null }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState("");
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: keys.playbooks });
    await queryClient.invalidateQueries({ queryKey: ["stats", "playbooks"] });
  };
  const archive = useMutation({
    mutationFn: (archived: boolean) => unwrap(api.api.playbooks[":id"].$patch({ param: { id: playbook.id }, json: { archived } })),
    onSuccess: async (b) => {
      setStatus(b.archived ? `${b.name} archived: no longer offered for new trades; its trades and report stay.` : `${b.name} restored.`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.api.playbooks[":id"].$delete({ param: { id: playbook.id } })),
    onSuccess: refresh,
  });
  const titleId = `playbook-${playbook.id}`;
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>
        {playbook.name} {playbook.archived && <span className="badge">Archived</span>}
      </h2>
      {editing ? (
        <PlaybookForm
          playbook={playbook}
          onDone={(message) => {
            setEditing(false);
            setStatus(message);
          }}
        />
      ) : (
        <>
          {playbook.description && <p>{playbook.description}</p>}
          {(playbook.entryCriteria || playbook.exitCriteria) && (
            <dl className="facts">
              {playbook.entryCriteria && (
                <>
                  <dt>Entry</dt>
                  <dd>{playbook.entryCriteria}</dd>
                </>
              )}
              {playbook.exitCriteria && (
                <>
                  <dt>Exit</dt>
                  <dd>{playbook.exitCriteria}</dd>
                </>
              )}
            </dl>
          )}
          <ImageGallery base={`/api/playbooks/${playbook.id}`} id={`examples-${playbook.id}`} words={{ title: "Examples", noun: "example", owner: `${playbook.name}` }} />
          {report && <FigureList f={report} currency={currency} />}
          {report && report.items.length > 0 && (
            <div className="table-wrap">
              <table className="table stack-table">
                <caption className="visually-hidden">{playbook.name}: each checklist item, followed against broken</caption>
                <thead>
                  <tr>
                    <th scope="col">Checklist item</th>
                    <th scope="col">Followed</th>
                    <th scope="col">Broken</th>
                  </tr>
                </thead>
                <tbody>
                  {report.items.map((i) => (
                    <tr key={i.id}>
                      <th scope="row">{i.label}</th>
                      <td data-label="Followed">{cell(i.followed, currency)}</td>
                      <td data-label="Broken">{cell(i.broken, currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ErrorAlert error={archive.error ?? remove.error} title="Could not change the playbook." />
          <div className="button-row">
            <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
              Edit<span className="visually-hidden"> {playbook.name}</span>
            </button>
            <button type="button" className="button button--secondary" disabled={archive.isPending} onClick={() => archive.mutate(!playbook.archived)}>
              {playbook.archived ? "Restore" : "Archive"}
              <span className="visually-hidden"> {playbook.name}</span>
            </button>
            {playbook.trades === 0 ? (
              <button type="button" className="button button--danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Delete<span className="visually-hidden"> {playbook.name}</span>
              </button>
            ) : (
              <Link to={`/trades?playbookId=${playbook.id}`} className="button button--secondary">
                {playbook.trades} {playbook.trades === 1 ? "trade" : "trades"}
              </Link>
            )}
          </div>
        </>
      )}
      <StatusMessage>{status}</StatusMessage>
    </section>
  );
}

function Playbooks({ accounts, baseCurrency }: { accounts: readonly Account[]; baseCurrency: string | null }) {
  const { currencies, filter, value, currency, choose, base } = useStatsScope(accounts, baseCurrency);
  const books = usePlaybooks();
  const report = useQuery({ queryKey: ["stats", "playbooks", filter], queryFn: () => fetchReport(filter) });
  const [status, setStatus] = useState("");
  const [formKey, setFormKey] = useState(0);
  const byId = new Map((report.data?.playbooks ?? []).map((r) => [r.id, r]));
  return (
    <>
      <section className="panel" aria-labelledby="new-playbook-title">
        <details>
          <summary id="new-playbook-title">New playbook</summary>
          <PlaybookForm
            key={formKey}
            onDone={(message) => {
              setStatus(message);
              setFormKey((k) => k + 1);
            }}
          />
        </details>
        <StatusMessage>{status}</StatusMessage>
      </section>
      <div className="form form--inline">
        <ScopeSelect accounts={accounts} currencies={currencies} value={value} onChange={choose} base={base} />
      </div>
      <ErrorAlert error={report.error} title="Could not load the report." />
      {report.data?.missingRates && report.data.missingRates.length > 0 && <MissingRates missing={report.data.missingRates} />}
      <QueryView query={books} label="playbooks">
        {({ playbooks }) =>
          playbooks.length === 0 ? (
            <EmptyState title="No playbooks yet">
              <p>
                A playbook is a setup you trade, written down: when you enter, when you exit, and a checklist a trade taken from it should pass. Assign
                trades to it on their page, and see here which setups and which rules make you money.
              </p>
            </EmptyState>
          ) : (
            <>
              {playbooks.map((b) => (
                <PlaybookCard key={b.id} playbook={b} report={byId.get(b.id)} currency={currency} />
              ))}
              {report.data && (
                <section className="panel" aria-labelledby="no-playbook-title">
                  <h2 id="no-playbook-title">Trades from no playbook</h2>
                  <FigureList f={report.data.none} currency={currency} />
                </section>
              )}
            </>
          )
        }
      </QueryView>
    </>
  );
}

export function PlaybooksPage() {
  const accounts = useAccounts();
  // The base currency decides the default scope (docs/currencies.md): wait for it (an error reads as none).
  const settings = useSettings();
  return (
    <>
      <PageHeader title="Playbooks" />
      <DisciplineTabs />
      <QueryView query={accounts} label="accounts">
        {({ accounts: list }) => !settings.isPending && <Playbooks accounts={list} baseCurrency={settings.data?.baseCurrency ?? null} />}
      </QueryView>
    </>
  );
}
