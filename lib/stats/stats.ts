// Performance statistics, aggregated in SQL (never by loading trades into memory). Money (net and gross
// P&L, fees, the calendar, the equity curve, breakdowns) counts what each fill realised and paid, on the day
// it happened in its account's time zone (the account's trading day), partial exits included; the
// per-trade figures (win rate, expectancy, averages, largest) count the trades closed in the range.
import { sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import { SESSION_CTE, SESSION_OWNER_COLUMNS, confirmSessionOwner, sessionParams, type AuthUser, type SessionClaim, type SessionOwnerRow } from "../auth/session.ts";
import { preparedStatement, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal, roundDecimal10 } from "../money.ts";
import { requireOwnAccount } from "../accounts/accounts.ts";
import { CurrencySchema } from "../accounts/schema.ts";
import { AppError } from "../errors.ts";
import { dateTimeSchema } from "../time/range.ts";
import { ONE_R_SQL, R_MULTIPLE } from "../risk.ts";
import { settleForRead, settleForReadSql } from "../maintained/settle.ts";
import { keptFigures } from "../maintained/cache.ts";
import { breakdownFromJournalSql, bucketsFromJournalSql, perTradeSql, summaryFromJournalSql } from "./recompute.ts";
import { brokenSql } from "../rules/compliance.ts";
import { settleStrategies } from "../options/settle.ts";
import { strategyKindGroups } from "../options/strategies.ts";
import { baseOf } from "../fx/user-base.ts";
import { closeRates, headSql, noBaseError, prepareBase, stampOf, type Head, type MissingRate } from "../fx/base.ts";
import { ratesSql } from "../fx/convert.ts";
import { keepBaseMonths } from "../fx/base-months.ts";

const isoDateTime = dateTimeSchema;

/** `base`: every account of the user, converted to their base currency (docs/currencies.md). */
export const BASE = "base";

export const StatsQuerySchema = z.object({
  accountId: z.optional(z.uuid("must be a uuid")),
  /** Every account of the user in this currency (instead of one account), or `base`: all of them in the base currency. */
  currency: z.optional(z.union([z.literal(BASE), CurrencySchema], { error: "must be base or a 3-letter ISO 4217 currency code such as USD" })),
  from: z.optional(isoDateTime()),
  to: z.optional(isoDateTime()),
});
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

/** GET /api/stats/summary: `countBy=strategy` counts each option strategy as one trade (docs/options.md). */
export const SummaryQuerySchema = z.extend(StatsQuerySchema, {
  countBy: z._default(z.enum(["trade", "strategy"], { error: "must be trade or strategy" }), "trade"),
});
export type SummaryQuery = z.infer<typeof SummaryQuerySchema>;

export const EquityQuerySchema = z.extend(StatsQuerySchema, {
  bucket: z._default(z.enum(["day", "week", "month"], { error: "must be day, week or month" }), "day"),
});
export const BreakdownQuerySchema = z.extend(StatsQuerySchema, {
  by: z.enum(["symbol", "direction", "tag", "setup", "weekday", "hour", "rules", "strategy"], { error: "must be symbol, direction, tag, setup, weekday, hour, rules or strategy" }),
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
export type StatsScope = {
  events: SQL;
  closed: SQL;
  currency: string | null;
  /** A closed trade's net P&L in `currency`: p.net_pnl, or with `convert` in the base, at its close date's rate. */
  net: SQL;
  /** With `convert` in the base: the rates the closed trades lack (those trades are left out of `closed`). */
  missingRates?: MissingRate[];
};

/** What a statistic reads with: the database and the clock, and for a read in the base currency, the rate service. */
export type StatsDeps = Pick<Deps, "db" | "now" | "config" | "fetch" | "log" | "defer">;

/** Whose statistics: only the user's id counts. */
type StatsUser = Pick<AuthUser, "id">;

/**
 * Who asks for a statistic: a user known already (the advisor's tools, a personal access token's
 * `{ userId }`), or the session claim of a route behind requireUserInStatement, which the read's first
 * statement checks together with the account and the settle (resolveScope).
 */
export type StatsCaller = StatsUser | SessionClaim | { userId: string };

export async function scope(
  deps: Pick<Deps, "db"> & Partial<Pick<Deps, "config" | "fetch" | "now" | "log">>,
  user: StatsUser,
  query: StatsQuery,
  options: { journal?: boolean; extraJoin?: SQL; currency?: string | null; inBase?: boolean; convert?: boolean } = {},
): Promise<StatsScope> {
  // Every account at once in the base (docs/currencies.md): only for a figure that converts its amounts
  // (`convert`: the closed trades' net P&L, at their close dates' rates), or has none (R).
  if (query.currency === BASE && !options.inBase && !options.convert) {
    throw new AppError("VALIDATION_ERROR", "This figure is not converted to a base currency yet: choose an account or a currency.", {
      fields: [{ path: "currency", message: "must be an account's currency here" }],
    });
  }
  const currency = options.currency !== undefined ? options.currency : (await scopeCurrency(deps, user, query)).currency;
  const everyAccount = query.currency === BASE;
  const positions = sql`positions p join accounts a on a.id = p.account_id`;
  const journal = sql`left join trade_journals j on j.position_id = p.id`;
  const extra = options.extraJoin ?? sql``;
  const only = query.accountId ? sql`and p.account_id = ${query.accountId}` : query.currency && !everyAccount ? sql`and a.currency = ${currency}` : sql``;
  const owned = sql`a.user_id = ${user.id} ${only}`;
  const range = (column: SQL) =>
    sql`${query.from ? sql`and ${column} >= ${new Date(query.from).toISOString()}::timestamptz` : sql``}
      ${query.to ? sql`and ${column} < ${new Date(query.to).toISOString()}::timestamptz` : sql``}`;
  const events = sql`${positions} ${options.journal ? journal : sql``} ${extra} join position_fills pf on pf.position_id = p.id where ${owned} ${range(sql`pf.executed_at`)}`;
  const closedWhere = sql`${owned} and p.closed_at is not null ${range(sql`p.closed_at`)}`;
  if (everyAccount && options.convert && currency) {
    const pairs = sql`select distinct a.currency, a.id as account_id, (p.closed_at at time zone a.timezone)::date as day from ${positions} where ${closedWhere} and a.currency <> ${currency}`;
    const rates = await closeRates(deps as Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user.id, currency, pairs);
    const fx = sql`join lateral (${ratesSql(user.id, currency, sql`select a.currency, a.id as account_id, (p.closed_at at time zone a.timezone)::date as day`, rates.own)}) fx on fx.k is not null`;
    return { events, closed: sql`${positions} ${journal} ${fx} ${extra} where ${closedWhere}`, currency, net: sql`round(p.net_pnl * fx.k, 10)`, missingRates: rates.missing };
  }
  return { events, closed: sql`${positions} ${journal} ${extra} where ${closedWhere}`, currency, net: sql`p.net_pnl` };
}

/**
 * The currency of the figures (DESIGN.md section 9: amounts are never added across currencies): one
 * account's, the one asked for, or the one all the user's accounts share. Accounts in several currencies
 * without an account or a currency chosen are a 400 naming them, never a sum of unlike amounts.
 */
async function scopeCurrency(
  deps: Pick<Deps, "db">,
  user: StatsUser,
  query: StatsQuery,
  options: { settle?: boolean } = {},
): Promise<{ currency: string | null; version: string | null }> {
  // Reads of the maintained rows settle the user's notes first (lib/maintained/settle.ts): with one account's
  // lookup, in the same statement. `version`: the rows' version, null when too much was noted to settle now.
  if (options.settle && query.accountId && !query.currency) {
    const account = await requireOwnAccount(deps, user, query.accountId, settleForReadSql(sql`user_id`));
    return { currency: account.currency, version: (account.alongside as string | null) ?? null };
  }
  const version = options.settle ? await settleForRead(deps, user.id) : null;
  return { currency: await currencyOf(deps, user, query), version };
}

async function currencyOf(deps: Pick<Deps, "db">, user: StatsUser, query: StatsQuery): Promise<string | null> {
  if (query.accountId && query.currency) throw ACCOUNT_AND_CURRENCY();
  if (query.currency === BASE) {
    const base = await baseOf(deps, user.id);
    if (!base) throw noBaseError();
    return base.base;
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

/**
 * The session check, the account's currency and (when `settle`) the settle a read does first, in one
 * statement: no row when the session is not live; a null currency when there is no such account of the user
 * (or none was asked for); `version` the maintained rows' version, null when more was noted than a read settles
 * (stats_settle_read).
 */
const scopeStatement = preparedStatement<SessionOwnerRow & { currency: string | null; version: string | null; head: string | null }>(
  "stats_scope",
  sql`with ${SESSION_CTE}
    select ${SESSION_OWNER_COLUMNS}, a.currency,
      case when ${sql.placeholder("settle")}::boolean then ${settleForReadSql(sql`auth.user_id`)} end as version,
      case when ${sql.placeholder("inBase")}::boolean then ${headSql(sql`auth.user_id`)} end as head
    from auth left join accounts a on a.id = ${sql.placeholder("accountId")}::uuid and a.user_id = auth.user_id`,
);

/**
 * The caller's user and the figures' currency (scopeCurrency), with the user's notes settled first when
 * `settle` (the maintained rows' reads, lib/maintained/settle.ts); `version` null when more was noted than a read
 * settles. A session claim costs one statement for one account: session, account and settle together.
 */
async function resolveScope(
  deps: Pick<Deps, "db" | "now">,
  caller: StatsCaller,
  query: StatsQuery,
  settle: boolean,
): Promise<{ user: StatsUser; currency: string | null; version: string | null; head?: Head | null }> {
  if (!("secretHash" in caller)) {
    const user = { id: "userId" in caller ? caller.userId : caller.id };
    return { user, ...(await scopeCurrency(deps, user, query, { settle })) };
  }
  if (query.accountId && query.currency) throw ACCOUNT_AND_CURRENCY();
  const now = deps.now();
  const inBase = query.currency === BASE && !query.accountId;
  const [row] = await scopeStatement(deps.db, { ...sessionParams(caller, now), accountId: query.accountId ?? null, settle, inBase });
  const userId = await confirmSessionOwner(deps, caller, row, now);
  if (!userId) throw new AppError("UNAUTHORIZED", "Sign in to continue.");
  const user = { id: userId };
  const version = row!.version;
  // In the base, the base and the rates' version come with the session (headSql), for prepareBase.
  if (inBase) return { user, currency: null, version, head: row!.head ? (JSON.parse(row!.head) as Head) : null };
  if (!query.accountId) return { user, currency: await currencyOf(deps, user, query), version };
  if (!row!.currency) throw new AppError("NOT_FOUND", "No such account.");
  return { user, currency: row!.currency, version };
}

const ACCOUNT_AND_CURRENCY = () =>
  new AppError("VALIDATION_ERROR", "Choose one account (accountId) or one currency (currency), not both.", {
    fields: [{ path: "currency", message: "must not be given with accountId" }],
  });

const dec = (v: string | null | undefined) => (v === null || v === undefined ? null : formatDecimal(v));

/**
 * Where a statistic's figures come from: "maintained" (the default) reads the maintained rows (stats_groups,
 * stats_drawdown_days) for the whole trading days (and, for breakdowns, months) of the range and computes the
 * partial days at its edges from the journal; "journal" computes everything from the journal (recompute.ts),
 * the definition the maintained figures equal (the property test and the benchmark read it).
 */
export type StatsSource = "maintained" | "journal";

/**
 * The accounts in scope with the range in each one's zone (CTE `name`, from `accounts`' account_id and
 * timezone): `fd` .. `td` the whole trading days inside [from, to) (none when fd >= td), `fm` .. `tm` the
 * whole months among them (none when fm >= tm), and the partial days at the edges as instants: [lo1, hi1)
 * before fd (or the whole range when it holds no whole day) and [lo2, hi2) from td on; a bound is null when
 * the range is open on that side. A day's first instant is its date at midnight in the zone (DST changes in
 * the zones this journal serves happen after midnight).
 */
function boundsSql(accounts: SQL, query: StatsQuery, name: string): SQL {
  const f = query.from ? sql`${new Date(query.from).toISOString()}::timestamptz` : sql`null::timestamptz`;
  const t = query.to ? sql`${new Date(query.to).toISOString()}::timestamptz` : sql`null::timestamptz`;
  const [s0, s1, b] = [sql.raw(`${name}_s`), sql.raw(`${name}_1`), sql.raw(name)];
  return sql`
    ${s0} as (${accounts}),
    ${s1} as (
      select s.account_id, s.currency, s.timezone as tz, ${f} as f, ${t} as t,
        case when ${f} is null then '-infinity'::date
          else (${f} at time zone s.timezone)::date
            + case when ((${f} at time zone s.timezone)::date::timestamp at time zone s.timezone) = ${f} then 0 else 1 end
        end as fd,
        case when ${t} is null then 'infinity'::date else (${t} at time zone s.timezone)::date end as td
      from ${s0} s
    ),
    ${b} as (
      select account_id, currency, fd, td,
        -- The whole months inside: [fm, tm) (none when fm >= tm).
        case when fd = '-infinity'::date or date_trunc('month', fd) = fd then fd else (date_trunc('month', fd) + interval '1 month')::date end as fm,
        case when td = 'infinity'::date then td else date_trunc('month', td)::date end as tm,
        f as lo1,
        case when fd >= td then t else fd::timestamp at time zone tz end as hi1,
        case when fd < td then td::timestamp at time zone tz end as lo2,
        case when fd < td then t end as hi2
      from ${s1}
    )`;
}

/** The accounts of the scope (account_id, currency, timezone), for boundsSql. */
function accountsSql(user: StatsUser, query: StatsQuery, currency: string | null): SQL {
  const only = query.accountId ? sql`and a.id = ${query.accountId}` : query.currency && query.currency !== BASE ? sql`and a.currency = ${currency}` : sql``;
  return sql`select a.id as account_id, a.currency, a.timezone from accounts a where a.user_id = ${user.id} ${only}`;
}

/**
 * A read in the user's base currency (docs/currencies.md): every account, each row of a trading day converted
 * at that day's rate (lib/fx/convert.ts); `journal`: every row computed from the journal (stats_rows over the whole range),
 * the definition the maintained rows must give.
 */
export type BaseConversion = { userId: string; base: string; journal: boolean; overrides: boolean; fxVersion: string };

/**
 * In a base read, a row's money realised and paid is multiplied by its rate (an exact product: sums convert as
 * their parts); its closed trades' sums stay as they are, for their R (net / 1R, in the account's currency),
 * and come converted beside them as b_trades_net... for the money per trade.
 */
const CONVERTED_COLUMNS = new Set(["net", "gross", "fees"]);
const TRADE_COLUMNS = ["trades_net", "wins_net", "losses_net", "largest", "smallest"];

const ROW_COLUMNS = `day, key, one_r, net, gross, fees, moved, trades, wins, losses, trades_net, wins_net, losses_net, largest, smallest, day_trades, day_r, day_with_risk, dd_high, dd_low, dd_drop`;

/**
 * `with` CTEs ending in `src`: the rows of one dimension (stats_rows' columns; '' for the totals) over the
 * scope and range: the maintained rows of the whole days (with `months`: of the whole months, and of the whole
 * days before and after them), ordered in time by `day` (a month's row is dated its first day), and the
 * partial days at the edges computed from the journal.
 */
function sourceSql(user: StatsUser, query: StatsQuery, currency: string | null, dim: string, months = false, conv?: BaseConversion): SQL {
  if (conv) return baseSourceSql(user, query, dim, conv, months);
  const columns = sql.raw(ROW_COLUMNS);
  const g = sql.raw(ROW_COLUMNS.split(", ").map((c) => `g.${c}`).join(", "));
  const tier = (grain: "day" | "month", from: string, to: string, when = "true") =>
    sql`select ${g} from b join stats_groups g on g.account_id = b.account_id and g.grain = ${sql.raw(`'${grain}'`)} and g.dim = ${dim}
        and g.day >= ${sql.raw(from)} and g.day < ${sql.raw(to)} and ${sql.raw(when)}`;
  return sql`with ${boundsSql(accountsSql(user, query, currency), query, "b")},
    src as (
      ${
        months
          ? sql`${tier("month", "b.fm", "b.tm")}
      union all ${tier("day", "b.fd", "(case when b.fm < b.tm then b.fm else b.td end)")}
      union all ${tier("day", "b.tm", "b.td", "b.fm < b.tm")}`
          : tier("day", "b.fd", "b.td")
      }
      union all
      select ${columns} from (
        select array_agg(account_id) as a, array_agg(lo) as l, array_agg(hi) as h from (
          select account_id, lo1 as lo, hi1 as hi from b union all select account_id, lo2, hi2 from b
        ) r where lo < hi
      ) x cross join lateral stats_rows(x.a, x.l, x.h, array[${dim}]::text[]) e
    )`;
}

/**
 * sourceSql in the base currency (docs/currencies.md), every row with its account's currency converted in one
 * join with its day's rate (ratesSql); a row whose rate the instance lacks is left out (prepareBase lists it):
 * - `months`: the whole months of the range kept in the base (stats_base_months, still the user's base, rates
 *   and days: lib/fx/base-months.ts), each read as its rows; the other whole days from their day rows;
 * - the partial days at the edges from the journal (stats_rows); from the journal (`journal`), every row.
 * Ends in `src` (stats_rows' columns, net, gross and fees converted, the closed trades' sums as they are for
 * their R and converted as b_trades_net...) and `dd_days` (the drawdown's segments: each trading day's converted close, each kept month as one).
 */
function baseSourceSql(user: StatsUser, query: StatsQuery, dim: string, conv: BaseConversion, months = false): SQL {
  const columns = ROW_COLUMNS.split(", ");
  const native = sql.raw(columns.map((c) => `e.${c}`).join(", "));
  const g = sql.raw(columns.map((c) => `g.${c}`).join(", "));
  const converted = sql.raw(
    [
      ...columns.map((c) => (CONVERTED_COLUMNS.has(c) ? `n.${c} * n.k as ${c}` : c.startsWith("dd_") ? `null::numeric as ${c}` : `n.${c}`)),
      ...TRADE_COLUMNS.map((c) => `n.${c} * n.k as b_${c}`),
    ].join(", "),
  );
  const kept = sql.raw(
    [
      ...columns.map((c) => (c === "day" ? "x.month as day" : c.startsWith("d") && c !== "day" ? `null::numeric as ${c}` : `x.${c}`)),
      ...TRADE_COLUMNS.map((c) => `x.b_${c}`),
    ].join(", "),
  );
  const rates = (pairs: SQL) => ratesSql(conv.userId, conv.base, pairs, conv.overrides);
  const edges = conv.journal
    ? sql`select account_id, coalesce(f, '-infinity'::timestamptz) as lo, coalesce(t, 'infinity'::timestamptz) as hi from b_1`
    : sql`select account_id, lo1 as lo, hi1 as hi from b union all select account_id, lo2, hi2 from b`;
  const useMonths = months && !conv.journal;
  // The months kept in the base that lie whole inside the range in every account's zone.
  const keptMonths = useMonths
    ? sql`, bm as (
        select s.month, s.v from stats_base_months s
        cross join (select max(fm) as fm, min(tm) as tm from b) um
        left join stats_month_versions mv on mv.user_id = s.user_id and mv.month = s.month
        where s.user_id = ${conv.userId}::uuid and s.base = ${conv.base} and s.fx_version = ${conv.fxVersion}
          and s.v = coalesce(mv.v, 0) and s.month >= um.fm and s.month < um.tm
      )`
    : sql``;
  // The whole days outside the kept months: per account, each month of its history in the range that is not
  // kept, as a range of days (so the day rows of the kept months are not even read).
  const gaps = useMonths
    ? sql`, span as (
        select b.account_id, greatest(b.fd, m.lo) as fd, least(b.td, m.hi) as td from b
        cross join lateral (
          select min(g.day) as lo, (max(g.day) + interval '1 month')::date as hi from stats_groups g
          where g.account_id = b.account_id and g.grain = 'month' and g.dim = ''
        ) m
        where m.lo is not null
      ),
      gaps as (
        select s.account_id, greatest(s.fd, mo.m::date) as lo, least(s.td, (mo.m + interval '1 month')::date) as hi
        from span s cross join lateral generate_series(date_trunc('month', s.fd), s.td::timestamp, interval '1 month') mo(m)
        where s.fd < s.td and mo.m::date not in (select month from bm)
      )`
    : sql``;
  const whole = conv.journal
    ? sql``
    : useMonths
      ? sql`select b.currency, b.account_id, ${g} from gaps x join b on b.account_id = x.account_id
          cross join lateral (
            select * from stats_groups g where g.account_id = x.account_id and g.grain = 'day' and g.dim = ${dim} and g.day >= x.lo and g.day < x.hi offset 0
          ) g
        union all`
      : sql`select b.currency, b.account_id, ${g} from b join stats_groups g on g.account_id = b.account_id and g.grain = 'day' and g.dim = ${dim}
          and g.day >= b.fd and g.day < b.td
        union all`;
  // The drawdown's segments (day, net, high, low, drop: chainSql): each trading day's converted close, and each
  // kept month as the segment of its days (stats_base_months).
  const dayRows = useMonths
    ? sql`select b.currency, b.account_id, g.day, g.net from gaps x join b on b.account_id = x.account_id
        join stats_groups g on g.account_id = x.account_id and g.grain = 'day' and g.dim = '' and g.one_r is null and g.day >= x.lo and g.day < x.hi`
    : sql`select b.currency, b.account_id, g.day, g.net from b join stats_groups g on g.account_id = b.account_id and g.grain = 'day' and g.dim = ''
        and g.one_r is null and g.day >= b.fd and g.day < b.td`;
  const dayTotals = conv.journal
    ? sql`dd_days as (select day, sum(net) as net, sum(net) as high, sum(net) as low, 0::numeric as drop from src group by day)`
    : sql`dd_days as (
        select n.day, sum(n.net * n.k) as net, sum(n.net * n.k) as high, sum(n.net * n.k) as low, 0::numeric as drop from (${rates(sql`
          ${dayRows}
          union all select currency, account_id, day, net from edge_rows where ${dim} = '' and one_r is null`)}) n
        where n.k is not null group by n.day
        ${
          useMonths
            ? sql`union all
        select s.month, s.dd_net, s.dd_high, s.dd_low, s.dd_drop from stats_base_months s join bm on bm.month = s.month where s.user_id = ${conv.userId}::uuid`
            : sql``
        }
      )`;
  return sql`with ${boundsSql(accountsSql(user, query, null), query, "b")} ${keptMonths} ${gaps},
    edge_rows as (
      select bc.currency, bc.account_id, ${native} from (
        select array_agg(account_id) as a, array_agg(lo) as l, array_agg(hi) as h from (${edges}) r
        where lo < hi
      ) x cross join lateral stats_rows(x.a, x.l, x.h, array[${dim}]::text[]) e join b bc on bc.account_id = e.account_id
    ),
    native as (
      ${whole}
      select * from edge_rows
    ),
    src as (
      select ${converted} from (${rates(sql`select * from native`)}) n where n.k is not null
      ${
        useMonths
          ? sql`union all
      select ${kept} from stats_base_groups x join bm on bm.month = x.month
      where x.user_id = ${conv.userId}::uuid and x.base = ${conv.base} and x.fx_version = ${conv.fxVersion} and x.v = bm.v and x.dim = ${dim}`
          : sql``
      }
    ),
    ${dayTotals}`;
}

/**
 * CTE `drawdown` (max_drawdown) from the days' summaries (`days`: day, net, high, low, drop; stats_rows),
 * chained in order: with E the sum and P the running high (at least 0) before a day, its deepest fall below
 * the high is greatest(drop, P - E - low).
 */
function chainSql(days: SQL): SQL {
  return sql`
    c1 as (select d.*, coalesce(sum(d.net) over (order by d.day rows between unbounded preceding and 1 preceding), 0) as e from (${days}) d),
    c2 as (select c1.*, greatest(0, coalesce(max(c1.e + c1.high) over (order by c1.day rows between unbounded preceding and 1 preceding), 0)) as p from c1),
    drawdown as (select coalesce(max(greatest(c2.drop, c2.p - c2.e - c2.low)), 0) as max_drawdown from c2)`;
}

/**
 * The drawdown's days over several accounts (after CTE `ub`, the range in UTC): the user's days in the
 * currency (stats_drawdown_days) whole in the range, and the partial ones at its edges from the journal
 * (stats_drawdown_rows).
 */
function userDrawdownDaysSql(user: StatsUser, currency: string): SQL {
  return sql`
    select x.day, x.net, x.high, x.low, x.drop from ub join stats_drawdown_days x
      on x.user_id = ${user.id} and x.currency = ${currency} and x.day >= ub.fd and x.day < ub.td
    union all
    select r.day, r.net, r.high, r.low, r.drop from ub cross join lateral stats_drawdown_rows(
      array[${user.id}, ${user.id}]::uuid[], array[${currency}, ${currency}]::text[], array[ub.lo1, ub.lo2], array[ub.hi1, ub.hi2]) r`;
}


/**
 * A statistic's currency and rows from its source: from the maintained rows once the user's notes are settled
 * (`maintained`), or from the journal over the scope (`journal`): when asked for, and when more was noted than
 * a read settles (the same figures; the settle job refreshes the rows).
 */
async function readWith<T>(
  deps: StatsDeps,
  caller: StatsCaller,
  query: StatsQuery,
  source: StatsSource,
  journal: (from: StatsScope, user: StatsUser) => SQL,
  maintained: (user: StatsUser, currency: string | null) => SQL,
  journalJoins: { journal?: boolean; extraJoin?: SQL } = {},
  inBase?: (user: StatsUser, conv: BaseConversion) => SQL,
): Promise<{ currency: string | null; rows: T[]; missingRates?: MissingRate[] }> {
  if (query.currency === BASE) {
    if (!inBase) throw new AppError("VALIDATION_ERROR", "This figure is not converted to a base currency: choose an account or a currency.", { fields: [{ path: "currency", message: "must be an account's currency here" }] });
    const settledBase = await resolveScope(deps, caller, query, source === "maintained");
    const fromJournal = settledBase.version == null;
    const figures = async (at: { base: string; overrides: boolean; fxVersion: string; stamp: string }) => {
      const statement = inBase(settledBase.user, { userId: settledBase.user.id, base: at.base, journal: fromJournal, overrides: at.overrides, fxVersion: at.fxVersion });
      return fromJournal ? rowsOf<T>(await deps.db.execute(statement)) : keptFigures<T>(deps.db, statement, `${settledBase.version}:${at.stamp}`);
    };
    // With the head read by the session statement, the figures run beside the check of the rates they need:
    // kept when no rate had to be fetched (the usual case), else run again at the new rates.
    const head = settledBase.head;
    const early = head?.base ? { stamp: stampOf(head), rows: figures({ base: head.base, overrides: head.overrides, fxVersion: head.fx_version, stamp: stampOf(head) }) } : null;
    early?.rows.catch(() => undefined);
    const prepared = await prepareBase(deps, settledBase.user.id, query, fromJournal ? "journal" : "maintained", settledBase.version, head);
    // The months kept in the base, built or brought up to date first (once per version of the rows and rates).
    if (!fromJournal) keepBaseMonths(deps, settledBase.user.id, prepared, settledBase.version!);
    const rows = early && early.stamp === prepared.stamp ? await early.rows : await figures(prepared);
    // A converted amount carries its rate's 14 decimals: answered to 10, as every amount.
    const rounded = rows.map((row) => Object.fromEntries(Object.entries(row as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" ? roundDecimal10(v) : v])) as T);
    return { currency: prepared.base, rows: rounded, missingRates: prepared.missing };
  }
  const settled = source === "maintained" ? await resolveScope(deps, caller, query, true) : undefined;
  if (settled?.version != null) {
    // Exact at this version: what the same statement gave at it, or run (a few shapes of text, range open or
    // not, one account or several, each costlier to plan than to run: executeReused).
    return { currency: settled.currency, rows: await keptFigures<T>(deps.db, maintained(settled.user, settled.currency), settled.version) };
  }
  // From the journal: asked for, or too much noted to settle now (the same figures; the job settles).
  const { user, currency } = settled ?? (await resolveScope(deps, caller, query, false));
  const from = await scope(deps, user, query, { ...journalJoins, currency });
  return { currency, rows: rowsOf<T>(await deps.db.execute(journal(from, user))) };
}

export async function summary(deps: StatsDeps, caller: StatsCaller, query: StatsQuery & { countBy?: SummaryQuery["countBy"] }, source: StatsSource = "maintained") {
  const { currency, rows, missingRates } = await readWith<Record<string, string | null>>(
    deps,
    caller,
    query,
    source,
    (from) => summaryFromJournalSql(from),
    (user, c) => summarySql(user, query, c),
    {},
    (user, conv) => summarySql(user, query, conv.base, conv),
  );
  if (query.countBy === "strategy") Object.assign(rows[0]!, await perStrategy(deps, caller, query, currency));
  const r = rows[0]!;
  const r2 = (v: string | null | undefined) => (Number(r.r_with_risk) === 0 || v === null || v === undefined ? null : formatDecimal(v));
  return {
    currency,
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
    ...(missingRates ? { missingRates } : {}),
  };
}

/**
 * The per-trade figures of the summary with each option strategy as one trade (docs/options.md): a strategy
 * counts once its every leg is closed, on its last close, and its legs' net P&L decides win or loss; a trade in
 * no strategy (a stock, a future) counts as itself. The amounts realised in the range are the summary's own.
 */
async function perStrategy(deps: StatsDeps, caller: StatsCaller, query: StatsQuery, currency: string | null) {
  const { user } = await resolveScope(deps, caller, query, false);
  await settleStrategies(deps, user.id);
  const inBase = query.currency === BASE;
  const only = query.accountId ? sql`and p.account_id = ${query.accountId}::uuid` : currency && !inBase ? sql`and a.currency = ${currency}` : sql``;
  const units = sql`units as (
        select coalesce(l.strategy_id::text, p.id::text) as unit, a.id as account_id, a.currency, a.timezone, sum(p.net_pnl) as net,
          bool_and(p.closed_at is not null) as done, max(p.closed_at) as closed_at
        from positions p join accounts a on a.id = p.account_id left join strategy_legs l on l.fill_id = p.open_fill_id
        where a.user_id = ${user.id}::uuid ${only}
        group by 1, 2
      ), done as (
        select * from units where done
          ${query.from ? sql`and closed_at >= ${new Date(query.from).toISOString()}::timestamptz` : sql``}
          ${query.to ? sql`and closed_at < ${new Date(query.to).toISOString()}::timestamptz` : sql``}
      )`;
  // In the base (docs/currencies.md): each strategy at its close date's rate; one without a rate is left out
  // (the summary's missingRates names its date).
  const pair = sql`u.currency, u.account_id, (u.closed_at at time zone u.timezone)::date as day`;
  const own = inBase ? (await closeRates(deps, user.id, currency!, sql`with ${units} select distinct ${pair} from done u where u.currency <> ${currency}`)).own : false;
  const closed = inBase
    ? sql`closed as (select round(u.net * fx.k, 10) as net from done u cross join lateral (${ratesSql(user.id, currency!, sql`select ${pair}`, own)}) fx where fx.k is not null)`
    : sql`closed as (select net from done)`;
  const [row] = rowsOf<Record<string, string | null>>(
    await deps.db.execute(sql`with ${units}, ${closed}
      select count(*)::text as trades, count(*) filter (where net > 0)::text as wins, count(*) filter (where net < 0)::text as losses,
        case when count(*) = 0 then null else round(count(*) filter (where net > 0)::numeric / count(*), 4)::text end as win_rate,
        case when coalesce(sum(net) filter (where net < 0), 0) = 0 then null
          else round(coalesce(sum(net) filter (where net > 0), 0) / abs(sum(net) filter (where net < 0)), 4)::text end as profit_factor,
        round(sum(net) / nullif(count(*), 0), 10)::text as expectancy,
        round(avg(net) filter (where net > 0), 10)::text as avg_win, round(avg(net) filter (where net < 0), 10)::text as avg_loss,
        max(net)::text as largest_win, min(net)::text as largest_loss
      from closed`),
  );
  return row!;
}

/**
 * The summary from the maintained rows (exported for the benchmark, which times it without HTTP): totals and
 * per-trade figures summed per 1R over the days, the drawdown chained over them (one account's days, or the
 * user's days over the currency for several accounts).
 */
export function summarySql(user: StatsUser, query: StatsQuery, currency: string | null, conv?: BaseConversion): SQL {
  const several = !query.accountId;
  // In the base currency the drawdown is measured on each trading day's close (docs/currencies.md): each
  // day's amounts converted at its rate, so no path within a day mixes two rates.
  const days = conv
    ? sql`select day, net, high, low, drop from dd_days`
    : !several
    ? sql`select day, net, dd_high as high, dd_low as low, dd_drop as drop from src where one_r is null and dd_high is not null`
    : currency === null
      ? sql`select null::date as day, 0::numeric as net, 0::numeric as high, 0::numeric as low, 0::numeric as drop where false`
      : userDrawdownDaysSql(user, currency);
  const utc = several && currency !== null && !conv ? sql`, ${boundsSql(sql`select null::uuid as account_id, null::text as currency, 'UTC'::text as timezone`, query, "ub")}` : sql``;
  return sql`${sourceSql(user, query, currency, "", true, conv)} ${utc},
      g as (
        select one_r, sum(trades) as n, sum(trades_net) as s, sum(wins) as nw, sum(wins_net) as sw, sum(losses) as nl,
          sum(losses_net) as sl, max(largest) as mx, min(smallest) as mn
          ${conv ? sql`, sum(b_trades_net) as bs, sum(b_wins_net) as bsw, sum(b_losses_net) as bsl, max(b_largest) as bmx, min(b_smallest) as bmn` : sql``}
        from src group by 1
      ),
      totals as (select coalesce(sum(net), 0) as net, coalesce(sum(gross), 0) as gross, coalesce(sum(fees), 0) as fees from src),
      ${chainSql(days)}
      ${perTradeSql(sql`g`, sql`totals`, sql`drawdown`, { converted: !!conv })}`;
}

/**
 * Buckets from the maintained rows (the totals' days, each turned into its bucket's start by `bucket`):
 * start, net, trades, r (rounded to 2), r_exact (unrounded), with_risk; a bucket appears when something was
 * realised or paid in it, or a trade closed.
 */
function bucketsSql(user: StatsUser, query: StatsQuery, currency: string | null, bucket: ((day: SQL) => SQL) | "day", conv?: BaseConversion): SQL {
  if (bucket === "day" && query.accountId) {
    // One account's day is its totals' row (day_trades, day_r, day_with_risk: the day's trades over its 1Rs).
    // Over several accounts a day's R is each 1R's net over them all / that 1R: from the rows per 1R below.
    return sql`${sourceSql(user, query, currency, "")}
    select src.day::timestamp as start, src.net, src.day_trades as trades, round(src.day_r, 2) as r, src.day_r as r_exact, src.day_with_risk as with_risk
    from src where src.one_r is null and src.day_trades is not null and (src.moved > 0 or src.day_trades > 0)`;
  }
  const toStart = bucket === "day" ? (day: SQL) => day : bucket;
  return sql`${sourceSql(user, query, currency, "", false, conv)}
    select c.start, sum(c.net) as net, sum(c.n) as trades, round(sum(c.s / c.one_r), 2) as r, sum(c.s / c.one_r) as r_exact,
      sum(c.n) filter (where c.one_r is not null) as with_risk
    from (
      select ${toStart(sql`src.day::timestamp`)} as start, one_r, sum(net) as net, sum(trades) as n, sum(trades_net) as s, sum(moved) as moved
      from src group by 1, 2
    ) c
    group by c.start having sum(c.moved) > 0 or sum(c.n) > 0`;
}

/** The calendar (exported for the benchmark): day, net, trades, r, with_risk, oldest first. */
export function calendarSql(user: StatsUser, query: StatsQuery, currency: string | null, source: StatsSource = "maintained", from?: StatsScope, conv?: BaseConversion): SQL {
  const day = (at: SQL) => sql`${at}::date`;
  const buckets = source === "journal" && !conv ? bucketsFromJournalSql(from!, day) : bucketsSql(user, query, currency, "day", conv);
  return sql`
      select to_char(d.start, 'YYYY-MM-DD') as day, d.net::text as net, d.trades::text as trades, d.r::text as r, d.with_risk::text as with_risk
      from (${buckets}) d
      order by d.start`;
}

/** Realised net P&L per trading day (the account's zone), oldest first, with the trades closed that day. */
export async function calendar(deps: StatsDeps, caller: StatsCaller, query: StatsQuery, source: StatsSource = "maintained") {
  const { currency, rows, missingRates } = await readWith<{ day: string; net: string; trades: string; r: string | null; with_risk: string }>(
    deps,
    caller,
    query,
    source,
    (from, user) => calendarSql(user, query, from.currency, "journal", from),
    (user, c) => calendarSql(user, query, c),
    {},
    (user, conv) => calendarSql(user, query, conv.base, "maintained", undefined, conv),
  );
  return {
    currency,
    days: rows.map((r) => ({ date: r.day, netPnl: formatDecimal(r.net), trades: Number(r.trades), ...inR(r) })),
    ...(missingRates ? { missingRates } : {}),
  };
}

/** A bucket's trades in R: the R of those closed in it that have a 1R, summed, and how many they are. */
function inR(r: { r: string | null; with_risk: string }) {
  const withRisk = Number(r.with_risk);
  return { rTotal: withRisk === 0 || r.r === null ? null : formatDecimal(r.r), withRisk };
}

/** Cumulative realised net P&L at the end of each day, week (starting WEEK_START_DAY) or month. */
export async function equityCurve(
  deps: StatsDeps,
  caller: StatsCaller,
  query: StatsQuery & { bucket: "day" | "week" | "month" },
  source: StatsSource = "maintained",
) {
  const bucket = (local: SQL) =>
    query.bucket === "day"
      ? sql`date_trunc('day', ${local})`
      : query.bucket === "month"
        ? sql`date_trunc('month', ${local})`
        : deps.config.WEEK_START_DAY === 1
          ? sql`date_trunc('week', ${local})`
          : sql`(date_trunc('week', ${local} + interval '1 day') - interval '1 day')`;
  // Amounts trimmed here (-400.76, not -400.7600000000) take formatDecimal's quick path: a daily curve has
  // thousands of points.
  const curve = (buckets: SQL) => sql`
      select to_char(b.start, 'YYYY-MM-DD') as start, trim_scale(b.net)::text as net, b.trades::text as trades,
             trim_scale(sum(b.net) over w)::text as equity, b.r::text as r, b.with_risk::text as with_risk,
             -- Summed unrounded, rounded once: the curve's end is the summary's R total, to the cent of an R.
             trim_scale(round(sum(coalesce(b.r_exact, 0)) over w, 2))::text as r_equity
      from (${buckets}) b
      window w as (order by b.start rows between unbounded preceding and current row)
      order by b.start`;
  const { currency, rows, missingRates } = await readWith<{ start: string; net: string; equity: string; trades: string; r: string | null; with_risk: string; r_equity: string }>(
    deps,
    caller,
    query,
    source,
    (from) => curve(bucketsFromJournalSql(from, bucket)),
    (user, c) => curve(bucketsSql(user, query, c, query.bucket === "day" ? "day" : bucket)),
    {},
    (user, conv) => curve(bucketsSql(user, query, conv.base, query.bucket === "day" ? "day" : bucket, conv)),
  );
  return {
    currency,
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
    ...(missingRates ? { missingRates } : {}),
  };
}

export type BreakdownBy = "symbol" | "direction" | "tag" | "setup" | "weekday" | "hour" | "rules" | "strategy";
/** The groups of the breakdown by rules (an account's trading rules, lib/rules/compliance.ts). */
export const KEPT_RULES = "Kept every rule";
export const BROKE_RULES = "Broke a rule";
/** The group of trades without a setup. */
export const NO_SETUP = "No setup";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/**
 * Realised net P&L per symbol, direction (Long, Short), tag, setup ("No setup" for trades without one), weekday or hour of entry (in
 * the account's zone), with the number and win rate of the trades closed in the range (null when none closed).
 * From the maintained rows (whole months, whole days, the edges from the journal); by rules (which trades
 * broke an account's rules, scored when read) from the journal.
 */
export async function breakdown(deps: StatsDeps, caller: StatsCaller, query: StatsQuery & { by: BreakdownBy }, source: StatsSource = "maintained") {
  // Rules are an account's: the trades that broke one of its rules (scored as the compliance report does).
  if (query.by === "rules" && !query.accountId) {
    throw new AppError("VALIDATION_ERROR", "Trading rules are set per account: choose one (accountId) to split its trades by them.", {
      fields: [{ path: "accountId", message: "is required to group by rules" }],
    });
  }
  // By strategy kind: the option strategies closed in the range, each counted once (lib/options/strategies.ts).
  if (query.by === "strategy") {
    const { user, currency } = await resolveScope(deps, caller, query, false);
    if (query.currency !== BASE) return { currency, by: query.by, groups: (await strategyKindGroups(deps, user.id, { ...query, currency })).groups };
    // In the base: each strategy at its close date's rate (resolveScope leaves the base to the rates' read).
    const base = await baseOf(deps, user.id);
    if (!base) throw noBaseError();
    const { groups, missingRates } = await strategyKindGroups(deps, user.id, { ...query, currency: base.base, inBase: true });
    return { currency: base.base, by: query.by, groups, missingRates: missingRates ?? [] };
  }
  const order = query.by === "weekday" || query.by === "hour" ? sql`(g.key)::int` : sql`g.key`;
  const maintained = (user: StatsUser, currency: string | null, conv?: BaseConversion) => sql`${sourceSql(user, query, currency, query.by, true, conv)}
    select g.key, sum(g.net)::text as net, sum(g.n)::text as trades, sum(g.nw)::text as wins, round(sum(g.s / g.one_r), 2)::text as r,
      (sum(g.n) filter (where g.one_r is not null))::text as with_risk
    from (
      select key, one_r, sum(net) as net, sum(trades) as n, sum(wins) as nw, sum(trades_net) as s, sum(moved) as moved
      from src group by 1, 2
    ) g
    group by g.key having sum(g.moved) > 0 or sum(g.n) > 0
    order by ${order}`;
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
  const rules = query.by === "rules" ? sql`with ${brokenSql(query.accountId!, null)} ` : sql``;
  const journal = (from: StatsScope) => sql`${rules}
    select g.key, g.net::text as net, g.trades::text as trades, g.wins::text as wins, g.r::text as r, g.with_risk::text as with_risk
    from (${breakdownFromJournalSql(from, key)}) g
    order by ${order}`;
  // By rules (scored when read) from the journal; tags and setup are the trade's journal's.
  const { currency, rows, missingRates } = await readWith<{ key: string; net: string; trades: string; wins: string; r: string | null; with_risk: string }>(
    deps,
    caller,
    query,
    query.by === "rules" ? "journal" : source,
    journal,
    maintained,
    query.by === "tag" ? { journal: true, extraJoin: sql`cross join lateral unnest(j.tags) as tag(name)` } : { journal: query.by === "setup" },
    (user, conv) => maintained(user, conv.base, conv),
  );
  return {
    currency,
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
      wins: Number(r.wins),
      winRate: Number(r.trades) > 0 ? (Number(r.wins) / Number(r.trades)).toFixed(4) : null,
      ...inR(r),
    })),
    ...(missingRates ? { missingRates } : {}),
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
  const from = await scope(deps, user, query, { inBase: true });
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
  const from = await scope(deps, user, query, { inBase: true });
  const [row] = rowsOf<{ trades: number; with_excursions: number; points: string }>(
    await deps.db.execute(sql`
      with c0 as (select p.id, p.symbol, p.net_pnl, p.closed_at, p.updated_at, ${ONE_R_SQL} as one_r, a.currency, a.id as account_id, (p.closed_at at time zone a.timezone)::date as close_day from ${from.closed}),
      c as (${
        // In the base currency (docs/currencies.md): each trade's amounts at its close date's rate; one without a rate is left out.
        query.currency === BASE
          ? sql`select c0.id, c0.symbol, round(c0.net_pnl * fx.k, 10) as net_pnl, c0.closed_at, c0.updated_at, c0.one_r * fx.k as one_r, fx.k from c0
              join (${ratesSql(user.id, from.currency!, sql`select distinct currency, account_id, close_day as day from c0`, true)}) fx on fx.account_id = c0.account_id and fx.day = c0.close_day and fx.k is not null`
          : sql`select c0.id, c0.symbol, c0.net_pnl, c0.closed_at, c0.updated_at, c0.one_r, 1 as k from c0`
      }),
      e as (
        select c.id, c.symbol, c.net_pnl, c.closed_at, c.one_r, round(x.position_mae * c.k, 10) as position_mae, round(x.position_mfe * c.k, 10) as position_mfe, round(x.best_exit_pnl * c.k, 10) as best_exit_pnl from c
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
