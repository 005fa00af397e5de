// The "path to funding" panel of an account under a prop firm's rules (docs/prop-firms.md): where the
// evaluation stands after the last fill (balance, floor, distance to it, the day's loss, the target, the
// trading days, the best day's share) and the first breach with its rule; set from a firm's preset, whose
// figures the trader edits before saving.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, unwrap } from "../../api/client.ts";
import { ApiError } from "../../api/errors.ts";
import type { Account } from "../../api/queries.ts";
import { ErrorAlert, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDateTime, formatMoney, formatPnl } from "../../lib/format.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";

const evaluationKey = (accountId: string) => ["prop-evaluation", accountId] as const;

const BREACHES: Record<string, string> = {
  max_drawdown: "the maximum drawdown (the floor)",
  daily_loss: "the daily loss limit",
  max_contracts: "the maximum contracts",
};
const MODES: Record<string, string> = {
  static: "Static",
  eod_trailing: "Trailing at each day's close",
  intraday_trailing: "Trailing intraday",
  trailing_lock: "Trailing intraday, then locked at the start",
};

/**
 * The account's evaluation and status, or null when it has none: asked only for an account the summary lists
 * with one (an account without is a 404, which the browser would log as an error).
 */
async function fetchEvaluation(accountId: string) {
  const summary = await unwrap(api.api["prop-firms"].summary.$get());
  if (!summary.accounts.some((a) => a.accountId === accountId && a.firm !== null)) return null;
  try {
    return await unwrap(api.api.accounts[":id"].evaluation.$get({ param: { id: accountId } }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export function PropPanel({ account }: { account: Account }) {
  const evaluation = useQuery({ queryKey: evaluationKey(account.id), queryFn: () => fetchEvaluation(account.id) });
  const [editing, setEditing] = useState(false);
  if (evaluation.isPending) return <p className="muted">Loading…</p>;
  if (evaluation.error) return <ErrorAlert error={evaluation.error} title="Could not load the evaluation." />;
  const data = evaluation.data;
  if (!data || editing) {
    return (
      <>
        {!data && <p>Trading a prop firm's evaluation or funded account here? Choose the firm's rules: the journal checks them on every fill.</p>}
        <EvaluationForm account={account} onDone={() => setEditing(false)} />
      </>
    );
  }
  const { evaluation: e, status: s } = data;
  const money = (v: string | null) => (v === null ? "None" : formatMoney(v, account.currency));
  const state = s.state === "breached" ? "Breached" : s.state === "passed" ? "Passed" : "Active";
  return (
    <>
      <p>
        <strong>{e.firm}</strong>, {e.phase === "funded" ? "funded account" : "evaluation"} since {e.startDate}:{" "}
        <span className={`badge badge--${s.state}`}>{state}</span>
      </p>
      {s.state === "breached" && (
        <p className="notice" role="status">
          Breached {BREACHES[s.breachRule ?? ""] ?? s.breachRule} {s.breachedAt ? `at ${formatDateTime(s.breachedAt, account.timezone)}` : ""}
          {s.breachFillId ? ", on a fill" : ", between fills"}.
        </p>
      )}
      <dl className="stats">
        <div>
          <dt>Balance</dt>
          <dd>{money(s.balance)}</dd>
        </div>
        <div>
          <dt>Floor</dt>
          <dd>
            {money(s.floor)} <span className="muted">({MODES[e.drawdownMode]})</span>
          </dd>
        </div>
        <div>
          <dt>Distance to the floor</dt>
          <dd>{formatPnl(s.distanceToFloor, account.currency)}</dd>
        </div>
        <div>
          <dt>Today's loss</dt>
          <dd>
            {money(s.dailyLossUsed)} {e.dailyLossLimit && <span className="muted">of {money(e.dailyLossLimit)}</span>}
          </dd>
        </div>
        <div>
          <dt>Profit to the target</dt>
          <dd>{s.profitToTarget === null ? "No target (funded)" : money(s.profitToTarget)}</dd>
        </div>
        <div>
          <dt>Trading days</dt>
          <dd>
            {s.tradingDays} <span className="muted">of {e.minTradingDays} at least</span>
          </dd>
        </div>
        <div>
          <dt>Best day's share</dt>
          <dd>
            {s.bestDayPct === null ? "—" : `${s.bestDayPct}%`}
            {e.consistencyPct !== null && <span className={s.consistencyOk ? "muted" : "negative"}> (at most {e.consistencyPct}%)</span>}
          </dd>
        </div>
      </dl>
      <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
        Change the rules
      </button>
      <Warnings account={account} dailyLimit={e.dailyLossLimit !== null} />
    </>
  );
}

const KINDS: Record<string, string> = { floor: "Near the floor", daily_loss: "Near the daily loss limit" };

/**
 * The trader's warnings (docs/prop-firms.md, "Warnings"): the notices of the last days, and the thresholds under
 * which the journal warns after a fill, in the app and, when chosen, by email.
 */
function Warnings({ account, dailyLimit }: { account: Account; dailyLimit: boolean }) {
  const queryClient = useQueryClient();
  const key = ["prop-warnings", account.id] as const;
  const warnings = useQuery({ queryKey: key, queryFn: () => unwrap(api.api.accounts[":id"].evaluation.warnings.$get({ param: { id: account.id } })) });
  const [floor, setFloor] = useState<string | null>(null);
  const [daily, setDaily] = useState<string | null>(null);
  const [email, setEmail] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: (json: { floorDistance: string | null; dailyLossLeft: string | null; email: boolean }) =>
      unwrap(api.api.accounts[":id"].evaluation.warnings.$put({ param: { id: account.id }, json })),
    onSuccess: (data) => queryClient.setQueryData(key, data),
  });
  if (!warnings.data) return warnings.error ? <ErrorAlert error={warnings.error} title="Could not load the warnings." /> : null;
  const w = warnings.data.warnings;
  const shown = { floor: floor ?? w.floorDistance ?? "", daily: daily ?? w.dailyLossLeft ?? "", email: email ?? w.email };
  const errors = serverFieldErrors(save.error);
  function submit(ev: FormEvent) {
    ev.preventDefault();
    save.mutate({ floorDistance: shown.floor.trim() || null, dailyLossLeft: shown.daily.trim() || null, email: shown.email });
  }
  return (
    <section aria-labelledby={`warn-${account.id}`}>
      <h3 id={`warn-${account.id}`}>Warnings</h3>
      {w.given.map((g) => (
        <p key={`${g.day}-${g.kind}`} className="notice" role="status">
          {KINDS[g.kind]} on {g.day}: {formatMoney(g.value, account.currency)} {g.kind === "floor" ? "above the floor" : "of the day's loss left"}, under your{" "}
          {formatMoney(g.threshold, account.currency)}
          {g.emailed ? " (emailed)" : ""}.
        </p>
      ))}
      <form className="form form--inline" onSubmit={submit} noValidate>
        <TextField label="Warn under this distance to the floor" inputMode="decimal" value={shown.floor} onChange={(ev) => setFloor(ev.target.value)} error={errors.floorDistance} />
        {dailyLimit && <TextField label="Warn under this much of the day's loss left" inputMode="decimal" value={shown.daily} onChange={(ev) => setDaily(ev.target.value)} error={errors.dailyLossLeft} />}
        <label className="checkbox">
          <input type="checkbox" checked={shown.email} onChange={(ev) => setEmail(ev.target.checked)} /> By email too
        </label>
        <button type="submit" className="button button--secondary" disabled={save.isPending}>
          Save the warnings
        </button>
      </form>
      {save.isSuccess && <StatusMessage>Saved: the journal warns at most once a day for each, after the fill that crosses it.</StatusMessage>}
      {!errors.floorDistance && !errors.dailyLossLeft && <ErrorAlert error={save.error} title="Could not save the warnings." />}
    </section>
  );
}

type Preset = Awaited<ReturnType<typeof fetchPresets>>["firms"][number];

function fetchPresets() {
  return unwrap(api.api["prop-firms"].$get());
}

/** The rules' editable figures, as text fields. */
const FIGURES = [
  ["startingBalance", "Starting balance"],
  ["profitTarget", "Profit target"],
  ["maxDrawdown", "Maximum drawdown"],
  ["dailyLossLimit", "Daily loss limit"],
] as const;

function EvaluationForm({ account, onDone }: { account: Account; onDone(): void }) {
  const queryClient = useQueryClient();
  const presets = useQuery({ queryKey: ["prop-firms"], queryFn: fetchPresets, staleTime: Infinity });
  const [presetId, setPresetId] = useState("");
  const [startDate, setStartDate] = useState(new Date().toISOString().slice(0, 10));
  const [figures, setFigures] = useState<Record<string, string>>({});
  const [status, setStatus] = useState("");
  const preset: Preset | undefined = presets.data?.firms.find((p) => p.id === presetId);
  const save = useMutation({
    mutationFn: (p: Preset) => {
      const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : v.trim());
      const json = {
        ...p.rules,
        firm: p.firm,
        phase: p.phase,
        currency: p.currency,
        startDate,
        startingBalance: figures.startingBalance?.trim() || p.rules.startingBalance,
        profitTarget: figures.profitTarget === undefined ? p.rules.profitTarget : blank(figures.profitTarget),
        maxDrawdown: figures.maxDrawdown?.trim() || p.rules.maxDrawdown,
        dailyLossLimit: figures.dailyLossLimit === undefined ? p.rules.dailyLossLimit : blank(figures.dailyLossLimit),
      };
      return unwrap(api.api.accounts[":id"].evaluation.$put({ param: { id: account.id }, json }));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: evaluationKey(account.id) });
      setStatus("Saved.");
      onDone();
    },
  });
  const errors = serverFieldErrors(save.error);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (preset) save.mutate(preset);
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Prop-firm rules">
      <ErrorAlert error={save.error} title="Could not save the rules." />
      <SelectField
        label="Firm and account"
        value={presetId}
        onChange={(e) => {
          setPresetId(e.target.value);
          setFigures({});
        }}
        hint="The firm's published rules, checked on the date shown: edit the figures if yours differ."
      >
        <option value="">Choose…</option>
        {(presets.data?.firms ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.firm}: {p.name}
          </option>
        ))}
      </SelectField>
      {preset && (
        <>
          <p className="muted">
            {MODES[preset.rules.drawdownMode]}; the day starts at {preset.rules.dayStartsAt} ({preset.rules.dayZone}); checked {preset.checkedOn}.
            {preset.rules.drawdownOn === "equity" && " The floor is measured on equity, open positions included."}
            {preset.rules.dailyLossSoft && " The daily loss limit is soft: reaching it ends the day, not the account."}
            {preset.rules.minDayProfitPct ? ` A day counts toward the minimum when it makes ${preset.rules.minDayProfitPct}% of the start.` : ""}
            {preset.unverified.length > 0 && ` Not confirmed on the firm's own pages: ${preset.unverified.join(", ")}.`}
          </p>
          <TextField label="First trading day" type="date" value={startDate} onChange={(e) => setStartDate(e.target.value)} error={errors.startDate} />
          {FIGURES.map(([key, label]) => (
            <TextField
              key={key}
              label={label}
              inputMode="decimal"
              value={figures[key] ?? preset.rules[key] ?? ""}
              onChange={(e) => setFigures((f) => ({ ...f, [key]: e.target.value }))}
              error={errors[key]}
              hint={key === "dailyLossLimit" || key === "profitTarget" ? `In ${preset.currency}; empty for none.` : `In ${preset.currency}.`}
            />
          ))}
          {errors.currency && <p className="field__error">The rules are in {preset.currency}: {errors.currency}.</p>}
        </>
      )}
      <StatusMessage>{save.isPending ? "Saving…" : status}</StatusMessage>
      <button type="submit" className="button" disabled={!preset || save.isPending}>
        Save the rules
      </button>
    </form>
  );
}
