// Simulations (docs/simulations.md): a Monte Carlo of the trader's own R multiples (what the next trades may
// bring at a chosen risk, the chance of ruin and of a target, the risk that keeps ruin under a limit), and the
// what-if on the real history (without the trades that broke the rules, the revenge trades, a weekday...,
// exits at the stop or the target), each with its figures in words and tables beside the pictures.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { type Account } from "../../api/queries.ts";
import { DisciplineTabs } from "../../components/discipline-tabs.tsx";
import { ScopeSelect, useStatsScope, type Filter } from "../../components/stats-scope.tsx";
import { ErrorAlert, PageHeader, QueryView, SelectField, TextField } from "../../components/ui.tsx";
import { WithAccounts } from "../../components/with-accounts.tsx";
import { formatDate, formatMoney, formatPnl, symbolLabel, toneOf } from "../../lib/format.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";
import { FanChart, Histogram, OverlayChart } from "./charts.tsx";
import "./simulations.css";

const pct = (p: string) => `${(Number(p) * 100).toFixed(1)}%`;
const ci = (range: readonly string[] | null) => (range ? `${pct(range[0]!)} to ${pct(range[1]!)}` : "");

type MonteCarlo = Awaited<ReturnType<typeof runSimulation>>;

function runSimulation(json: Record<string, unknown>) {
  return unwrap(api.api.simulations["monte-carlo"].$post({ json: json as never }));
}

function MonteCarloPanel({ filter, currency }: { filter: Filter; currency: string | null }) {
  const [form, setForm] = useState({ trades: "500", paths: "10000", riskPerTrade: "100", startingBalance: "10000", ruinAt: "5000", targetAt: "", blockSize: "", seed: "", evaluationFee: "" });
  const [prop, setProp] = useState(false);
  const run = useMutation({ mutationFn: runSimulation });
  const errors = serverFieldErrors(run.error);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  function submit(e: FormEvent) {
    e.preventDefault();
    const num = (v: string) => (v.trim() === "" ? undefined : Number(v));
    const text = (v: string) => (v.trim() === "" ? undefined : v.trim());
    run.mutate({
      ...filter,
      trades: num(form.trades),
      paths: num(form.paths),
      riskPerTrade: form.riskPerTrade.trim(),
      startingBalance: form.startingBalance.trim(),
      ruinAt: text(form.ruinAt),
      targetAt: text(form.targetAt),
      blockSize: num(form.blockSize),
      seed: num(form.seed),
      ...(prop && filter.accountId ? { prop: { evaluationFee: text(form.evaluationFee) } } : {}),
    });
  }
  return (
    <section className="panel" aria-labelledby="monte-carlo-title">
      <h2 id="monte-carlo-title">Monte Carlo of your own trades</h2>
      <p className="muted">Your closed trades with a 1R, drawn again and again in blocks of consecutive trades: what the next trades could bring at a risk you choose.</p>
      <form className="form sim-form" onSubmit={submit} noValidate aria-label="Monte Carlo">
        <TextField label="Trades per path" inputMode="numeric" value={form.trades} onChange={set("trades")} error={errors.trades} />
        <TextField label="Paths" inputMode="numeric" value={form.paths} onChange={set("paths")} error={errors.paths} hint="Up to 100,000." />
        <TextField label="Risk per trade" inputMode="decimal" value={form.riskPerTrade} onChange={set("riskPerTrade")} error={errors.riskPerTrade} hint="Money risked on each trade (1R)." />
        <TextField label="Starting balance" inputMode="decimal" value={form.startingBalance} onChange={set("startingBalance")} error={errors.startingBalance} />
        <TextField label="Ruin at" inputMode="decimal" value={form.ruinAt} onChange={set("ruinAt")} error={errors.ruinAt} hint="Equity you would stop at." />
        <TextField label="Target" inputMode="decimal" value={form.targetAt} onChange={set("targetAt")} error={errors.targetAt} hint="Optional." />
        <TextField label="Block size" inputMode="numeric" value={form.blockSize} onChange={set("blockSize")} error={errors.blockSize} hint="Blank: the cube root of your trades." />
        <TextField label="Seed" inputMode="numeric" value={form.seed} onChange={set("seed")} error={errors.seed} hint="Blank: a new one (shown with the result)." />
        <fieldset className="sim-checks">
          <legend>Prop firm</legend>
          <label>
            <input type="checkbox" checked={prop && !!filter.accountId} disabled={!filter.accountId} onChange={(e) => setProp(e.target.checked)} /> Also as attempts at this account's evaluation
            {!filter.accountId && <span className="muted"> (choose an account with prop-firm rules)</span>}
          </label>
          {prop && filter.accountId && (
            <TextField label="Evaluation fee" inputMode="decimal" value={form.evaluationFee} onChange={set("evaluationFee")} error={errors["prop.evaluationFee"]} hint="What one attempt costs: for the fees expected until funded." />
          )}
        </fieldset>
        <button type="submit" className="button" disabled={run.isPending}>
          {run.isPending ? "Simulating…" : "Run the simulation"}
        </button>
      </form>
      <ErrorAlert error={run.error} title="Could not run the simulation." />
      {run.data && <MonteCarloResult r={run.data} currency={currency} />}
    </section>
  );
}

function MonteCarloResult({ r, currency }: { r: MonteCarlo; currency: string | null }) {
  const money = (v: string) => formatMoney(v, currency);
  const last = r.fan[r.fan.length - 1]!;
  return (
    <div className="sim-result" aria-live="polite">
      <p>
        {r.paths.toLocaleString()} paths of {r.trades.toLocaleString()} trades, drawn from your {r.sampled} trades with a 1R in blocks of {r.blockSize} (seed {r.seed}).
      </p>
      <dl className="stats">
        <div>
          <dt>Median final equity</dt>
          <dd>{money(r.final.p50)}</dd>
        </div>
        <div>
          <dt>5th to 95th percentile</dt>
          <dd>
            {money(r.final.p5)} to {money(r.final.p95)}
          </dd>
        </div>
        <div>
          <dt>Max drawdown (median, 95th)</dt>
          <dd>
            {money(r.maxDrawdown.p50)}, {money(r.maxDrawdown.p95)}
          </dd>
        </div>
        <div>
          <dt>Probability of ruin</dt>
          <dd>
            {pct(r.ruinProbability)} <span className="muted">({ci(r.ruinCi)})</span>
          </dd>
        </div>
        {r.targetProbability !== null && (
          <div>
            <dt>Probability of reaching {money(r.targetAt!)}</dt>
            <dd>
              {pct(r.targetProbability)} <span className="muted">({ci(r.targetCi)})</span>
            </dd>
          </div>
        )}
      </dl>
      <h3>Equity along the paths</h3>
      <FanChart
        fan={r.fan}
        samples={r.samplePaths}
        description={`Equity over ${r.trades} trades: after the last, half the paths end above ${money(last.p50)}; 90% between ${money(last.p5)} and ${money(last.p95)}; 50% between ${money(last.p25)} and ${money(last.p75)}.`}
      />
      <div className="sim-histograms">
        <figure>
          <Histogram counts={r.histograms.final.counts} description={`How the paths' final equity spreads, from ${money(r.histograms.final.from)} in ${r.histograms.final.counts.length} bins of ${money(r.histograms.final.width)}.`} />
          <figcaption>Final equity, from {money(r.histograms.final.from)}</figcaption>
        </figure>
        <figure>
          <Histogram counts={r.histograms.maxDrawdown.counts} description={`How the paths' deepest drawdown spreads, from ${money(r.histograms.maxDrawdown.from)} in bins of ${money(r.histograms.maxDrawdown.width)}.`} />
          <figcaption>Max drawdown, from {money(r.histograms.maxDrawdown.from)}</figcaption>
        </figure>
      </div>
      <h3>Risk per trade</h3>
      <p>
        The median is highest at {money(r.sweep.bestMedian.riskPerTrade)} a trade ({money(r.sweep.bestMedian.medianFinal)}, with ruin at {pct(r.sweep.bestMedian.ruinProbability)});{" "}
        {r.sweep.withinLimit === null ? "no risk ruins these paths." : `ruin stays within ${pct(r.sweep.maxRuin)} up to ${money(r.sweep.withinLimit)} a trade.`}
      </p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Median final equity and probability of ruin at each risk per trade</caption>
          <thead>
            <tr>
              <th scope="col">Risk per trade</th>
              <th scope="col">Median final</th>
              <th scope="col">Ruin</th>
            </tr>
          </thead>
          <tbody>
            {r.sweep.levels.map((l) => (
              <tr key={l.riskPerTrade} className={l.riskPerTrade === r.riskPerTrade ? "sim-row--yours" : undefined}>
                <th scope="row">
                  {money(l.riskPerTrade)}
                  {l.riskPerTrade === r.riskPerTrade && " (yours)"}
                </th>
                <td data-label="Median final">{money(l.medianFinal)}</td>
                <td data-label="Ruin">{pct(l.ruinProbability)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.prop && (
        <>
          <h3>As attempts at the evaluation</h3>
          <dl className="stats">
            <div>
              <dt>Passes</dt>
              <dd>
                {pct(r.prop.passProbability)} <span className="muted">({ci(r.prop.passCi)})</span>
              </dd>
            </div>
            <div>
              <dt>Breaches</dt>
              <dd>
                {pct(r.prop.breachProbability)} <span className="muted">({ci(r.prop.breachCi)})</span>
              </dd>
            </div>
            <div>
              <dt>Neither within {r.trades} trades</dt>
              <dd>{pct(r.prop.undecidedProbability)}</dd>
            </div>
            <div>
              <dt>Trading days to a pass</dt>
              <dd>{r.prop.daysToPass ? `${r.prop.daysToPass.p50} (95%: ${r.prop.daysToPass.p95})` : "No pass"}</dd>
            </div>
            <div>
              <dt>Fees expected until funded</dt>
              <dd>
                {r.prop.expectedFeesUntilFunded === null ? "—" : money(r.prop.expectedFeesUntilFunded)}
                {r.prop.expectedAttempts && <span className="muted"> ({r.prop.expectedAttempts} attempts)</span>}
              </dd>
            </div>
          </dl>
          <p className="muted">{r.prop.tradesPerDay} trades a trading day; each trade's result lands at once, so a breach at a trade's worst moment is not seen (for intraday rules the pass figure is an upper bound).</p>
        </>
      )}
      <aside className="notice sim-assumptions" aria-label="Assumptions">
        <h3>What this assumes</h3>
        <ul>
          {r.assumptions.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      </aside>
    </div>
  );
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const EXITS = [
  ["actual", "As they were"],
  ["stop", "At the stop, where the bars reached it"],
  ["target", "At the target, where the bars reached it"],
  ["best", "At the best exit the bars allowed"],
] as const;

function WhatIfPanel({ filter, currency, zone }: { filter: Filter; currency: string | null; zone: string | undefined }) {
  const [checks, setChecks] = useState({ "broke-rules": false, revenge: false, overtrading: false });
  const [weekday, setWeekday] = useState("");
  const [hour, setHour] = useState("");
  // Typed names apply on leaving the field or pressing Enter, not on every key (each is a read of the period).
  const [draft, setDraft] = useState({ tag: "", setup: "" });
  const [{ tag, setup }, apply] = useState({ tag: "", setup: "" });
  const [exit, setExit] = useState<(typeof EXITS)[number][0]>("actual");
  const exclude = [
    ...Object.entries(checks)
      .filter(([, on]) => on)
      .map(([k]) => k),
    ...(weekday ? [`weekday:${weekday}`] : []),
    ...(hour ? [`hour:${hour}`] : []),
    ...(tag.trim() ? [`tag:${tag.trim()}`] : []),
    ...(setup.trim() ? [`setup:${setup.trim()}`] : []),
  ].join(",");
  const query = { ...filter, exit, ...(exclude ? { exclude } : {}) };
  const result = useQuery({ queryKey: ["what-if", query], queryFn: () => unwrap(api.api.stats["what-if"].$get({ query })) });
  const money = (v: string) => formatPnl(v, currency);
  return (
    <section className="panel" aria-labelledby="what-if-title">
      <h2 id="what-if-title">What if…</h2>
      <p className="muted">Your real trades of the period, without the ones you name, or with their exits moved.</p>
      <form
        className="form sim-form"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
        aria-label="What-if"
      >
        <fieldset className="sim-checks">
          <legend>Leave out</legend>
          {(
            [
              ["broke-rules", "Trades that broke a rule"],
              ["revenge", "Revenge trades"],
              ["overtrading", "Overtrading days"],
            ] as const
          ).map(([k, label]) => (
            <label key={k}>
              <input type="checkbox" checked={checks[k]} disabled={k === "broke-rules" && !filter.accountId} onChange={(e) => setChecks((c) => ({ ...c, [k]: e.target.checked }))} /> {label}
              {k === "broke-rules" && !filter.accountId && <span className="muted"> (choose an account)</span>}
            </label>
          ))}
        </fieldset>
        <SelectField label="Weekday" value={weekday} onChange={(e) => setWeekday(e.target.value)}>
          <option value="">None</option>
          {WEEKDAYS.map((d, i) => (
            <option key={d} value={String(i + 1)}>
              {d}
            </option>
          ))}
        </SelectField>
        <SelectField label="Hour of entry" value={hour} onChange={(e) => setHour(e.target.value)}>
          <option value="">None</option>
          {Array.from({ length: 24 }, (_, h) => (
            <option key={h} value={String(h)}>
              {String(h).padStart(2, "0")}:00
            </option>
          ))}
        </SelectField>
        <TextField label="Tag" value={draft.tag} onChange={(e) => setDraft((d) => ({ ...d, tag: e.target.value }))} onBlur={() => apply(draft)} hint="Trades carrying it." />
        <TextField label="Setup" value={draft.setup} onChange={(e) => setDraft((d) => ({ ...d, setup: e.target.value }))} onBlur={() => apply(draft)} hint="Trades of it." />
        <SelectField label="Exits" value={exit} onChange={(e) => setExit(e.target.value as typeof exit)}>
          {EXITS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </SelectField>
        <button type="submit" className="button button--secondary">
          Apply
        </button>
      </form>
      <QueryView query={result} label="the what-if">
        {(w) => (
          <div className="sim-result">
            <p>
              {w.removed} {w.removed === 1 ? "trade" : "trades"} left out, {w.changed} changed: {money(w.actual.netPnl)} would have been <strong className={toneOf(w.whatIf.netPnl)}>{money(w.whatIf.netPnl)}</strong>.
            </p>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">The period's closed trades as they were and in the what-if</caption>
                <thead>
                  <tr>
                    <th scope="col">Figure</th>
                    <th scope="col">Actual</th>
                    <th scope="col">What-if</th>
                  </tr>
                </thead>
                <tbody>
                  {(
                    [
                      ["Net P&L", (s: typeof w.actual) => money(s.netPnl)],
                      ["Trades", (s: typeof w.actual) => String(s.trades)],
                      ["Win rate", (s: typeof w.actual) => (s.winRate === null ? "—" : pct(s.winRate))],
                      ["Profit factor", (s: typeof w.actual) => s.profitFactor ?? "—"],
                      ["Expectancy", (s: typeof w.actual) => (s.expectancy === null ? "—" : money(s.expectancy))],
                      ["Max drawdown", (s: typeof w.actual) => formatMoney(s.maxDrawdown, currency)],
                      ["Total R", (s: typeof w.actual) => (s.r.total === null ? "—" : `${s.r.total} R`)],
                    ] as const
                  ).map(([label, show]) => (
                    <tr key={label}>
                      <th scope="row">{label}</th>
                      <td data-label="Actual">{show(w.actual)}</td>
                      <td data-label="What-if">{show(w.whatIf)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {w.curves.length > 1 && (
              <OverlayChart
                actual={w.curves.map((c) => c.actual)}
                whatIf={w.curves.map((c) => c.whatIf)}
                description={`Cumulative net P&L from ${w.curves[0]!.date} to ${w.curves[w.curves.length - 1]!.date}: as it was (solid line) ends at ${money(w.actual.netPnl)}, the what-if (dashed) at ${money(w.whatIf.netPnl)}.`}
              />
            )}
            {w.trades.length > 0 && (
              <>
                <h3>The trades left out or changed</h3>
                <ul className="plain-list" aria-label="The trades left out or changed">
                  {w.trades.slice(0, 50).map((t) => (
                    <li key={t.id}>
                      <Link to={`/trades/${t.id}`}>
                        {symbolLabel(t.symbol)} · {formatDate(t.closedAt, zone)}
                      </Link>
                      <span className={toneOf(t.netPnl)}>{money(t.netPnl)}</span>
                      <span className="muted">{t.whatIfPnl === null ? `left out (${t.removedFor.join(", ")})` : `→ ${money(t.whatIfPnl)}`}</span>
                    </li>
                  ))}
                </ul>
                {w.removed + w.changed > 50 && <p className="muted">And {w.removed + w.changed - 50} more.</p>}
              </>
            )}
          </div>
        )}
      </QueryView>
    </section>
  );
}

function Simulations({ accounts }: { accounts: readonly Account[] }) {
  const { currencies, filter, value, currency, choose } = useStatsScope(accounts);
  const zone = filter.accountId ? accounts.find((a) => a.id === filter.accountId)?.timezone : undefined;
  return (
    <>
      <div className="form form--inline">
        <ScopeSelect accounts={accounts} currencies={currencies} value={value} onChange={choose} />
      </div>
      <MonteCarloPanel filter={filter} currency={currency} />
      <WhatIfPanel filter={filter} currency={currency} zone={zone} />
    </>
  );
}

export function SimulationsPage() {
  return (
    <>
      <PageHeader title="Simulations" />
      <DisciplineTabs />
      <WithAccounts why="Simulations are drawn from your trades.">{(list) => <Simulations accounts={list} />}</WithAccounts>
    </>
  );
}
