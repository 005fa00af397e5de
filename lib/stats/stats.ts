// Performance statistics over closed trades, aggregated in SQL (never by loading trades into memory).
// A trade counts on the day it closed, in its account's time zone (the account's trading day).
import { sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal } from "../money.ts";
import { requireOwnAccount } from "../accounts/accounts.ts";

const isoDateTime = () => z.iso.datetime({ offset: true, error: "must be an ISO-8601 date-time with Z or an offset" });

export const StatsQuerySchema = z.object({
  accountId: z.optional(z.uuid("must be a uuid")),
  from: z.optional(isoDateTime()),
  to: z.optional(isoDateTime()),
});
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

export const EquityQuerySchema = z.extend(StatsQuerySchema, {
  bucket: z._default(z.enum(["day", "week", "month"], { error: "must be day, week or month" }), "day"),
});
export const BreakdownQuerySchema = z.extend(StatsQuerySchema, {
  by: z.enum(["symbol", "tag", "weekday", "hour"], { error: "must be symbol, tag, weekday or hour" }),
});

/**
 * The closed trades in scope, with their account (and so its zone): the FROM and WHERE every statistic
 * shares. `extraJoin` adds a join between them (the tag breakdown unnests tags).
 */
export async function scope(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery, extraJoin: SQL = sql``): Promise<SQL> {
  if (query.accountId) await requireOwnAccount(deps, user, query.accountId);
  return sql`positions p join accounts a on a.id = p.account_id ${extraJoin}
    where a.user_id = ${user.id} and p.closed_at is not null
    ${query.accountId ? sql`and p.account_id = ${query.accountId}` : sql``}
    ${query.from ? sql`and p.closed_at >= ${new Date(query.from).toISOString()}::timestamptz` : sql``}
    ${query.to ? sql`and p.closed_at < ${new Date(query.to).toISOString()}::timestamptz` : sql``}`;
}

const dec = (v: string | null | undefined) => (v === null || v === undefined ? null : formatDecimal(v));

export async function summary(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery) {
  const [row] = rowsOf<Record<string, string | null>>(await deps.db.execute(summarySql(await scope(deps, user, query))));
  const r = row!;
  return {
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
  };
}

/** The summary aggregate over a scope (exported for the benchmark, which times it without HTTP). */
export function summarySql(from: SQL): SQL {
  return sql`
      with t as (select p.id, p.closed_at, p.net_pnl, p.gross_pnl, p.fees from ${from}),
      curve as (select closed_at, id, sum(net_pnl) over (order by closed_at, id) as equity from t)
      select
        count(*)::text as trades,
        coalesce(sum(net_pnl), 0)::text as net,
        coalesce(sum(gross_pnl), 0)::text as gross,
        coalesce(sum(fees), 0)::text as fees,
        count(*) filter (where net_pnl > 0)::text as wins,
        count(*) filter (where net_pnl < 0)::text as losses,
        coalesce(sum(net_pnl) filter (where net_pnl > 0), 0)::text as won,
        coalesce(-sum(net_pnl) filter (where net_pnl < 0), 0)::text as lost,
        round(avg(net_pnl) filter (where net_pnl > 0), 10)::text as avg_win,
        round(avg(net_pnl) filter (where net_pnl < 0), 10)::text as avg_loss,
        max(net_pnl)::text as largest_win,
        min(net_pnl)::text as largest_loss,
        round(avg(net_pnl), 10)::text as expectancy,
        case when count(*) = 0 then null else round(count(*) filter (where net_pnl > 0)::numeric / count(*), 4)::text end as win_rate,
        case when coalesce(sum(net_pnl) filter (where net_pnl < 0), 0) = 0 then null
             else round(sum(net_pnl) filter (where net_pnl > 0) / -sum(net_pnl) filter (where net_pnl < 0), 4)::text end as profit_factor,
        -- The deepest fall of cumulative P&L below its running peak (the peak starts at zero).
        (select coalesce(max(peak - equity), 0)::text from (
           select equity, greatest(0, max(equity) over (order by closed_at, id)) as peak from curve
        ) d) as max_drawdown
      from t`;
}

/** Net P&L per trading day (the account's zone), oldest first. */
export async function calendar(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery) {
  const rows = rowsOf<{ day: string; net: string; trades: string }>(await deps.db.execute(calendarSql(await scope(deps, user, query))));
  return { days: rows.map((r) => ({ date: r.day, netPnl: formatDecimal(r.net), trades: Number(r.trades) })) };
}

/** The calendar aggregate over a scope (exported for the benchmark). */
export function calendarSql(from: SQL): SQL {
  return sql`
      select to_char((p.closed_at at time zone a.timezone)::date, 'YYYY-MM-DD') as day,
             sum(p.net_pnl)::text as net, count(*)::text as trades
      from ${from}
      group by 1 order by 1`;
}

/** Cumulative net P&L at the end of each day, week (starting WEEK_START_DAY) or month. */
export async function equityCurve(
  deps: Pick<Deps, "db" | "config">,
  user: AuthUser,
  query: StatsQuery & { bucket: "day" | "week" | "month" },
) {
  const from = await scope(deps, user, query);
  const local = sql`(p.closed_at at time zone a.timezone)`;
  const bucket =
    query.bucket === "day"
      ? sql`date_trunc('day', ${local})`
      : query.bucket === "month"
        ? sql`date_trunc('month', ${local})`
        : deps.config.WEEK_START_DAY === 1
          ? sql`date_trunc('week', ${local})`
          : sql`(date_trunc('week', ${local} + interval '1 day') - interval '1 day')`;
  const rows = rowsOf<{ start: string; net: string; equity: string; trades: string }>(
    await deps.db.execute(sql`
      select to_char(b.start, 'YYYY-MM-DD') as start, b.net::text as net, b.trades::text as trades,
             sum(b.net) over (order by b.start)::text as equity
      from (select ${bucket} as start, sum(p.net_pnl) as net, count(*) as trades from ${from} group by 1) b
      order by b.start`),
  );
  return {
    bucket: query.bucket,
    points: rows.map((r) => ({ start: r.start, netPnl: formatDecimal(r.net), equity: formatDecimal(r.equity), trades: Number(r.trades) })),
  };
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** Net P&L, trade count and win rate per symbol, tag, weekday or hour of entry (in the account's zone). */
export async function breakdown(deps: Pick<Deps, "db">, user: AuthUser, query: StatsQuery & { by: "symbol" | "tag" | "weekday" | "hour" }) {
  const from = await scope(deps, user, query, query.by === "tag" ? sql`cross join lateral unnest(p.tags) as tag(name)` : sql``);
  const key =
    query.by === "symbol"
      ? sql`p.symbol`
      : query.by === "tag"
        ? sql`tag.name`
        : query.by === "weekday"
          ? sql`extract(isodow from p.opened_at at time zone a.timezone)::int::text`
          : sql`extract(hour from p.opened_at at time zone a.timezone)::int::text`;
  const rows = rowsOf<{ key: string; net: string; trades: string; wins: string }>(
    await deps.db.execute(sql`
      select ${key} as key, sum(p.net_pnl)::text as net, count(*)::text as trades,
             count(*) filter (where p.net_pnl > 0)::text as wins
      from ${from}
      group by 1 order by ${query.by === "weekday" || query.by === "hour" ? sql`(${key})::int` : sql`1`}`),
  );
  return {
    by: query.by,
    groups: rows.map((r) => ({
      key: query.by === "weekday" ? WEEKDAYS[Number(r.key) - 1]! : r.key,
      netPnl: formatDecimal(r.net),
      trades: Number(r.trades),
      winRate: (Number(r.wins) / Number(r.trades)).toFixed(4),
    })),
  };
}
