// Trading rules (docs/discipline.md, "Trading rules"): an account's rules, each with its weight, turned on
// and off or removed, a form to add one, and how the trades kept them: the period's score and streak, the
// trades that kept every rule against those that broke one, what each rule's breaks cost, and each day's
// score. Scored after the fact: a rule never blocks a fill.
import { DisciplineTabs } from "../../components/discipline-tabs.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { NewRuleSchema, type RuleParams } from "../../../../lib/rules/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { type Account } from "../../api/queries.ts";
import { EmptyState, ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { WithAccounts } from "../../components/with-accounts.tsx";
import { formatPnl, toneOf } from "../../lib/format.ts";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { formatWinRate } from "../dashboard/format.ts";
import { useAccountParam } from "../import/accounts.ts";

type RuleType =
  | "max_daily_loss"
  | "max_loss_per_trade"
  | "max_trades_per_day"
  | "max_risk_per_trade"
  | "min_planned_rr"
  | "no_trading_weekdays"
  | "trading_hours"
  | "cooldown_after_loss";
type Weight = "critical" | "important" | "nice";

const TYPES: { value: RuleType; label: string }[] = [
  { value: "max_daily_loss", label: "Max daily loss" },
  { value: "max_loss_per_trade", label: "Max loss per trade" },
  { value: "max_trades_per_day", label: "Max trades a day" },
  { value: "max_risk_per_trade", label: "Max risk per trade (1R)" },
  { value: "min_planned_rr", label: "Min planned reward (R)" },
  { value: "no_trading_weekdays", label: "Weekdays off" },
  { value: "trading_hours", label: "Trading hours" },
  { value: "cooldown_after_loss", label: "Cooldown after a loss" },
];
const WEIGHTS: { value: Weight; label: string }[] = [
  { value: "critical", label: "Critical" },
  { value: "important", label: "Important" },
  { value: "nice", label: "Nice to have" },
];
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export const rulesKey = (accountId: string) => ["rules", accountId] as const;

/** The parameters a rule type takes, as typed in the form. */
type Draft = { amount: string; inR: boolean; count: string; ratio: string; weekdays: number[]; from: string; to: string; minutes: string };
const EMPTY: Draft = { amount: "", inR: false, count: "", ratio: "", weekdays: [], from: "09:30", to: "16:00", minutes: "" };

/** The rule as the API takes it (checked against its schema before it is sent). */
function ruleOf(type: RuleType, d: Draft): RuleParams {
  return ruleFields(type, d) as RuleParams;
}

function ruleFields(type: RuleType, d: Draft): Record<string, unknown> {
  const n = (v: string) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim() === "" ? undefined : Number.NaN);
  switch (type) {
    case "max_daily_loss":
    case "max_risk_per_trade":
      return { type, amount: d.amount.trim() };
    case "max_loss_per_trade":
      return d.inR ? { type, r: d.amount.trim() } : { type, amount: d.amount.trim() };
    case "max_trades_per_day":
      return { type, count: n(d.count) };
    case "min_planned_rr":
      return { type, ratio: d.ratio.trim() };
    case "no_trading_weekdays":
      return { type, weekdays: d.weekdays };
    case "trading_hours":
      return { type, from: d.from, to: d.to };
    case "cooldown_after_loss":
      return { type, minutes: n(d.minutes) };
  }
}

function NewRuleForm({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<RuleType>("max_daily_loss");
  const [weight, setWeight] = useState<Weight>("important");
  const [d, setD] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState("");
  const add = useMutation({
    mutationFn: (json: { accountId: string; rule: RuleParams; weight: Weight }) => unwrap(api.api.rules.$post({ json })),
    onSuccess: async (rule) => {
      setStatus(`Added: ${rule.label}.`);
      setD(EMPTY);
      await queryClient.invalidateQueries({ queryKey: ["rules", account.id] });
    },
  });
  const shown = { ...serverFieldErrors(add.error), ...errors };
  const field = (k: string) => shown[`rule.${k}`];
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setD({ ...d, [k]: e.target.value });

  function submit(e: FormEvent) {
    e.preventDefault();
    setStatus("");
    const value = { accountId: account.id, rule: ruleOf(type, d), weight };
    const found = schemaErrors(NewRuleSchema, value);
    setErrors(found);
    if (Object.keys(found).length === 0) add.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Add a rule">
      <ErrorAlert error={add.error} title="Could not add the rule." />
      <div className="grid-2">
        <SelectField label="Rule" value={type} onChange={(e) => setType(e.target.value as RuleType)} error={field("type")}>
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </SelectField>
        <SelectField label="Weight" value={weight} onChange={(e) => setWeight(e.target.value as Weight)} hint="How much breaking it lowers the score.">
          {WEIGHTS.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </SelectField>
      </div>
      {(type === "max_daily_loss" || type === "max_risk_per_trade") && (
        <TextField label={`Amount (${account.currency})`} inputMode="decimal" value={d.amount} onChange={set("amount")} error={field("amount")} />
      )}
      {type === "max_loss_per_trade" && (
        <div className="grid-2">
          <TextField label={d.inR ? "Loss in R" : `Loss (${account.currency})`} inputMode="decimal" value={d.amount} onChange={set("amount")} error={field("amount") ?? field("r")} />
          <label className="checkbox">
            <input type="checkbox" checked={d.inR} onChange={(e) => setD({ ...d, inR: e.target.checked })} /> In R (multiples of each trade&apos;s 1R)
          </label>
        </div>
      )}
      {type === "max_trades_per_day" && <TextField label="Trades a day" inputMode="numeric" value={d.count} onChange={set("count")} error={field("count")} />}
      {type === "min_planned_rr" && <TextField label="Planned reward at least (R)" inputMode="decimal" value={d.ratio} onChange={set("ratio")} error={field("ratio")} hint="e.g. 2: the target twice as far as the stop." />}
      {type === "no_trading_weekdays" && (
        <fieldset className={`field${field("weekdays") ? " field--invalid" : ""}`}>
          <legend>No trading on</legend>
          <div className="rating">
            {WEEKDAYS.map((name, i) => (
              <label key={name}>
                <input
                  type="checkbox"
                  checked={d.weekdays.includes(i + 1)}
                  onChange={(e) => setD({ ...d, weekdays: e.target.checked ? [...d.weekdays, i + 1] : d.weekdays.filter((x) => x !== i + 1) })}
                />
                {name}
              </label>
            ))}
          </div>
          {field("weekdays") && <p className="field__error">{field("weekdays")}</p>}
        </fieldset>
      )}
      {type === "trading_hours" && (
        <div className="grid-2">
          <TextField label="Open trades from" type="time" value={d.from} onChange={set("from")} error={field("from")} hint={`On the account's clock (${account.timezone}).`} />
          <TextField label="Until" type="time" value={d.to} onChange={set("to")} error={field("to")} />
        </div>
      )}
      {type === "cooldown_after_loss" && <TextField label="Minutes to wait after a losing trade" inputMode="numeric" value={d.minutes} onChange={set("minutes")} error={field("minutes")} />}
      <StatusMessage>{status}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={add.isPending}>
          Add rule
        </button>
      </div>
    </form>
  );
}

type Figures = { trades: number; wins: number; netPnl: string; expectancy: string | null };
const line = (f: Figures, currency: string) =>
  f.trades === 0 ? "No closed trades" : `${f.trades} ${f.trades === 1 ? "trade" : "trades"} · ${formatWinRate(f.wins, f.trades)} won · ${formatPnl(f.netPnl, currency)} · ${formatPnl(f.expectancy ?? "0", currency)} a trade`;

function Rules({ accounts }: { accounts: readonly Account[] }) {
  const queryClient = useQueryClient();
  const { account, setAccountId } = useAccountParam(accounts);
  const accountId = account!.id;
  const report = useQuery({ queryKey: ["rules", accountId, "compliance"], queryFn: () => unwrap(api.api.rules.compliance.$get({ query: { accountId } })) });
  const change = useMutation({
    mutationFn: ({ id, json }: { id: string; json: { enabled?: boolean; weight?: Weight } }) => unwrap(api.api.rules[":id"].$patch({ param: { id }, json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["rules", accountId] }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.api.rules[":id"].$delete({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["rules", accountId] }),
  });
  const labelOf = new Map((report.data?.rules ?? []).map((r) => [r.id, r.label]));
  const currency = account!.currency;
  return (
    <>
      <div className="panel">
        <SelectField label="Account" value={accountId} onChange={(e) => setAccountId(e.target.value)}>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </SelectField>
      </div>
      <section className="panel" aria-labelledby="add-rule-title">
        <h2 id="add-rule-title">Add a rule</h2>
        <NewRuleForm key={accountId} account={account!} />
      </section>
      <QueryView query={report} label="the rules">
        {(r) =>
          r.rules.length === 0 ? (
            <EmptyState title="No rules yet">
              <p>Rules are limits you set yourself. The journal checks every trade against them afterwards: it never stops a fill.</p>
            </EmptyState>
          ) : (
            <>
              <section className="panel" aria-labelledby="compliance-title">
                <h2 id="compliance-title">How you kept them</h2>
                <dl className="stats">
                  <div>
                    <dt>Score</dt>
                    <dd>{r.score === null ? "—" : `${r.score} / 100`}</dd>
                  </div>
                  <div>
                    <dt>Clean days in a row</dt>
                    <dd>{r.streak.current}</dd>
                  </div>
                  <div>
                    <dt>Best run</dt>
                    <dd>{r.streak.best}</dd>
                  </div>
                </dl>
                <dl className="facts">
                  <dt>Kept every rule</dt>
                  <dd className={toneOf(r.trades.compliant.netPnl)}>{line(r.trades.compliant, currency)}</dd>
                  <dt>Broke one or more</dt>
                  <dd className={toneOf(r.trades.broken.netPnl)}>{line(r.trades.broken, currency)}</dd>
                </dl>
              </section>
              <section className="panel" aria-labelledby="rule-list-title">
                <h2 id="rule-list-title">Rules</h2>
                <ErrorAlert error={change.error ?? remove.error} title="Could not change the rule." />
                <ul className="plain-list rule-list">
                  {r.rules.map((rule) => (
                    <li key={rule.id} aria-label={rule.label}>
                      <span>
                        <strong>{rule.label}</strong> <span className="badge">{WEIGHTS.find((w) => w.value === rule.weight)?.label}</span>
                        <br />
                        <span className="muted">
                          {rule.brokenTrades === 0 && rule.brokenDays === 0
                            ? "Never broken."
                            : `Broken by ${rule.brokenTrades} ${rule.brokenTrades === 1 ? "trade" : "trades"} on ${rule.brokenDays} ${rule.brokenDays === 1 ? "day" : "days"}; those trades made ${formatPnl(rule.brokenNetPnl, currency)}.`}
                        </span>
                      </span>
                      <button type="button" className="button button--secondary button--small" onClick={() => change.mutate({ id: rule.id, json: { enabled: false } })}>
                        Turn off<span className="visually-hidden"> {rule.label}</span>
                      </button>
                      <button type="button" className="button button--secondary button--small" onClick={() => remove.mutate(rule.id)}>
                        Delete<span className="visually-hidden"> {rule.label}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
              <section className="panel" aria-labelledby="days-title">
                <h2 id="days-title">Days</h2>
                <div className="table-wrap">
                  <table className="stack-table">
                    <caption className="visually-hidden">Each trading day's score and the rules it broke, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Day</th>
                        <th scope="col">Score</th>
                        <th scope="col">Net P&amp;L</th>
                        <th scope="col">Broke</th>
                      </tr>
                    </thead>
                    <tbody>
                      {[...r.days].reverse().slice(0, 60).map((d) => (
                        <tr key={d.day}>
                          <th scope="row">
                            <Link to={`/journal?account=${accountId}&week=${d.day}`}>{d.day}</Link>
                          </th>
                          <td data-label="Score">{d.score ?? "—"}</td>
                          <td data-label="Net P&L" className={toneOf(d.netPnl)}>
                            {formatPnl(d.netPnl, currency)}
                          </td>
                          <td data-label="Broke">{d.broken.length ? d.broken.map((id) => labelOf.get(id) ?? "a rule").join("; ") : "Nothing"}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </section>
            </>
          )
        }
      </QueryView>
      <DisabledRules accountId={accountId} />
    </>
  );
}

/** Rules turned off: listed apart, with a button to turn each back on. */
function DisabledRules({ accountId }: { accountId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: rulesKey(accountId), queryFn: () => unwrap(api.api.rules.$get({ query: { accountId } })) });
  const enable = useMutation({
    mutationFn: (id: string) => unwrap(api.api.rules[":id"].$patch({ param: { id }, json: { enabled: true } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["rules", accountId] }),
  });
  const off = (list.data?.rules ?? []).filter((r) => !r.enabled);
  if (off.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="off-title">
      <h2 id="off-title">Turned off</h2>
      <ul className="plain-list">
        {off.map((r) => (
          <li key={r.id}>
            {r.label}
            <button type="button" className="button button--secondary button--small" onClick={() => enable.mutate(r.id)}>
              Turn on<span className="visually-hidden"> {r.label}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RulesPage() {
  return (
    <>
      <PageHeader title="Trading rules" />
      <DisciplineTabs />
      <WithAccounts why="Rules are set per account.">{(list) => <Rules accounts={list} />}</WithAccounts>
    </>
  );
}
