import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { EmptyState, PageHeader, QueryView, SelectField, TextField } from "../../components/ui.tsx";
import { WithAccounts } from "../../components/with-accounts.tsx";
import { ScopeSelect, useStatsScope, type Filter } from "../../components/stats-scope.tsx";
import { keys, useInstanceConfig, useSettings, type Account } from "../../api/queries.ts";
import { MissingRates } from "../../components/missing-rates.tsx";
import { PropSummary } from "./prop-summary.tsx";
import { WashWatch } from "./wash-watch.tsx";
import { kindOfLabel } from "../../../../lib/options/kinds.ts";
import { BREAKDOWN_LABELS, BreakdownTable, groupFilter, type BreakdownBy } from "./breakdown.tsx";
import { addMonths, monthBounds, monthOf, type Month } from "./calendar.ts";
import { EquityChart, type Bucket } from "./equity-chart.tsx";
import { formatMoney, formatPnl, formatR, toneOf, type Unit } from "../../lib/format.ts";
import { formatFactor, formatWinRate } from "./format.ts";
import { PnlCalendar } from "./pnl-calendar.tsx";
import { RDistribution } from "./r-distribution.tsx";
import { ExcursionScatter } from "./excursion-scatter.tsx";
import { PERIODS, addDays, monthQuery, periodDays, rangeQuery, todayIn, type Period } from "./range.ts";
import "./dashboard.css";

type Range = { from?: string; to?: string };
type Scope = Filter & Range;
/** How the summary counts: each trade (the default, sent as no countBy), or each option strategy once. */
type CountBy = "trade" | "strategy";

const stats = api.api.stats;

function fetchSummary(q: Scope & { countBy?: "strategy" }) {
  // countBy has a default on the server; the typed client reads the parsed query, where it is always set.
  return unwrap(stats.summary.$get({ query: q as Scope & { countBy: CountBy } }));
}

/** Whether the user has any option strategy: the count switch and the breakdown by strategy are offered then. */
function useHasStrategies() {
  const query = { limit: "1" };
  const found = useQuery({ queryKey: keys.strategyList(query), queryFn: () => unwrap(api.api.strategies.$get({ query: { limit: 1 } })), staleTime: 60_000 });
  return (found.data?.strategies.length ?? 0) > 0;
}

/** Count each trade or each option strategy once, kept in the URL as `?count=strategy`. */
function useCountBy(): [CountBy, (c: CountBy) => void] {
  const [params, setParams] = useSearchParams();
  const choose = (c: CountBy) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (c === "strategy") next.set("count", "strategy");
        else next.delete("count");
        return next;
      },
      { replace: true },
    );
  return [params.get("count") === "strategy" ? "strategy" : "trade", choose];
}
type Summary = Awaited<ReturnType<typeof fetchSummary>>;

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function DashboardPage() {
  // The base currency decides the default scope: wait for it (an error reads as none).
  const settings = useSettings();
  return (
    <>
      <PageHeader title="Dashboard" />
      <WithAccounts why="Statistics are computed from the trades in your accounts.">{(list) => !settings.isPending && <Dashboard accounts={list} baseCurrency={settings.data?.baseCurrency ?? null} />}</WithAccounts>
    </>
  );
}

/** Money or R (multiples of each trade's planned risk), kept in the URL as `?unit=r`. */
function useUnit(currency: string | null): [Unit, (r: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const inR = params.get("unit") === "r";
  const choose = (r: boolean) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (r) next.set("unit", "r");
        else next.delete("unit");
        return next;
      },
      { replace: true },
    );
  return [inR ? { kind: "r" } : { kind: "money", currency }, choose];
}

/**
 * The trades list behind a figure: the trades with a fill in the range (what moved its P&L), in the account
 * chosen, with the group's own filters.
 */
function tradesHref(filter: Filter, range: { from?: string; to?: string }, more: Record<string, string> = {}): string {
  const q = new URLSearchParams({
    ...(filter.accountId ? { accountId: filter.accountId } : {}),
    ...(range.from ? { tradedFrom: range.from } : {}),
    ...(range.to ? { tradedTo: range.to } : {}),
    ...more,
  });
  return `/trades?${q.toString()}`;
}

/** The strategies list behind a breakdown row: the closed strategies of that kind, in the account chosen. */
function strategiesHref(filter: Filter, label: string): string | null {
  const kind = kindOfLabel(label);
  if (!kind) return null;
  return `/strategies?${new URLSearchParams({ ...(filter.accountId ? { accountId: filter.accountId } : {}), kind, status: "closed" }).toString()}`;
}

function Dashboard({ accounts, baseCurrency }: { accounts: readonly Account[]; baseCurrency: string | null }) {
  const { accountId, account, currencies, filter, value, currency, choose, inBase, base } = useStatsScope(accounts, baseCurrency);
  const [unit, chooseUnit] = useUnit(currency);
  const unitName = useId();
  const countName = useId();
  const hasStrategies = useHasStrategies();
  const [chosenCount, chooseCount] = useCountBy();
  // Counting by strategy, in the base too (docs/currencies.md: each strategy at its close date's rate).
  const byStrategy = hasStrategies;
  const countBy = byStrategy ? chosenCount : "trade";
  const [period, setPeriod] = useState<Period>("all");
  const [custom, setCustom] = useState({ from: "", to: "" });
  const zone = account?.timezone ?? browserZone();
  const days = periodDays(period, todayIn(zone), custom);
  const range = rangeQuery(days, zone);
  const scope: Scope = { ...filter, ...range };
  const summaryQuery = countBy === "strategy" ? { ...scope, countBy } : scope;
  const summary = useQuery({ queryKey: ["stats", "summary", summaryQuery], queryFn: () => fetchSummary(summaryQuery), placeholderData: keepPreviousData });

  return (
    <>
      <section className="panel dashboard-filters" aria-label="Filters">
        <div className="form form--inline">
          <ScopeSelect accounts={accounts} currencies={currencies} value={value} onChange={choose} base={base} />
          <SelectField label="Period" value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </SelectField>
          <fieldset className="unit-switch">
            <legend>Show</legend>
            <div className="segmented">
              {([false, true] as const).map((r) => (
                <label key={String(r)} className="segmented__option">
                  <input type="radio" name={unitName} checked={(unit.kind === "r") === r} onChange={() => chooseUnit(r)} />
                  <span>{r ? "R" : (currency ?? "Money")}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {byStrategy && (
            <fieldset className="unit-switch">
              <legend>Count</legend>
              <div className="segmented">
                {(["trade", "strategy"] as const).map((c) => (
                  <label key={c} className="segmented__option">
                    <input type="radio" name={countName} checked={countBy === c} onChange={() => chooseCount(c)} />
                    <span>{c === "trade" ? "Each trade" : "Each strategy"}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {period === "custom" && (
            <>
              <TextField label="From" type="date" value={custom.from} max={custom.to || undefined} onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))} />
              <TextField label="To" type="date" value={custom.to} min={custom.from || undefined} onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))} />
            </>
          )}
        </div>
        <p className="field__hint">
          P&L and fees count on the day a fill realised or paid them, partial exits included; trades, win rate and averages count the trades
          closed in the period. Days are those of {account ? `the account's time zone (${zone})` : `each account's time zone; the period uses ${zone}`}.
          {currencies.length > 1 && !account && !inBase && ` Your accounts are in ${currencies.join(", ")}: each currency is shown on its own, as amounts are never added across currencies${base ? "" : " (choose a base currency in Settings, Currency, to see them all converted)"}.`}
          {inBase && ` Every account converted to ${inBase}: each day's amounts at that day's reference rate (or your own), each trade's at its close date's; see the rates in Settings, Currency.`}
          {countBy === "strategy" &&
            " Counting each strategy: an option spread, condor or covered call is one trade, won or lost by its legs' net P&L together (its P&L and fees are the same either way)."}
          {unit.kind === "r" &&
            " In R, each closed trade counts as its net P&L divided by its 1R (its planned risk, the distance to its stop, or the account's default risk); trades without one are left out, and each figure says how many count."}
        </p>
      </section>

      <PropSummary />
      <WashWatch />
      <QueryView query={summary} label="statistics">
        {(s) =>
          s.trades === 0 && period === "all" ? (
            <EmptyState
              title="No closed trades yet"
              action={
                <>
                  <Link to={`/import${accountId ? `?account=${accountId}` : ""}`} className="button">
                    Import a CSV
                  </Link>
                  <Link to="/fills/new" className="button button--secondary">
                    Add a fill
                  </Link>
                </>
              }
            >
              <p>Import your broker history or add a fill to see your statistics.</p>
            </EmptyState>
          ) : (
            <>
              {s.missingRates && s.missingRates.length > 0 && <MissingRates missing={s.missingRates} />}
              {unit.kind === "r" ? <RCards summary={s} /> : <SummaryCards summary={s} currency={currency} converted={inBase} />}
              {s.trades === 0 ? (
                <p className="notice">No trades closed in this period. Choose another period or account.</p>
              ) : unit.kind === "r" && s.r.withRisk === 0 ? (
                <p className="notice">
                  None of these trades has a planned risk yet. Set a stop (or a planned risk) on a trade, or a default risk on the account, to see
                  them in R.
                </p>
              ) : (
                <>
                  <EquitySection scope={scope} unit={unit} />
                  {unit.kind === "r" && <RDistributionSection scope={scope} />}
                  <BreakdownSection scope={scope} unit={unit} strategies={byStrategy} />
                  <ExcursionSection scope={scope} unit={unit} />
                </>
              )}
            </>
          )
        }
      </QueryView>
      {summary.data && (summary.data.trades > 0 || period !== "all") && (
        <CalendarSection filter={filter} zone={zone} unit={unit} initial={days ? monthOf(days.to || days.from || todayIn(zone)) : null} today={todayIn(zone)} accounts={accounts} />
      )}
    </>
  );
}

function SummaryCards({ summary: s, currency, converted = null }: { summary: Summary; currency: string | null; converted?: string | null }) {
  const money = (v: string | null | undefined) => (v === null || v === undefined ? "—" : formatPnl(v, currency));
  const cards: { label: string; value: string; tone?: string; note?: string }[] = [
    { label: "Net P&L", value: formatPnl(s.netPnl, currency), tone: toneOf(s.netPnl), note: "after fees" },
    { label: "Gross P&L", value: formatPnl(s.grossPnl, currency), tone: toneOf(s.grossPnl), note: "before fees" },
    { label: "Fees", value: formatMoney(s.fees, currency) },
    { label: "Trades", value: String(s.trades), note: `${s.wins} won, ${s.losses} lost` },
    { label: "Win rate", value: formatWinRate(s.wins, s.trades) },
    { label: "Profit factor", value: s.profitFactor === null && s.wins > 0 ? "No losses" : formatFactor(s.profitFactor) },
    { label: "Expectancy", value: money(s.expectancy), tone: s.expectancy ? toneOf(s.expectancy) : "", note: "per trade" },
    { label: "Average win", value: money(s.averageWin), tone: "positive" },
    { label: "Average loss", value: money(s.averageLoss), tone: "negative" },
    { label: "Largest win", value: money(s.largestWin), tone: "positive" },
    { label: "Largest loss", value: money(s.largestLoss), tone: "negative" },
    { label: "Max drawdown", value: formatMoney(s.maxDrawdown, currency), note: converted ? "deepest fall from a peak, at each day's close" : "deepest fall from a peak, after every fill" },
  ];
  // Converted figures say how, on hover (docs/currencies.md).
  const how = converted ? `Converted to ${converted}: each day's amounts at that day's reference rate (or your own), each trade's at its close date's rate.` : undefined;
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading">Summary{converted ? ` in ${converted}` : ""}</h2>
      <ul className="stat-cards" aria-labelledby="summary-heading">
        {cards.map((c) => (
          <li key={c.label} className="stat-card" title={how && c.label !== "Trades" && c.label !== "Win rate" && c.label !== "Profit factor" ? how : undefined}>
            <span className="stat-card__label">{c.label}</span>
            <span className={`stat-card__value ${c.value === "—" ? "" : (c.tone ?? "")}`}>{c.value}</span>
            {c.note && <span className="stat-card__note">{c.note}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The summary in R: over the closed trades that have a 1R, each figure saying how many those are. */
function RCards({ summary: s }: { summary: Summary }) {
  const r = s.r;
  const of = `${r.withRisk} of ${s.trades} ${s.trades === 1 ? "trade" : "trades"} with risk`;
  const value = (v: string | null) => (v === null ? "—" : formatR(v));
  const cards: { label: string; value: string; tone?: string; note: string }[] = [
    { label: "Total R", value: value(r.total), tone: r.total ? toneOf(r.total) : "", note: of },
    { label: "Expectancy", value: value(r.expectancy), tone: r.expectancy ? toneOf(r.expectancy) : "", note: `per trade, ${of}` },
    { label: "Average win", value: value(r.averageWin), tone: "positive", note: of },
    { label: "Average loss", value: value(r.averageLoss), tone: "negative", note: of },
    { label: "Best trade", value: value(r.best), tone: r.best ? toneOf(r.best) : "", note: of },
    { label: "Worst trade", value: value(r.worst), tone: r.worst ? toneOf(r.worst) : "", note: of },
    { label: "Win rate", value: formatWinRate(s.wins, s.trades), note: `all ${s.trades} closed ${s.trades === 1 ? "trade" : "trades"}` },
  ];
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading">Summary in R</h2>
      <ul className="stat-cards" aria-labelledby="summary-heading">
        {cards.map((c) => (
          <li key={c.label} className="stat-card">
            <span className="stat-card__label">{c.label}</span>
            <span className={`stat-card__value ${c.value === "—" ? "" : (c.tone ?? "")}`}>{c.value}</span>
            <span className="stat-card__note">{c.note}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ExcursionSection({ scope, unit }: { scope: Scope; unit: Unit }) {
  const points = useQuery({
    queryKey: ["stats", "excursions", scope],
    queryFn: () => unwrap(stats.excursions.$get({ query: scope })),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="panel" aria-labelledby="excursions-heading">
      <h2 id="excursions-heading">How far trades went</h2>
      <QueryView query={points} label="the excursions">
        {(data) => <ExcursionScatter points={data.points} trades={data.trades} withExcursions={data.withExcursions} unit={unit} />}
      </QueryView>
    </section>
  );
}

function RDistributionSection({ scope }: { scope: Scope }) {
  const dist = useQuery({
    queryKey: ["stats", "r-distribution", scope],
    queryFn: () => unwrap(stats["r-distribution"].$get({ query: scope })),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="panel" aria-labelledby="r-distribution-heading">
      <h2 id="r-distribution-heading">R distribution</h2>
      <QueryView query={dist} label="the R distribution">
        {(data) => <RDistribution buckets={data.buckets} withRisk={data.withRisk} trades={data.trades} />}
      </QueryView>
    </section>
  );
}

function EquitySection({ scope, unit }: { scope: Scope; unit: Unit }) {
  const [bucket, setBucket] = useState<Bucket>("day");
  const name = useId();
  const equity = useQuery({
    queryKey: ["stats", "equity", scope, bucket],
    queryFn: () => unwrap(stats.equity.$get({ query: { ...scope, bucket } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="panel" aria-labelledby="equity-heading">
      <div className="section-head">
        <h2 id="equity-heading">Equity curve</h2>
        <fieldset className="segmented">
          <legend className="visually-hidden">Group the curve by</legend>
          {(["day", "week", "month"] as const).map((b) => (
            <label key={b} className="segmented__option">
              <input type="radio" name={name} value={b} checked={bucket === b} onChange={() => setBucket(b)} />
              <span>{b === "day" ? "Day" : b === "week" ? "Week" : "Month"}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <QueryView query={equity} label="the equity curve">
        {(data) => (
          <EquityChart
            points={unit.kind === "r" ? data.points.map((p) => ({ start: p.start, netPnl: p.rTotal ?? "0", equity: p.rEquity, trades: p.withRisk })) : data.points}
            bucket={data.bucket}
            unit={unit}
          />
        )}
      </QueryView>
    </section>
  );
}

function CalendarSection({ filter, zone, unit, initial, today, accounts }: { filter: Filter; zone: string; unit: Unit; initial: Month | null; today: string; accounts: readonly Account[] }) {
  const [chosen, setChosen] = useState<Month | null>(null);
  // The instance's WEEK_START_DAY (as the weekly equity buckets) until the reader picks another.
  const instance = useInstanceConfig();
  const [pickedWeekStart, setWeekStart] = useState<0 | 1 | null>(null);
  const weekStart = pickedWeekStart ?? (instance.data?.weekStartDay === 1 ? 1 : 0);
  // The latest day with a closed trade, to open the calendar where the trading happened.
  const latest = useQuery({
    queryKey: ["stats", "calendar", "latest", filter],
    queryFn: () => unwrap(stats.calendar.$get({ query: filter })),
    enabled: chosen === null && initial === null,
  });
  const lastDay = latest.data?.days[latest.data.days.length - 1]?.date;
  const month = chosen ?? initial ?? (lastDay ? monthOf(lastDay) : monthOf(today));
  const bounds = useMemo(() => monthQuery(month), [month]);
  const calendar = useQuery({
    queryKey: ["stats", "calendar", filter, month.year, month.month],
    queryFn: () => unwrap(stats.calendar.$get({ query: { ...filter, ...bounds } })),
    placeholderData: keepPreviousData,
  });
  // Days with a daily journal entry in an account in scope: marked on the calendar, a link to that week.
  const { first, next } = monthBounds(month);
  const entries = useQuery({
    queryKey: ["days", "month", filter.accountId ?? "", first],
    queryFn: () => unwrap(api.api.days.$get({ query: { ...(filter.accountId ? { accountId: filter.accountId } : {}), from: first, to: addDays(next, -1) } })),
  });
  const inScope = new Set(accounts.filter((a) => (filter.accountId ? a.id === filter.accountId : !filter.currency || a.currency === filter.currency)).map((a) => a.id));
  const journaled = new Map<string, string>();
  for (const e of entries.data?.days ?? []) if (inScope.has(e.accountId) && !journaled.has(e.day)) journaled.set(e.day, e.accountId);
  return (
    <section className="panel" aria-labelledby="calendar-heading">
      <div className="section-head">
        <h2 id="calendar-heading">{unit.kind === "r" ? "R calendar" : "P&L calendar"}</h2>
        <SelectField label="Week starts on" value={String(weekStart)} onChange={(e) => setWeekStart(e.target.value === "1" ? 1 : 0)} className="field--compact">
          <option value="0">Sunday</option>
          <option value="1">Monday</option>
        </SelectField>
      </div>
      <QueryView query={calendar} label="the calendar">
        {(data) => (
          <PnlCalendar
            month={month}
            days={unit.kind === "r" ? data.days.flatMap((d) => (d.rTotal === null ? [] : [{ date: d.date, netPnl: d.rTotal, trades: d.withRisk }])) : data.days}
            weekStart={weekStart}
            unit={unit}
            journaled={journaled}
            tradesHref={(date) => tradesHref(filter, rangeQuery({ from: date, to: date }, zone))}
            onMonthChange={(d) => setChosen(addMonths(month, d))}
          />
        )}
      </QueryView>
    </section>
  );
}

function BreakdownSection({ scope, unit, strategies }: { scope: Scope; unit: Unit; strategies: boolean }) {
  const [chosen, setBy] = useState<BreakdownBy>("symbol");
  const by = (chosen === "rules" && !scope.accountId) || (chosen === "strategy" && !strategies) ? "symbol" : chosen;
  const breakdown = useQuery({
    queryKey: ["stats", "breakdown", scope, by],
    queryFn: () => unwrap(stats.breakdown.$get({ query: { ...scope, by } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="panel" aria-labelledby="breakdown-heading">
      <div className="section-head">
        <h2 id="breakdown-heading">Breakdown</h2>
        <SelectField label="Group by" value={by} onChange={(e) => setBy(e.target.value as BreakdownBy)} className="field--compact">
          {/* Rules are an account's: offered once one account is chosen. */}
          {(Object.keys(BREAKDOWN_LABELS) as BreakdownBy[]).filter((k) => (k !== "rules" || scope.accountId) && (k !== "strategy" || strategies)).map((k) => (
            <option key={k} value={k}>
              {BREAKDOWN_LABELS[k]}
            </option>
          ))}
        </SelectField>
      </div>
      <QueryView query={breakdown} label="the breakdown">
        {(data) =>
          data.groups.length === 0 ? (
            <p className="muted">{by === "tag" ? "No tagged trades in this period." : "Nothing to show for this period."}</p>
          ) : (
            <BreakdownTable
              by={data.by}
              groups={
                unit.kind === "r"
                  ? data.groups.flatMap((g) => (g.rTotal === null ? [] : [{ key: g.key, netPnl: g.rTotal, trades: g.withRisk, wins: g.wins, closed: g.trades }]))
                  : data.groups.map((g) => ({ ...g, closed: g.trades }))
              }
              unit={unit}
              tradesHref={(key) => {
                if (data.by === "strategy") return strategiesHref(scope, key);
                const more = groupFilter(data.by, key);
                return more && tradesHref(scope, scope, more);
              }}
            />
          )
        }
      </QueryView>
    </section>
  );
}
