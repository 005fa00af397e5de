import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { EmptyState, PageHeader, QueryView, SelectField, TextField } from "../../components/ui.tsx";
import { useAccountParam } from "../import/accounts.ts";
import { useAccounts, useInstanceConfig, type Account } from "../../api/queries.ts";
import { BREAKDOWN_LABELS, BreakdownTable, type BreakdownBy } from "./breakdown.tsx";
import { addMonths, monthOf, type Month } from "./calendar.ts";
import { EquityChart, type Bucket } from "./equity-chart.tsx";
import { formatMoney, formatPnl, toneOf } from "../../lib/format.ts";
import { formatFactor, formatRate } from "./format.ts";
import { PnlCalendar } from "./pnl-calendar.tsx";
import { PERIODS, monthQuery, periodDays, rangeQuery, todayIn, type Period } from "./range.ts";
import "./dashboard.css";

type Range = { from?: string; to?: string };
/** One account, or every account of one currency: amounts are never added across currencies. */
type Filter = { accountId?: string; currency?: string };
type Scope = Filter & Range;

const stats = api.api.stats;

function fetchSummary(q: Scope) {
  return unwrap(stats.summary.$get({ query: q }));
}
type Summary = Awaited<ReturnType<typeof fetchSummary>>;

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * What the dashboard covers, kept in the URL: `?account=` one account, else every account, or (when the
 * accounts use several currencies) every account of `?currency=` (the first account's currency by default).
 * The select's value is an account id, "" for all accounts, or "currency:XXX".
 */
function useDashboardScope(accounts: readonly Account[]) {
  const [params, setParams] = useSearchParams();
  const { accountId, account } = useAccountParam(accounts, true);
  const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
  const asked = params.get("currency")?.toUpperCase() ?? "";
  const byCurrency = !account && currencies.length > 1 ? (currencies.includes(asked) ? asked : accounts[0]!.currency) : undefined;
  const choose = (value: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete("account");
        next.delete("currency");
        if (value.startsWith("currency:")) next.set("currency", value.slice("currency:".length));
        else if (value) next.set("account", value);
        return next;
      },
      { replace: true },
    );
  return {
    accountId,
    account,
    currencies,
    filter: (accountId ? { accountId } : byCurrency ? { currency: byCurrency } : {}) as Filter,
    value: accountId || (byCurrency ? `currency:${byCurrency}` : ""),
    /** The currency of every amount shown. */
    currency: account?.currency ?? byCurrency ?? currencies[0] ?? null,
    choose,
  };
}

export function DashboardPage() {
  const accounts = useAccounts();
  return (
    <>
      <PageHeader title="Dashboard" />
      <QueryView query={accounts} label="accounts">
        {({ accounts: list }) =>
          list.length === 0 ? (
            <EmptyState title="Create an account first" action={<Link to="/accounts" className="button">Go to accounts</Link>}>
              <p>Statistics are computed from the trades in your accounts.</p>
            </EmptyState>
          ) : (
            <Dashboard accounts={list} />
          )
        }
      </QueryView>
    </>
  );
}

function Dashboard({ accounts }: { accounts: readonly Account[] }) {
  const { accountId, account, currencies, filter, value, currency, choose } = useDashboardScope(accounts);
  const [period, setPeriod] = useState<Period>("all");
  const [custom, setCustom] = useState({ from: "", to: "" });
  const zone = account?.timezone ?? browserZone();
  const days = periodDays(period, todayIn(zone), custom);
  const range = rangeQuery(days, zone);
  const scope: Scope = { ...filter, ...range };
  const summary = useQuery({ queryKey: ["stats", "summary", scope], queryFn: () => fetchSummary(scope), placeholderData: keepPreviousData });

  return (
    <>
      <section className="panel dashboard-filters" aria-label="Filters">
        <div className="form form--inline">
          <SelectField label="Account" value={value} onChange={(e) => choose(e.target.value)}>
            {currencies.length > 1 ? (
              currencies.map((c) => (
                <option key={c} value={`currency:${c}`}>
                  All {c} accounts
                </option>
              ))
            ) : (
              <option value="">All accounts</option>
            )}
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.currency})
              </option>
            ))}
          </SelectField>
          <SelectField label="Period" value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </SelectField>
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
          {currencies.length > 1 && !account && ` Your accounts are in ${currencies.join(", ")}: each currency is shown on its own, as amounts are never added across currencies.`}
        </p>
      </section>

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
              <SummaryCards summary={s} currency={currency} />
              {s.trades === 0 ? (
                <p className="notice">No trades closed in this period. Choose another period or account.</p>
              ) : (
                <>
                  <EquitySection scope={scope} currency={currency} />
                  <BreakdownSection scope={scope} currency={currency} />
                </>
              )}
            </>
          )
        }
      </QueryView>
      {summary.data && (summary.data.trades > 0 || period !== "all") && (
        <CalendarSection filter={filter} currency={currency} initial={days ? monthOf(days.to || days.from || todayIn(zone)) : null} today={todayIn(zone)} />
      )}
    </>
  );
}

function SummaryCards({ summary: s, currency }: { summary: Summary; currency: string | null }) {
  const money = (v: string | null | undefined) => (v === null || v === undefined ? "—" : formatPnl(v, currency));
  const cards: { label: string; value: string; tone?: string; note?: string }[] = [
    { label: "Net P&L", value: formatPnl(s.netPnl, currency), tone: toneOf(s.netPnl), note: "after fees" },
    { label: "Gross P&L", value: formatPnl(s.grossPnl, currency), tone: toneOf(s.grossPnl), note: "before fees" },
    { label: "Fees", value: formatMoney(s.fees, currency) },
    { label: "Trades", value: String(s.trades), note: `${s.wins} won, ${s.losses} lost` },
    { label: "Win rate", value: formatRate(s.winRate) },
    { label: "Profit factor", value: s.profitFactor === null && s.wins > 0 ? "No losses" : formatFactor(s.profitFactor) },
    { label: "Expectancy", value: money(s.expectancy), tone: s.expectancy ? toneOf(s.expectancy) : "", note: "per trade" },
    { label: "Average win", value: money(s.averageWin), tone: "positive" },
    { label: "Average loss", value: money(s.averageLoss), tone: "negative" },
    { label: "Largest win", value: money(s.largestWin), tone: "positive" },
    { label: "Largest loss", value: money(s.largestLoss), tone: "negative" },
    { label: "Max drawdown", value: formatMoney(s.maxDrawdown, currency), note: "deepest fall from a peak" },
  ];
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading">Summary</h2>
      <ul className="stat-cards" aria-labelledby="summary-heading">
        {cards.map((c) => (
          <li key={c.label} className="stat-card">
            <span className="stat-card__label">{c.label}</span>
            <span className={`stat-card__value ${c.value === "—" ? "" : (c.tone ?? "")}`}>{c.value}</span>
            {c.note && <span className="stat-card__note">{c.note}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function EquitySection({ scope, currency }: { scope: Scope; currency: string | null }) {
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
        {(data) => <EquityChart points={data.points} bucket={data.bucket} currency={currency} />}
      </QueryView>
    </section>
  );
}

function CalendarSection({ filter, currency, initial, today }: { filter: Filter; currency: string | null; initial: Month | null; today: string }) {
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
  return (
    <section className="panel" aria-labelledby="calendar-heading">
      <div className="section-head">
        <h2 id="calendar-heading">P&amp;L calendar</h2>
        <SelectField label="Week starts on" value={String(weekStart)} onChange={(e) => setWeekStart(e.target.value === "1" ? 1 : 0)} className="field--compact">
          <option value="0">Sunday</option>
          <option value="1">Monday</option>
        </SelectField>
      </div>
      <QueryView query={calendar} label="the calendar">
        {(data) => (
          <PnlCalendar month={month} days={data.days} weekStart={weekStart} currency={currency} onMonthChange={(d) => setChosen(addMonths(month, d))} />
        )}
      </QueryView>
    </section>
  );
}

function BreakdownSection({ scope, currency }: { scope: Scope; currency: string | null }) {
  const [by, setBy] = useState<BreakdownBy>("symbol");
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
          {(Object.keys(BREAKDOWN_LABELS) as BreakdownBy[]).map((k) => (
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
            <BreakdownTable by={data.by} groups={data.groups} currency={currency} />
          )
        }
      </QueryView>
    </section>
  );
}
