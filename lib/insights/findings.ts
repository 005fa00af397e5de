// Behaviour findings (docs/discipline.md, "Insights"): deterministic detectors over the trader's own record,
// each citing the trades it found, for the Insights page and the advisor's tools. In SQL, over the trades of
// the statistics' scope (one account, one currency, or all), opened in [from, to):
// - revenge: a trade opened at most `revengeMinutes` (default 30) after a losing trade of the account closed,
//   at a larger size than that loss (biggerSql: by 1R when both were risked, a future by contracts x multiplier,
//   anything else by the money put to work);
// - overtrading: a day (the account's clock) with more trades opened than the account's own 90th percentile
//   of trades a day (over its whole history, once it has 10 trading days);
// - size-up after a loss: the first trade opened after a losing trade closed, at 1.5 times its size or more (the
//   same measure);
// - losers held longer than winners: the closed losers' average holding time above the winners' (5 of each at
//   least), citing the losers held longer than the average winner.
import { sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal, fromUnits, toUnits } from "../money.ts";
import { scope, StatsQuerySchema, type StatsQuery } from "../stats/stats.ts";
import { durationWords } from "../time/duration.ts";
import { ONE_R_SQL } from "../risk.ts";

export const REVENGE_MINUTES = 30;
export const SIZE_UP_FACTOR = "1.5";
export const OVERTRADING_MIN_DAYS = 10;
export const HOLD_MIN_TRADES = 5;
/** Trades cited per finding, at most (the count says how many there are). */
export const MAX_CITED = 50;

export const InsightsQuerySchema = z.extend(StatsQuerySchema, {
  revengeMinutes: z.optional(
    z.pipe(z.string().check(z.regex(/^\d{1,3}$/, "must be a whole number of minutes")), z.pipe(z.transform(Number), z.number().check(z.minimum(1, "must be at least 1"), z.maximum(240, "must be at most 240")))),
  ),
});
export type InsightsQuery = StatsQuery & { revengeMinutes?: number | undefined };

type Cited = { id: string; symbol: string; opened_at: string; net_pnl: string; after: string | null; day: string | null };

function cite(rows: Cited[]) {
  return rows.slice(0, MAX_CITED).map((r) => ({
    id: r.id,
    symbol: r.symbol,
    openedAt: r.opened_at,
    netPnl: formatDecimal(r.net_pnl),
    ...(r.after ? { afterLoss: r.after } : {}),
    ...(r.day ? { day: r.day } : {}),
  }));
}

/**
 * Whether a trade `k` is bigger than the loss before it (its size `op` `factor` times the loss's), in the one
 * measure both have: their 1Rs when both were risked (what a trader sizes by); else, two futures by their
 * contracts x multiplier (a micro is a tenth of its full contract; notional would make one ES contract look
 * like a fortune); else, two of anything else by the money put to work. A future against a stock with no 1R
 * between them is not compared.
 */
function biggerSql(op: ">" | ">=", factor: number | string): SQL {
  const cmp = sql.raw(op);
  return sql`(case when k.risk > 0 and k.loss_risk > 0 then k.risk ${cmp} k.loss_risk * ${factor}::numeric
    when k.future = k.loss_future then k.size ${cmp} k.loss_size * ${factor}::numeric else false end)`;
}

/** The net P&L of the cited trades, exactly. */
const sum = (rows: Cited[]) => fromUnits(rows.reduce((s, r) => s + toUnits(r.net_pnl), 0n));

/** GET /api/insights: the four detectors over the scope, each with `found` and the trades it cites. */
/**
 * The detectors' SQL over the trades of the user's accounts `only` selects (history before the period sets the
 * context), for a window of `minutes` and the period `inRange` (a filter on a time column; empty for all):
 * `base` (CTE `t`: every trade with its size three ways), `afterLoss` (CTEs after it ending in `found`: the
 * revenge and size-up trades, by `kind`), `overtrading` (a select of the trades of the days over the account's
 * 90th percentile, with `p90` and `day_trades`). The what-if (lib/simulations/what-if.ts) removes the same trades.
 */
export function behaviourSql(userId: string, only: SQL, minutes: number, inRange: (col: SQL) => SQL = () => sql``) {
  // Every trade of the scope's accounts (history before the period sets the context), with its size three ways
  // (biggerSql picks the one two trades share): its 1R (-1 without one), its exposure (a future's contracts x
  // multiplier: money a point, never the contract's notional; anything else the money it put to work), and
  // whether it is a future.
  const base = sql`t as (
      select p.id, p.account_id, p.symbol, p.opened_at, p.closed_at, p.net_pnl, (p.opened_at at time zone a.timezone)::date as day,
        coalesce(${ONE_R_SQL}, -1) as risk,
        case when p.asset_class = 'future' then p.max_quantity * p.multiplier
          else p.max_quantity * coalesce(p.entry_value / nullif(p.entry_quantity, 0), 0) * p.multiplier end as size,
        (p.asset_class = 'future')::int as future
      from positions p join accounts a on a.id = p.account_id left join trade_journals j on j.position_id = p.id
      where a.user_id = ${userId} ${only}
    )`;
  // After a loss, in one sort of the account's events (closes before opens at the same instant): for each
  // trade, the last losing close before it opened ([epoch, size]: the larger loss when two close together)
  // and the last opening before it.
  const afterLoss = sql`${base},
    ev as (
      select account_id, closed_at as at, 0 as ord, id, net_pnl < 0 as loss, size, risk, future from t where closed_at is not null
      union all select account_id, opened_at, 1, id, false, size, risk, future from t
    ),
    w as (
      select id, ord, max(array[extract(epoch from at), size, risk, future]) filter (where ord = 0 and loss) over win as last_loss,
        max(at) filter (where ord = 1) over win as prev_open
      from ev window win as (partition by account_id order by at, ord, id rows between unbounded preceding and 1 preceding)
    ),
    k as (
      select t.*, w.last_loss[1] as loss_epoch, w.last_loss[2] as loss_size, w.last_loss[3] as loss_risk, w.last_loss[4] as loss_future,
        extract(epoch from t.opened_at) as open_epoch, extract(epoch from w.prev_open) as prev_epoch
      from t join w on w.id = t.id and w.ord = 1 and w.last_loss is not null
    ),
    found as (
      select 'revenge' as kind, k.* from k where k.open_epoch - k.loss_epoch <= ${minutes * 60} and ${biggerSql(">", 1)}
        ${inRange(sql`k.opened_at`)}
      union all
      select 'size_up', k.* from k where (k.prev_epoch is null or k.prev_epoch < k.loss_epoch) and k.loss_size > 0
        and ${biggerSql(">=", SIZE_UP_FACTOR)} ${inRange(sql`k.opened_at`)}
    ),
    losses as (select l.account_id, extract(epoch from l.closed_at) as e, l.size, l.id from t l where l.net_pnl < 0)`;
  const overtrading = sql`with ${base},
      daily as (select account_id, day, count(*) as n from t group by 1, 2),
      p90 as (select account_id, percentile_cont(0.9) within group (order by n) as p90, count(*) as days from daily group by 1)
      select x.*, p90.p90, d.n as day_trades
      from t x join daily d on d.account_id = x.account_id and d.day = x.day join p90 on p90.account_id = x.account_id
      where p90.days >= ${OVERTRADING_MIN_DAYS} and d.n > p90.p90 ${inRange(sql`x.opened_at`)}`;
  return { base, afterLoss, overtrading };
}

/** GET /api/insights: the four detectors over the scope, each with `found` and the trades it cites. */
export async function findings(deps: Pick<Deps, "db">, user: AuthUser, query: InsightsQuery) {
  const from = await scope(deps, user, query);
  const minutes = query.revengeMinutes ?? REVENGE_MINUTES;
  const only = query.accountId ? sql`and p.account_id = ${query.accountId}` : query.currency ? sql`and a.currency = ${from.currency}` : sql``;
  const inRange = (col: SQL) =>
    sql`${query.from ? sql`and ${col} >= ${new Date(query.from).toISOString()}::timestamptz` : sql``} ${query.to ? sql`and ${col} < ${new Date(query.to).toISOString()}::timestamptz` : sql``}`;
  const { base, afterLoss, overtrading: overSql } = behaviourSql(user.id, only, minutes, inRange);
  const cols = sql.raw(`x.id::text as id, x.symbol, to_char(x.opened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as opened_at, x.net_pnl::text as net_pnl`);
  const [both, overtrading, hold] = await Promise.all([
    deps.db.execute(sql`with ${afterLoss}
      select distinct on (x.kind, x.opened_at, x.id) x.kind, ${cols}, l.id::text as after, null as day
      from found x left join losses l on l.account_id = x.account_id and l.e = x.loss_epoch and l.size = x.loss_size
      order by x.kind, x.opened_at desc, x.id`),
    deps.db.execute(sql`select ${cols}, null as after, to_char(x.day, 'YYYY-MM-DD') as day, x.p90::text as p90, x.day_trades::int as day_trades
      from (${overSql}) x order by x.opened_at desc, x.id`),
    deps.db.execute(sql`with ${base},
      c as (select x.*, extract(epoch from x.closed_at - x.opened_at) / 60 as held from t x where x.closed_at is not null ${inRange(sql`x.opened_at`)}),
      s as (select avg(held) filter (where net_pnl > 0) as win_avg, avg(held) filter (where net_pnl < 0) as loss_avg,
        count(*) filter (where net_pnl > 0) as wins, count(*) filter (where net_pnl < 0) as losses from c)
      select ${cols}, null as after, null as day, round(s.win_avg)::text as win_avg, round(s.loss_avg)::text as loss_avg, s.wins::int as wins, s.losses::int as losses,
        round(x.held)::int as held
      from s left join c x on x.net_pnl < 0 and x.held > s.win_avg
      order by x.held desc nulls last, x.id`),
  ]);
  const found = rowsOf<Cited & { kind: "revenge" | "size_up" }>(both);
  const byNewest = (rows: Cited[]) => rows.sort((a, b) => b.opened_at.localeCompare(a.opened_at) || a.id.localeCompare(b.id));
  const revenge = byNewest(found.filter((r) => r.kind === "revenge"));
  const sizeUp = byNewest(found.filter((r) => r.kind === "size_up"));
  const revengeRows = revenge;
  const sizeRows = sizeUp;
  const overRows = rowsOf<Cited & { p90: string; day_trades: number }>(overtrading);
  const holdRows = rowsOf<Cited & { win_avg: string | null; loss_avg: string | null; wins: number; losses: number; held: number | null }>(hold);
  const h = holdRows[0];
  const holdFound = !!h && h.wins >= HOLD_MIN_TRADES && h.losses >= HOLD_MIN_TRADES && Number(h.loss_avg) > Number(h.win_avg);
  const longLosers = holdRows.filter((r) => r.id !== null);
  const overDays = [...new Map(overRows.map((r) => [`${r.day}`, r.day_trades])).entries()].map(([day, trades]) => ({ day, trades }));
  return {
    currency: from.currency,
    findings: [
      {
        kind: "revenge" as const,
        found: revengeRows.length > 0,
        title: "Revenge trades",
        detail: `${revengeRows.length} ${revengeRows.length === 1 ? "trade" : "trades"} opened within ${minutes} minutes of a losing trade's close, at a larger size than the losing trade.`,
        count: revengeRows.length,
        netPnl: sum(revengeRows),
        trades: cite(revengeRows),
      },
      {
        kind: "overtrading" as const,
        found: overRows.length > 0,
        title: "Overtrading",
        detail: overRows.length
          ? `${overDays.length} ${overDays.length === 1 ? "day" : "days"} with more trades than your usual busiest (90th percentile: ${Number(overRows[0]!.p90).toFixed(1)} a day).`
          : `No day with more trades than your own 90th percentile (it needs ${OVERTRADING_MIN_DAYS} trading days).`,
        count: overRows.length,
        netPnl: sum(overRows),
        days: overDays,
        trades: cite(overRows),
      },
      {
        kind: "size_up_after_loss" as const,
        found: sizeRows.length > 0,
        title: "Size up after a loss",
        detail: `${sizeRows.length} ${sizeRows.length === 1 ? "time" : "times"} the next trade after a loss was ${SIZE_UP_FACTOR} times its size or more.`,
        count: sizeRows.length,
        netPnl: sum(sizeRows),
        trades: cite(sizeRows),
      },
      {
        kind: "losers_held_longer" as const,
        found: holdFound,
        title: "Losers held longer than winners",
        detail:
          h && h.wins >= HOLD_MIN_TRADES && h.losses >= HOLD_MIN_TRADES
            ? `Losers held ${durationWords(Number(h.loss_avg) * 60)} on average, winners ${durationWords(Number(h.win_avg) * 60)}.`
            : `Needs ${HOLD_MIN_TRADES} closed winners and ${HOLD_MIN_TRADES} closed losers.`,
        averageWinnerMinutes: h?.win_avg === null || h?.win_avg === undefined ? null : Number(h.win_avg),
        averageLoserMinutes: h?.loss_avg === null || h?.loss_avg === undefined ? null : Number(h.loss_avg),
        count: holdFound ? longLosers.length : 0,
        netPnl: holdFound ? sum(longLosers) : "0.00",
        trades: holdFound ? cite(longLosers) : [],
      },
    ],
  };
}
