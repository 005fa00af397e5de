// A statistic in the user's base currency (docs/currencies.md): which rates its figures need (each currency
// other than the base, on each trading day with something realised or paid in the range), fetched first when
// the instance never asked for their dates, and the ones it still lacks, which the figures list and leave out.
import { sql, type SQL } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../db/rows.ts";
import { formatDecimal } from "../money.ts";
import { AppError } from "../errors.ts";
import { baseOf } from "../settings/settings.ts";
import { ensureRates } from "./rates.ts";

export type MissingRate = { currency: string; date: string };
/** A read in the base: the base, the rates it lacks, and what the figures also depend on beside the statistics' version. */
export type BaseRead = { base: string; missing: MissingRate[]; stamp: string };

type Needed = { currency: string; day: string; recorded: boolean; rated: boolean; stamp: string };

const iso = (v: string | undefined) => (v ? sql`${new Date(v).toISOString()}::timestamptz` : sql`null::timestamptz`);

/**
 * The (currency, day) pairs a read over [from, to) converts: from the maintained day rows (`maintained`, once
 * settled), else from the journal's fill shares. `recorded`: the date was asked of the rate service; `rated`:
 * fx_on has a rate for it.
 */
function neededSql(userId: string, base: string, query: { from?: string; to?: string }, source: "maintained" | "journal", today: string): SQL {
  const [f, t] = [iso(query.from), iso(query.to)];
  const days =
    source === "maintained"
      ? sql`select distinct a.currency, g.day from accounts a join stats_groups g on g.account_id = a.id and g.grain = 'day' and g.dim = '' and g.one_r is null
          where a.user_id = ${userId}::uuid and a.currency <> ${base}
            and (${f} is null or g.day >= (${f} at time zone a.timezone)::date) and (${t} is null or g.day <= (${t} at time zone a.timezone)::date)`
      : sql`select distinct a.currency, (pf.executed_at at time zone a.timezone)::date as day
          from accounts a join positions p on p.account_id = a.id join position_fills pf on pf.position_id = p.id
          where a.user_id = ${userId}::uuid and a.currency <> ${base}
            and (${f} is null or pf.executed_at >= ${f}) and (${t} is null or pf.executed_at < ${t})`;
  return sql`select n.currency, to_char(n.day, 'YYYY-MM-DD') as day,
      exists (select 1 from fx_rate_days d where d.day = n.day
        and (d.has_rates or d.day < ${today}::date - 2 or d.fetched_at > now() - interval '1 hour')) as recorded,
      exists (select 1 from fx_on(${userId}::uuid, ${base}, n.currency, n.day)) as rated,
      coalesce((select max(fetched_at) from fx_rate_days), 'epoch')::text as stamp
    from (${days}) n
    union all select null, null, true, true, coalesce((select max(fetched_at) from fx_rate_days), 'epoch')::text
    order by 2 nulls first, 1`;
}

/** The user's base (400 naming `currency` when none is set) and the rates a read over the range needs, fetched when never asked. */
export async function prepareBase(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">,
  userId: string,
  query: { from?: string; to?: string },
  source: "maintained" | "journal",
): Promise<BaseRead> {
  const settings = await baseOf(deps, userId);
  if (!settings) {
    throw new AppError("VALIDATION_ERROR", "Choose a base currency in Settings first: currency=base converts every account's figures to it.", {
      fields: [{ path: "currency", message: "is base, but no base currency is set (PUT /api/settings {baseCurrency})" }],
    });
  }
  const today = deps.now().toISOString().slice(0, 10);
  const read = async () => rowsOf<Needed>(await deps.db.execute(neededSql(userId, settings.base, query, source, today)));
  let rows = await read();
  const unasked = rows.filter((r) => r.day !== null && !r.recorded);
  if (unasked.length > 0) {
    await ensureRates(deps, [...new Set(unasked.map((r) => r.day))]);
    rows = await read();
  }
  return {
    base: settings.base,
    missing: rows.filter((r) => r.day !== null && !r.rated).map((r) => ({ currency: r.currency, date: r.day })),
    stamp: `${settings.base}:${settings.fxVersion}:${rows[0]!.stamp}`,
  };
}

/** A trade's net P&L in the user's base: at its close date's rate (an open trade's realised part at today's). */
export type TradeBase = { currency: string; netPnl: string | null; rate: string | null; rateDate: string | null };

type TradeBaseRow = { id: string; day: string; net: string | null; rate: string | null; rate_date: string | null; recorded: boolean };

/**
 * The `base` of each trade (GET /api/trades, /api/trades/:id) when the user has a base currency: the trade's
 * net P&L converted at its close date's rate in its account's zone (today's for an open trade), with the rate
 * and its date; netPnl, rate and rateDate null when the instance lacks that rate. Rates never asked are fetched
 * first. An empty map when no base is set.
 */
export async function tradeBases(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, userId: string, tradeIds: string[]): Promise<Map<string, TradeBase>> {
  const out = new Map<string, TradeBase>();
  if (tradeIds.length === 0) return out;
  const settings = await baseOf(deps, userId);
  if (!settings) return out;
  const today = deps.now().toISOString().slice(0, 10);
  const read = async () =>
    rowsOf<TradeBaseRow>(
      await deps.db.execute(sql`select p.id::text as id, to_char(d.day, 'YYYY-MM-DD') as day, round(p.net_pnl * r.k, 10)::text as net,
          r.rate::text as rate, to_char(r.rate_day, 'YYYY-MM-DD') as rate_date,
          exists (select 1 from fx_rate_days x where x.day = d.day and (x.has_rates or x.day < ${today}::date - 2 or x.fetched_at > now() - interval '1 hour')) as recorded
        from positions p join accounts a on a.id = p.account_id
        cross join lateral (select (coalesce(p.closed_at, ${deps.now().toISOString()}::timestamptz) at time zone a.timezone)::date as day) d
        left join lateral fx_on(${userId}::uuid, ${settings.base}, a.currency, d.day) r on true
        where a.user_id = ${userId}::uuid and p.id = any(${`{${tradeIds.join(",")}}`}::uuid[])`),
    );
  let rows = await read();
  const unasked = rows.filter((r) => r.rate === null && !r.recorded).map((r) => r.day);
  if (unasked.length > 0) {
    await ensureRates(deps, [...new Set(unasked)]);
    rows = await read();
  }
  for (const r of rows) out.set(r.id, { currency: settings.base, netPnl: r.net === null ? null : formatDecimal(r.net), rate: r.rate === null ? null : formatDecimal(r.rate), rateDate: r.rate_date });
  return out;
}
