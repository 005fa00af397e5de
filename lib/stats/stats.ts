// Performance statistics, aggregated in SQL (never by loading trades into memory). Money (net and gross
// P&L, fees, the calendar, the equity curve, breakdowns) counts what each fill realised and paid, on the day
// it happened in its account's time zone (the account's trading day), partial exits included; the
// per-trade figures (win rate, expectancy, averages, largest) count the trades closed in the range.
import { sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal } from "../money.ts";
import { requireOwnAccount } from "../accounts/accounts.ts";
import { CurrencySchema } from "../accounts/schema.ts";
import { AppError } from "../errors.ts";
import { dateTimeSchema } from "../time/range.ts";
import { ONE_R_SQL, R_MULTIPLE } from "../trades/risk.ts";
import { brokenSql } from "../rules/compliance.ts";

const isoDateTime = dateTimeSchema;

export const StatsQuerySchema = z.object({
  accountId: z.optional(z.uuid("must be a uuid")),
  /** Every account of the user in this currency (instead of one account). */
  currency: z.optional(CurrencySchema),
  from: z.optional(isoDateTime()),
  to: z.optional(isoDateTime()),
});
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

export const EquityQuerySchema = z.extend(StatsQuerySchema, {
  bucket: z._default(z.enum(["day", "week", "month"], { error: "must be day, week or month" }), "day"),
});
export const BreakdownQuerySchema = z.extend(StatsQuerySchema, {
  by: z.enum(["symbol", "direction", "tag", "setup", "weekday", "hour", "rules"], { error: "must be symbol, direction, tag, setup, weekday, hour or rules" }),
});

/**
 * What every statistic reads, for the user's positions (one account, every account of one currency, or all
 * of them) and a range:
 * - `events`: each fill share of those positions dated in [from, to): what it realised (gross) and the fees
 *   it paid, on the day it happened (DESIGN.md section 9: realised P&L counts on the day it is realised,
 *   partial exits included; fees count on the day they are paid);
 * - `closed`: the trades closed in [from, to), for the per-trade figures (win rate, expectancy, averages),
 *   with their journal `j` (left-joined: a trade's plan, for its R) and account `a`.
 * `currency`: the one currency of every amount in scope (null when the user has no account).
 * `journal` joins the trades' journals to the events too (the tag and setup breakdowns); `extraJoin` adds a
 * join after them (the tag breakdown unnests tags).
 */
export type StatsScope = { events: SQL; closed: SQL; currency: string | null };

export async function scope(
  deps: Pick<Deps, "db">,
  user: AuthUser,
  query: StatsQuery,
  options: { journal?: boolean; extraJoin?: SQL } = {},
): Promise<StatsScope> {
  const currency = await scopeCurrency(deps, user, query);
  const positions = sql`positions p join accounts a on a.id = p.account_id`;
  const journal = sql`left join trade_journals j on j.position_id = p.id`;
  const extra = options.extraJoin ?? sql``;
  const only = query.accountId ? sql`and p.account_id = ${query.accountId}` : query.currency ? sql`and a.currency = ${currency}` : sql``;
  const owned = sql`a.user_id = ${user.id} ${only}`;
  const range = (column: SQL) =>
    sql`${query.from ? sql`and ${column} >= ${new Date(query.from).toISOString()}::timestamptz` : sql``}
      ${query.to ? sql`and ${column} < ${new Date(query.to).toISOString()}::timestamptz` : sql``}`;
  return {
    events: sql`${positions} ${options.journal ? journal : sql``} ${extra} join position_fills pf on pf.position_id = p.id where ${owned} ${range(sql`pf.executed_at`)}`,
    closed: sql`${positions} ${journal} ${extra} where ${owned} and p.closed_at is not null ${range(sql`p.closed_at`)}`,
    currency,
  };
}

/**
 * The currency of the figures (DESIGN.md section 9: amounts are never added across currencies): one
 * account's, the one asked for, or the one all the user's accounts share. Accounts in several currencies
 * without an account or a currency chosen are a 400 naming them, never a sum of unlike amounts.
 */
async function scopeCurrency(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery): Promise<string | null> {
  if (query.accountId && query.currency) {
    throw new AppError("VALIDATION_ERROR", "Choose one account (accountId) or one currency (currency), not both.", {
      fields: [{ path: "currency", message: "must not be given with accountId" }],
    });
  }
  if (query.accountId) return (await requireOwnAccount(deps, user, query.accountId)).currency;
  // Upper case here too: the advisor's tools call in without the HTTP schema's transform.
  if (query.currency) return query.currency.toUpperCase();
  const currencies = rowsOf<{ currency: string }>(
    await deps.db.execute(sql`select distinct currency from accounts where user_id = ${user.id}::uuid order by 1`),
  ).map((r) => r.currency);
  if (currencies.length > 1) {
    const list = currencies.join(", ");
    throw new AppError(
      "VALIDATION_ERROR",
      `Your accounts are in ${list}: figures across them would add up different currencies. Choose an account (accountId) or a currency (currency=${currencies[0]}).`,
      { fields: [{ path: "currency", message: `is required: your accounts are in ${list}` }] },
    );
  }
  return currencies[0] ?? null;
}

const dec = (v: string | null | undefined) => (v === null || v === undefined ? null : formatDecimal(v));

export async function summary(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery) {
  const from = await scope(deps, user, query);
  const [row] = rowsOf<Record<string, string | null>>(await deps.db.execute(summarySql(from)));
  const r = row!;
  const r2 = (v: string | null | undefined) => (Number(r.r_with_risk) === 0 || v === null || v === undefined ? null : formatDecimal(v));
  return {
    currency: from.currency,
    trades: Number(r.trades),
    wins: Number(r.wins),
    losses: Number(r.losses),
    netPnl: formatDecimal(r.net!),
    grossPnl: formatDecimal(r.gross!),
    fees: formatDecimal(r.fees!),
    winRate: r.win_rate,
    profitFactor: r.profit_factor,
    expectancy: dec(r.expectancy),
    averageWin: dec(r.avg_win),
    averageLoss: dec(r.avg_loss),
    largestWin: Number(r.wins) > 0 ? dec(r.largest_win) : null,
    largestLoss: Number(r.losses) > 0 ? dec(r.largest_loss) : null,
    maxDrawdown: formatDecimal(r.max_drawdown!),
    /** The closed trades in R (DESIGN.md section 10): over those with a 1R; figures null when none has one. */
    r: {
      trades: Number(r.trades),
      withRisk: Number(r.r_with_risk),
      total: r2(r.r_total),
      expectancy: r2(r.r_expectancy),
      averageWin: r2(r.r_avg_win),
      averageLoss: r2(r.r_avg_loss),
      best: r2(r.r_best),
      worst: r2(r.r_worst),
    },
  };
}

/**
 * The summary aggregate over a scope (exported for the benchmark, which times it without HTTP): money
 * totals and the drawdown from the realisations, per-trade figures from the closed trades.
 */
export function summarySql(from: StatsScope, options: { r: boolean } = { r: true }): SQL {
  // The closed trades grouped by their 1R (lib/trades/risk.ts, ONE_R_SQL): every per-trade figure, in money and
  // in R, comes from the groups' counts, sums and extremes, in one pass. Without R (the benchmark's baseline),
  // one group.
  return sql`
      with e as (select pf.executed_at as at, pf.fill_id as id, pf.realized, pf.fees from ${from.events}),
      g as (
        select ${options.r ? ONE_R_SQL : sql`null::numeric`} as one_r, count(*) as n, sum(p.net_pnl) as s,
          count(*) filter (where p.net_pnl > 0) as nw, sum(p.net_pnl) filter (where p.net_pnl > 0) as sw,
          count(*) filter (where p.net_pnl < 0) as nl, sum(p.net_pnl) filter (where p.net_pnl < 0) as sl,
          max(p.net_pnl) as mx, min(p.net_pnl) as mn
        from ${from.closed} group by 1
      ),
      totals as (select coalesce(sum(realized - fees), 0) as net, coalesce(sum(realized), 0) as gross, coalesce(sum(fees), 0) as fees from e),
      curve as (select sum(realized - fees) over (order by at, id rows unbounded preceding) as equity from e),
      per_trade as (
        select
          coalesce(sum(n), 0) as trades,
          coalesce(sum(nw), 0) as wins,
          coalesce(sum(nl), 0) as losses,
          sum(sw) as won,
          -sum(sl) as lost,
          round(sum(sw) / nullif(sum(nw), 0), 10) as avg_win,
          round(sum(sl) / nullif(sum(nl), 0), 10) as avg_loss,
          max(mx) as largest_win,
          min(mn) as largest_loss,
          round(sum(s) / nullif(sum(n), 0), 10) as expectancy,
          coalesce(sum(n) filter (where one_r is not null), 0) as r_with_risk,
          round(sum(s / one_r), 2) as r_total,
          round(sum(s / one_r) / nullif(sum(n) filter (where one_r is not null), 0), 2) as r_expectancy,
          round(sum(sw / one_r) / nullif(sum(nw) filter (where one_r is not null), 0), 2) as r_avg_win,
          round(sum(sl / one_r) / nullif(sum(nl) filter (where one_r is not null), 0), 2) as r_avg_loss,
          round(max(mx / one_r), 2) as r_best,
          round(min(mn / one_r), 2) as r_worst
        from g
      )
      select
        trades::text as trades, wins::text as wins, losses::text as losses,
        totals.net::text as net, totals.gross::text as gross, totals.fees::text as fees,
        avg_win::text as avg_win, avg_loss::text as avg_loss,
        largest_win::text as largest_win, largest_loss::text as largest_loss, expectancy::text as expectancy,
        r_with_risk::text as r_with_risk, r_total::text as r_total, r_expectancy::text as r_expectancy, r_avg_win::text as r_avg_win,
        r_avg_loss::text as r_avg_loss, r_best::text as r_best, r_worst::text as r_worst,
        case when trades = 0 then null else round(wins::numeric / trades, 4)::text end as win_rate,
        case when coalesce(lost, 0) = 0 then null else round(coalesce(won, 0) / lost, 4)::text end as profit_factor,
        -- The deepest fall of cumulative realised P&L below its running peak (the peak starts at zero).
        (select coalesce(max(peak - equity), 0)::text from (
           select equity, greatest(0, max(equity) over (rows unbounded preceding)) as peak from curve
        ) d) as max_drawdown
      from per_trade, totals`;
}

/** Realised net P&L per trading day (the account's zone), oldest first, with the trades closed that day. */
export async function calendar(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery) {
  const from = await scope(deps, user, query);
  const rows = rowsOf<{ day: string; net: string; trades: string; r: string | null; with_risk: string }>(await deps.db.execute(calendarSql(from)));
  return {
    currency: from.currency,
    days: rows.map((r) => ({ date: r.day, netPnl: formatDecimal(r.net), trades: Number(r.trades), ...inR(r) })),
  };
}

/** A bucket's trades in R: the R of those closed in it that have a 1R, summed, and how many they are. */
function inR(r: { r: string | null; with_risk: string }) {
  const withRisk = Number(r.with_risk);
  return { rTotal: withRisk === 0 || r.r === null ? null : formatDecimal(r.r), withRisk };
}

/**
 * Realised P&L and closed trades per bucket: `bucket` turns a local timestamp (`at`, in the account's zone)
 * into the bucket's start. A bucket appears when something was realised or paid in it, or a trade closed.
 */
function bucketedSql(from: StatsScope, bucket: (at: SQL) => SQL): SQL {
  return sql`
      select b.start, sum(b.net) as net, sum(b.trades) as trades, round(sum(b.r), 2) as r, sum(b.with_risk) as with_risk from (
        select ${bucket(sql`(pf.executed_at at time zone a.timezone)`)} as start, sum(pf.realized - pf.fees) as net,
               0 as trades, null::numeric as r, 0 as with_risk, bool_or(pf.realized <> 0 or pf.fees <> 0) as moved
        from ${from.events} group by 1
        union all
        select c.start, 0, sum(c.n), sum(c.s / c.one_r), sum(c.n) filter (where c.one_r is not null), true from (
          select ${bucket(sql`(p.closed_at at time zone a.timezone)`)} as start, ${ONE_R_SQL} as one_r, count(*) as n, sum(p.net_pnl) as s
          from ${from.closed} group by 1, 2
        ) c group by 1
      ) b
      group by b.start having bool_or(b.moved)`;
}

/** The calendar aggregate over a scope (exported for the benchmark). */
export function calendarSql(from: StatsScope): SQL {
  return sql`
      select to_char(d.start, 'YYYY-MM-DD') as day, d.net::text as net, d.trades::text as trades, d.r::text as r, d.with_risk::text as with_risk
      from (${bucketedSql(from, (at) => sql`${at}::date`)}) d
      order by d.start`;
}

/** Cumulative realised net P&L at the end of each day, week (starting WEEK_START_DAY) or month. */
export async function equityCurve(
  deps: Pick<Deps, "db" | "config">,
  user: AuthUser,
  query: StatsQuery & { bucket: "day" | "week" | "month" },
) {
  const from = await scope(deps, user, query);
  const bucket = (local: SQL) =>
    query.bucket === "day"
      ? sql`date_trunc('day', ${local})`
      : query.bucket === "month"
        ? sql`date_trunc('month', ${local})`
        : deps.config.WEEK_START_DAY === 1
          ? sql`date_trunc('week', ${local})`
          : sql`(date_trunc('week', ${local} + interval '1 day') - interval '1 day')`;
  const rows = rowsOf<{ start: string; net: string; equity: string; trades: string; r: string | null; with_risk: string; r_equity: string }>(
    await deps.db.execute(sql`
      select to_char(b.start, 'YYYY-MM-DD') as start, b.net::text as net, b.trades::text as trades,
             sum(b.net) over (order by b.start)::text as equity, b.r::text as r, b.with_risk::text as with_risk,
             sum(coalesce(b.r, 0)) over (order by b.start)::text as r_equity
      from (${bucketedSql(from, bucket)}) b
      order by b.start`),
  );
  return {
    currency: from.currency,
    bucket: query.bucket,
    points: rows.map((r) => ({
      start: r.start,
      netPnl: formatDecimal(r.net),
      equity: formatDecimal(r.equity),
      trades: Number(r.trades),
      ...inR(r),
      /** Cumulative R of the trades with a 1R closed up to the bucket's end. */
      rEquity: formatDecimal(r.r_equity),
    })),
  };
}

export type BreakdownBy = "symbol" | "direction" | "tag" | "setup" | "weekday" | "hour" | "rules";
/** The groups of the breakdown by rules (an account's trading rules, lib/rules/compliance.ts). */
export const KEPT_RULES = "Kept every rule";
export const BROKE_RULES = "Broke a rule";
/** The group of trades without a setup. */
export const NO_SETUP = "No setup";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/**
 * Realised net P&L per symbol, direction (Long, Short), tag, setup ("No setup" for trades without one), weekday or hour of entry (in
 * the account's zone), with the number and win rate of the trades closed in the range (null when none closed).
 */
export async function breakdown(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery & { by: BreakdownBy }) {
  // Rules are an account's: the trades that broke one of its rules (scored as the compliance report does).
  if (query.by === "rules" && !query.accountId) {
    throw new AppError("VALIDATION_ERROR", "Trading rules are set per account: choose one (accountId) to split its trades by them.", {
      fields: [{ path: "accountId", message: "is required to group by rules" }],
    });
  }
  const rules = query.by === "rules" ? sql`with ${brokenSql(query.accountId!, null)} ` : sql``;
  // Tags and setup are the trade's journal's.
  const from = await scope(
    deps,
    user,
    query,
    query.by === "tag" ? { journal: true, extraJoin: sql`cross join lateral unnest(j.tags) as tag(name)` } : { journal: query.by === "setup" },
  );
  const key =
    query.by === "symbol"
      ? sql`p.symbol`
      : query.by === "direction"
        ? sql`p.direction`
        : query.by === "tag"
        ? sql`tag.name`
        : query.by === "setup"
          ? sql`coalesce(j.setup, '')`
          : query.by === "weekday"
          ? sql`extract(isodow from p.opened_at at time zone a.timezone)::int::text`
          : query.by === "rules"
            ? sql`case when p.id in (select trade_id from tb) then ${BROKE_RULES}::text else ${KEPT_RULES}::text end`
            : sql`extract(hour from p.opened_at at time zone a.timezone)::int::text`;
  const rows = rowsOf<{ key: string; net: string; trades: string; wins: string; r: string | null; with_risk: string }>(
    await deps.db.execute(sql`${rules}
      select g.key, sum(g.net)::text as net, sum(g.trades)::text as trades, sum(g.wins)::text as wins,
        round(sum(g.r), 2)::text as r, sum(g.with_risk)::text as with_risk from (
        select ${key} as key, sum(pf.realized - pf.fees) as net, 0 as trades, 0 as wins, null::numeric as r, 0 as with_risk,
          bool_or(pf.realized <> 0 or pf.fees <> 0) as moved
        from ${from.events} group by 1
        union all
        select c.key, 0, sum(c.n), sum(c.nw), sum(c.s / c.one_r), sum(c.n) filter (where c.one_r is not null), true from (
          select ${key} as key, ${ONE_R_SQL} as one_r, count(*) as n, count(*) filter (where p.net_pnl > 0) as nw, sum(p.net_pnl) as s
          from ${from.closed} group by 1, 2
        ) c group by 1
      ) g
      group by g.key having bool_or(g.moved)
      order by ${query.by === "weekday" || query.by === "hour" ? sql`(g.key)::int` : sql`1`}`),
  );
  return {
    currency: from.currency,
    by: query.by,
    groups: rows.map((r) => ({
      key:
        query.by === "weekday"
          ? WEEKDAYS[Number(r.key) - 1]!
          : query.by === "setup" && r.key === ""
            ? NO_SETUP
            : query.by === "direction"
              ? r.key === "long"
                ? "Long"
                : "Short"
              : r.key,
      netPnl: formatDecimal(r.net),
      trades: Number(r.trades),
      winRate: Number(r.trades) > 0 ? (Number(r.wins) / Number(r.trades)).toFixed(4) : null,
      ...inR(r),
    })),
  };
}

/** Where R-multiples fall: 0.5 R buckets from -3 R to +5 R, and the two tails. */
export const R_BUCKET_LOW = -3;
export const R_BUCKET_HIGH = 5;
const R_BUCKET = 0.5;

/**
 * GET /api/stats/r-distribution: how the closed trades with a 1R spread over R-multiples, in 0.5 R buckets
 * [from, to) from -3 R to +5 R, every bucket listed (a stable axis), with the tails (below -3 R, from +5 R on)
 * grouped; `from` or `to` null on a tail.
 */
export async function rDistribution(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery) {
  const from = await scope(deps, user, query);
  const slots = (R_BUCKET_HIGH - R_BUCKET_LOW) / R_BUCKET + 2;
  const [row] = rowsOf<{ trades: number; counts: string }>(
    await deps.db.execute(sql`
      with t as (select ${R_MULTIPLE} as r from ${from.closed}),
      b as (
        select least(greatest(floor((r - ${R_BUCKET_LOW}) / ${R_BUCKET}) + 1, 0), ${slots - 1})::int as slot, count(*) as n
        from t where r is not null group by 1
      )
      select (select count(*) from t)::int as trades, coalesce((select json_object_agg(slot, n) from b), '{}')::text as counts`),
  );
  const counts = JSON.parse(row!.counts) as Record<string, number>;
  const edge = (slot: number) => (R_BUCKET_LOW + (slot - 1) * R_BUCKET).toFixed(2);
  const buckets = Array.from({ length: slots }, (_, slot) => ({
    from: slot === 0 ? null : edge(slot),
    to: slot === slots - 1 ? null : edge(slot + 1),
    trades: Number(counts[slot] ?? 0),
  }));
  return {
    currency: from.currency,
    trades: Number(row!.trades),
    withRisk: buckets.reduce((n, b) => n + b.trades, 0),
    buckets,
  };
}

/** Trades a scatter plot shows at most: the newest closes. */
export const EXCURSION_POINTS = 2000;

/**
 * GET /api/stats/excursions: per closed trade in scope with fresh excursions (docs/charts.md), its net P&L,
 * MAE and MFE in money and R, and its exit efficiency: the dashboard's scatter plots (MAE vs P&L, MFE vs
 * P&L). The newest EXCURSION_POINTS closes; `trades` counts the closed trades in scope, `withExcursions`
 * those that have them.
 */
export async function excursionPoints(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery) {
  const from = await scope(deps, user, query);
  const [row] = rowsOf<{ trades: number; with_excursions: number; points: string }>(
    await deps.db.execute(sql`
      with c as (select p.id, p.symbol, p.net_pnl, p.closed_at, p.updated_at, ${ONE_R_SQL} as one_r from ${from.closed}),
      e as (
        select c.*, x.position_mae, x.position_mfe, x.best_exit_pnl from c
        join trade_excursions x on x.position_id = c.id and x.basis = c.updated_at and x.bars_from is not null
      ),
      shown as (select * from e order by closed_at desc, id desc limit ${EXCURSION_POINTS})
      select (select count(*) from c)::int as trades, (select count(*) from e)::int as with_excursions,
        coalesce((select json_agg(json_build_object('tradeId', id, 'symbol', symbol, 'netPnl', format_decimal(net_pnl),
          'positionMae', format_decimal(position_mae), 'positionMfe', format_decimal(position_mfe),
          'maeR', format_decimal(round(position_mae / nullif(one_r, 0), 2)), 'mfeR', format_decimal(round(position_mfe / nullif(one_r, 0), 2)),
          'rMultiple', format_decimal(round(net_pnl / nullif(one_r, 0), 2)),
          'efficiency', (case when best_exit_pnl > 0 then round(net_pnl / best_exit_pnl, 4) end)::text) order by closed_at desc, id desc) from shown), '[]')::text as points`),
  );
  return {
    currency: from.currency,
    trades: Number(row!.trades),
    withExcursions: Number(row!.with_excursions),
    points: JSON.parse(row!.points) as Array<{ tradeId: string; symbol: string; netPnl: string; positionMae: string; positionMfe: string; maeR: string | null; mfeR: string | null; rMultiple: string | null; efficiency: string | null }>,
  };
}
