// The statistics computed from the journal itself (every fill share and closed trade in scope, no maintained
// rows): the definition the maintained statistics (stats.ts, migrations/functions/stats) must equal exactly.
// The property test (tests/node/stats-maintained.test.ts) compares both after every step of random histories,
// and the benchmark (npm run bench -- stats) times both. Each builder answers the same columns as its
// maintained counterpart, so one mapping (stats.ts) turns either into the API's figures.
import { sql, type SQL } from "drizzle-orm";
import { ONE_R_SQL } from "../risk.ts";
import type { StatsScope } from "./stats.ts";

/** The summary over a scope: money totals and the drawdown from the fill shares, per-trade figures from the closed trades. */
export function summaryFromJournalSql(from: StatsScope, options: { r: boolean } = { r: true }): SQL {
  // The closed trades grouped by their 1R (lib/risk.ts, ONE_R_SQL): every per-trade figure, in money and
  // in R, comes from the groups' counts, sums and extremes, in one pass. Without R (the benchmark's baseline),
  // one group.
  return sql`
      with e as (select pf.executed_at as at, pf.fill_id as id, pf.position_id as pos, pf.realized, pf.fees from ${from.events}),
      g as (
        select ${options.r ? ONE_R_SQL : sql`null::numeric`} as one_r, count(*) as n, sum(p.net_pnl) as s,
          count(*) filter (where p.net_pnl > 0) as nw, sum(p.net_pnl) filter (where p.net_pnl > 0) as sw,
          count(*) filter (where p.net_pnl < 0) as nl, sum(p.net_pnl) filter (where p.net_pnl < 0) as sl,
          max(p.net_pnl) as mx, min(p.net_pnl) as mn
        from ${from.closed} group by 1
      ),
      totals as (select coalesce(sum(realized - fees), 0) as net, coalesce(sum(realized), 0) as gross, coalesce(sum(fees), 0) as fees from e),
      curve as (select at, id, pos, sum(realized - fees) over (order by at, id, pos rows unbounded preceding) as equity from e),
      drawdown as (
        -- The deepest fall of cumulative realised P&L below its running peak (the peak starts at zero).
        select coalesce(max(peak - equity), 0) as max_drawdown from (
          select equity, greatest(0, max(equity) over (order by at, id, pos rows unbounded preceding)) as peak from curve
        ) d
      )
      ${perTradeSql(sql`g`, sql`totals`, sql`drawdown`)}`;
}

/**
 * The summary's columns from `g` (the closed trades per 1R: n, s, nw, sw, nl, sl, mx, mn), `totals` (net,
 * gross, fees) and `drawdown` (max_drawdown): shared by both computations, so their figures are the same
 * arithmetic on the same sums. `converted` (a read in the base currency, docs/currencies.md): g also has the
 * money sums converted (bs, bsw, bsl, bmx, bmn), which the money figures read; R stays each trade's own.
 */
export function perTradeSql(g: SQL, totals: SQL, drawdown: SQL, options: { converted?: boolean } = {}): SQL {
  const [s, sw, sl, mx, mn] = (options.converted ? ["bs", "bsw", "bsl", "bmx", "bmn"] : ["s", "sw", "sl", "mx", "mn"]).map((c) => sql.raw(c)) as [SQL, SQL, SQL, SQL, SQL];
  return sql`,
      per_trade as (
        select
          coalesce(sum(n), 0) as trades,
          coalesce(sum(nw), 0) as wins,
          coalesce(sum(nl), 0) as losses,
          sum(${sw}) as won,
          -sum(${sl}) as lost,
          round(sum(${sw}) / nullif(sum(nw), 0), 10) as avg_win,
          round(sum(${sl}) / nullif(sum(nl), 0), 10) as avg_loss,
          max(${mx}) as largest_win,
          min(${mn}) as largest_loss,
          round(sum(${s}) / nullif(sum(n), 0), 10) as expectancy,
          coalesce(sum(n) filter (where one_r is not null), 0) as r_with_risk,
          round(sum(s / one_r), 2) as r_total,
          round(sum(s / one_r) / nullif(sum(n) filter (where one_r is not null), 0), 2) as r_expectancy,
          round(sum(sw / one_r) / nullif(sum(nw) filter (where one_r is not null), 0), 2) as r_avg_win,
          round(sum(sl / one_r) / nullif(sum(nl) filter (where one_r is not null), 0), 2) as r_avg_loss,
          round(max(mx / one_r), 2) as r_best,
          round(min(mn / one_r), 2) as r_worst
        from ${g}
      )
      select
        trades::text as trades, wins::text as wins, losses::text as losses,
        ${totals}.net::text as net, ${totals}.gross::text as gross, ${totals}.fees::text as fees,
        avg_win::text as avg_win, avg_loss::text as avg_loss,
        largest_win::text as largest_win, largest_loss::text as largest_loss, expectancy::text as expectancy,
        r_with_risk::text as r_with_risk, r_total::text as r_total, r_expectancy::text as r_expectancy, r_avg_win::text as r_avg_win,
        r_avg_loss::text as r_avg_loss, r_best::text as r_best, r_worst::text as r_worst,
        case when trades = 0 then null else round(wins::numeric / trades, 4)::text end as win_rate,
        case when coalesce(lost, 0) = 0 then null else round(coalesce(won, 0) / lost, 4)::text end as profit_factor,
        ${drawdown}.max_drawdown::text as max_drawdown
      from per_trade, ${totals}, ${drawdown}`;
}

/**
 * Realised P&L and closed trades per bucket from the journal: `bucket` turns a local timestamp (`at`, in the
 * account's zone) into the bucket's start; `key` (optional) splits by a group (a breakdown). Columns: start
 * (or key), net, trades, wins, r (rounded to 2), r_exact (unrounded: what a running total sums), with_risk. A
 * bucket appears when something was realised or paid in it, or a trade closed.
 */
export function bucketsFromJournalSql(from: StatsScope, bucket: (at: SQL) => SQL): SQL {
  return sql`
      select b.start, sum(b.net) as net, sum(b.trades) as trades, round(sum(b.r), 2) as r, sum(b.r) as r_exact, sum(b.with_risk) as with_risk from (
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

/** A breakdown from the journal: per group `key` (an expression over p, a, j and the extra join): key, net, trades, wins, r, with_risk. */
export function breakdownFromJournalSql(from: StatsScope, key: SQL): SQL {
  return sql`
      select g.key, sum(g.net) as net, sum(g.trades) as trades, sum(g.wins) as wins,
        round(sum(g.r), 2) as r, sum(g.with_risk) as with_risk from (
        select ${key} as key, sum(pf.realized - pf.fees) as net, 0 as trades, 0 as wins, null::numeric as r, 0 as with_risk,
          bool_or(pf.realized <> 0 or pf.fees <> 0) as moved
        from ${from.events} group by 1
        union all
        select c.key, 0, sum(c.n), sum(c.nw), sum(c.s / c.one_r), sum(c.n) filter (where c.one_r is not null), true from (
          select ${key} as key, ${ONE_R_SQL} as one_r, count(*) as n, count(*) filter (where p.net_pnl > 0) as nw, sum(p.net_pnl) as s
          from ${from.closed} group by 1, 2
        ) c group by 1
      ) g
      group by g.key having bool_or(g.moved)`;
}
