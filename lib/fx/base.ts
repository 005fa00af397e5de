// A statistic in the user's base currency (docs/currencies.md): which rates its figures need (each currency
// other than the base, on each trading day with something realised or paid in the range), fetched first when
// the instance never asked for their dates, and the ones it still lacks, which the figures list and leave out.
import { sql, type SQL } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../db/rows.ts";
import { AppError } from "../errors.ts";
import { formatDecimal } from "../money.ts";
import { keptFigures } from "../maintained/cache.ts";
import { ratesSql } from "./convert.ts";
import { ensureRates, recordedSql } from "./rates.ts";

export type MissingRate = { currency: string; date: string };
/**
 * A read in the base: the base, the rates it lacks, whether the user has overrides, and what the figures depend
 * on beside the statistics' version (the base, the overrides' version, the latest rates fetched).
 */
export type BaseRead = { base: string; missing: MissingRate[]; overrides: boolean; fxVersion: string; stamp: string };

export type Head = { base: string | null; fx_version: string; fetched: string; overrides: boolean };
type Needed = { currency: string; day: string; recorded: boolean; rated: boolean };

const iso = (v: string | undefined) => (v ? sql`${new Date(v).toISOString()}::timestamptz` : sql`null::timestamptz`);

/**
 * The user's base, the rates' version and whether they have rates of their own or their brokers', and the
 * latest rates fetched, as one JSON text (null without settings): also read by the statistics' session
 * statement (lib/stats/stats.ts), so a read in the base costs no statement for it.
 */
export function headSql(userId: SQL): SQL {
  return sql`(select json_build_object('base', s.base_currency, 'fx_version', s.fx_version::text,
      'fetched', coalesce((select max(fetched_at) from fx_rate_days), 'epoch')::text,
      'overrides', exists (select 1 from fx_overrides o where o.user_id = s.user_id and o.base = s.base_currency)
        or exists (select 1 from fx_broker_rates br where br.user_id = s.user_id and br.base = s.base_currency))::text
    from user_settings s where s.user_id = ${userId})`;
}

/** What figures in the base depend on beside the statistics' version: the base, the rates' version, the latest rates fetched. */
export const stampOf = (head: Head) => `${head.base}:${head.fx_version}:${head.fetched}`;

/** headSql's row. */
async function headOf(deps: Pick<Deps, "db">, userId: string): Promise<Head | undefined> {
  const [row] = rowsOf<{ head: string | null }>(await deps.db.execute(sql`select ${headSql(sql`${userId}::uuid`)} as head`));
  return row?.head ? (JSON.parse(row.head) as Head) : undefined;
}

/** The user's base currency, or null when none is set. */
export async function baseCurrencyOf(deps: Pick<Deps, "db">, userId: string): Promise<string | null> {
  return (await headOf(deps, userId))?.base ?? null;
}

/** 400 naming `currency`: a read in the base without a base currency set. */
export const noBaseError = () =>
  new AppError("VALIDATION_ERROR", "Choose a base currency in Settings first: currency=base converts every account's figures to it.", {
    fields: [{ path: "currency", message: "is base, but no base currency is set (PUT /api/settings {baseCurrency})" }],
  });

/**
 * Rows that name a date and whether it was `recorded` (recordedSql), read again once the dates of those that
 * `lack` a rate and were never asked have been asked of the rate service.
 */
export async function readAfterAsking<T extends { day: string; recorded: boolean }>(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">,
  read: () => Promise<T[]>,
  lacks: (row: T) => boolean,
): Promise<T[]> {
  const rows = await read();
  const unasked = [...new Set(rows.filter((r) => lacks(r) && !r.recorded).map((r) => r.day))];
  if (unasked.length === 0) return rows;
  // Read again even when this call fetched nothing: a request beside it may have recorded those dates between
  // the read and ensureRates (the Settings page asks twice as its two dates are typed), and the rows read
  // before would list rates that are there as missing.
  await ensureRates(deps, unasked);
  return read();
}

/**
 * The (currency, day) pairs a read over [from, to) converts: from the maintained day rows (`maintained`, once
 * settled), else from the journal's fill shares; `recorded`: the date was asked of the rate service; `rated`:
 * there is a rate for it.
 */
function neededSql(userId: string, base: string, fxVersion: string, overrides: boolean, query: { from?: string; to?: string }, source: "maintained" | "journal", today: string): SQL {
  const [f, t] = [iso(query.from), iso(query.to)];
  const days =
    source === "maintained"
      ? // The days of the months kept in the base without a missing rate are known to have theirs (lib/fx/base-months.ts).
        sql`select distinct a.currency, a.id as account_id, g.day from accounts a join stats_groups g on g.account_id = a.id and g.grain = 'day' and g.dim = '' and g.one_r is null
          where a.user_id = ${userId}::uuid and a.currency <> ${base}
            and (${f} is null or g.day >= (${f} at time zone a.timezone)::date) and (${t} is null or g.day <= (${t} at time zone a.timezone)::date)
            and date_trunc('month', g.day)::date not in (
              select s.month from stats_base_months s left join stats_month_versions mv on mv.user_id = s.user_id and mv.month = s.month
              where s.user_id = ${userId}::uuid and s.base = ${base} and s.fx_version = ${fxVersion}::bigint and s.v = coalesce(mv.v, 0) and s.missing = 0
            )`
      : sql`select distinct a.currency, a.id as account_id, (pf.executed_at at time zone a.timezone)::date as day
          from accounts a join positions p on p.account_id = a.id join position_fills pf on pf.position_id = p.id
          where a.user_id = ${userId}::uuid and a.currency <> ${base}
            and (${f} is null or pf.executed_at >= ${f}) and (${t} is null or pf.executed_at < ${t})`;
  // A pair is rated when every account of its currency has a rate for its day.
  return sql`select r.currency, to_char(r.day, 'YYYY-MM-DD') as day, ${recordedSql(sql`r.day`, today)} as recorded, bool_and(r.k is not null) as rated
    from (${ratesSql(userId, base, days, overrides)}) r group by r.currency, r.day order by r.day, r.currency`;
}

/**
 * The user's base (400 naming `currency` when none is set) and the rates a read over the range needs, fetched
 * when never asked. `version`: the maintained rows' version the read is exact at (null: from the journal),
 * which keeps the answer with the rates' stamp (lib/maintained/cache.ts).
 */
export async function prepareBase(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">,
  userId: string,
  query: { from?: string; to?: string },
  source: "maintained" | "journal",
  version: string | null,
  /** The head as the session statement read it (headSql), when it did. */
  known?: Head | null,
): Promise<BaseRead> {
  const today = deps.now().toISOString().slice(0, 10);
  let given = known ?? undefined;
  const read = async () => {
    const head = given ?? (await headOf(deps, userId));
    // Asked again after rates were fetched: read afresh.
    given = undefined;
    if (!head?.base) throw noBaseError();
    const stamp = stampOf(head);
    const statement = neededSql(userId, head.base, head.fx_version, head.overrides, query, source, today);
    const rows = version === null ? rowsOf<Needed>(await deps.db.execute(statement)) : await keptFigures<Needed>(deps.db, statement, `${version}:${stamp}:${today}`);
    return { head: { ...head, base: head.base }, stamp, rows };
  };
  let now = await read();
  const unasked = now.rows.filter((r) => !r.recorded);
  if (unasked.length > 0) {
    const { fetched } = await ensureRates(deps, [...new Set(unasked.map((r) => r.day))]);
    if (fetched) now = await read();
  }
  return {
    base: now.head.base,
    missing: now.rows.filter((r) => !r.rated).map((r) => ({ currency: r.currency, date: r.day })),
    overrides: now.head.overrides,
    fxVersion: now.head.fx_version,
    stamp: now.stamp,
  };
}

/**
 * The rates `pairs` (a query of currency, account_id, day: the close dates of what a figure converts, in their
 * accounts' zones) need to `base`: dates never asked asked first; `missing` the (currency, date) pairs without a
 * rate (what closed then is left out of the figures); `own`: the user has rates of their own or their brokers'
 * to the base (ratesSql).
 */
export async function closeRates(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, userId: string, base: string, pairs: SQL) {
  const head = await headOf(deps, userId);
  const own = Boolean(head?.overrides && head.base === base);
  const today = deps.now().toISOString().slice(0, 10);
  const read = async () =>
    rowsOf<{ currency: string; day: string; recorded: boolean; rated: boolean }>(
      await deps.db.execute(sql`select r.currency, to_char(r.day, 'YYYY-MM-DD') as day, ${recordedSql(sql`r.day`, today)} as recorded, bool_and(r.k is not null) as rated
        from (${ratesSql(userId, base, pairs, own)}) r
        group by r.currency, r.day order by r.day, r.currency`),
    );
  const rows = await readAfterAsking(deps, read, (r) => !r.rated);
  return { own, missing: rows.filter((r) => !r.rated).map((r) => ({ currency: r.currency, date: r.day })) };
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
  const head = await headOf(deps, userId);
  if (!head?.base) return out;
  const base = head.base;
  const today = deps.now().toISOString().slice(0, 10);
  const read = async () =>
    rowsOf<TradeBaseRow>(
      await deps.db.execute(sql`with t as (
          select p.id, p.net_pnl, a.currency, a.id as account_id, (coalesce(p.closed_at, ${deps.now().toISOString()}::timestamptz) at time zone a.timezone)::date as day
          from positions p join accounts a on a.id = p.account_id
          where a.user_id = ${userId}::uuid and p.id = any(${`{${tradeIds.join(",")}}`}::uuid[])
        ),
        r as (${ratesSql(userId, base, sql`select distinct currency, account_id, day from t`, head.overrides)})
        select t.id::text as id, to_char(t.day, 'YYYY-MM-DD') as day, round(t.net_pnl * r.k, 10)::text as net, r.rate::text as rate,
          to_char(r.rate_day, 'YYYY-MM-DD') as rate_date, ${recordedSql(sql`t.day`, today)} as recorded
        from t join r on r.account_id = t.account_id and r.day = t.day`),
    );
  const rows = await readAfterAsking(deps, read, (r) => r.rate === null);
  for (const r of rows) out.set(r.id, { currency: base, netPnl: r.net === null ? null : formatDecimal(r.net), rate: r.rate === null ? null : formatDecimal(r.rate), rateDate: r.rate_date });
  return out;
}

/** A rate of one currency and date to the base: its factor, the rate and the date it is of. */
export type DayRate = { k: string; rate: string; rateDate: string };

/**
 * The rates of an account's currency to the user's base on `days` (an export's columns in the base, a ledger
 * page's, docs/currencies.md), rates never asked fetched first; a day the instance has no rate for is absent.
 * Null when the user has no base, or it is that currency itself (nothing to convert).
 */
export async function ratesOnDays(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">,
  userId: string,
  account: { id: string; currency: string },
  days: string[],
): Promise<{ base: string; rates: Map<string, DayRate> } | null> {
  const currency = account.currency;
  const head = await headOf(deps, userId);
  if (!head?.base || head.base === currency) return null;
  const base = head.base;
  const today = deps.now().toISOString().slice(0, 10);
  const unique = [...new Set(days)];
  const read = async () =>
    rowsOf<{ day: string; k: string | null; rate: string | null; rate_date: string | null; recorded: boolean }>(
      await deps.db.execute(sql`select to_char(r.day, 'YYYY-MM-DD') as day, r.k::text as k, r.rate::text as rate, to_char(r.rate_day, 'YYYY-MM-DD') as rate_date,
          ${recordedSql(sql`r.day`, today)} as recorded
        from (${ratesSql(userId, base, sql`select ${currency}::text as currency, ${account.id}::uuid as account_id, d::date as day from unnest(${`{${unique.join(",")}}`}::date[]) d`, head.overrides)}) r`),
    );
  const rows = unique.length ? await readAfterAsking(deps, read, (r) => r.k === null) : [];
  return { base, rates: new Map(rows.filter((r) => r.k !== null).map((r) => [r.day, { k: r.k!, rate: formatDecimal(r.rate!), rateDate: r.rate_date! }])) };
}
