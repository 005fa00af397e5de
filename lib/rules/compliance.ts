// Compliance with the account's trading rules (docs/discipline.md, "Trading rules"), computed after the fact
// in one SQL statement from the trades, their plans and the account's clock; nothing is stored, so a rule
// added, changed or turned off today rescores the whole history, and a fill added or an import undone
// rescores its trades.
//
// A trade breaks:
// - max_daily_loss when it opened after the trades closed earlier that day had lost the amount or more;
// - max_loss_per_trade when it closed with a loss larger than the amount (or than r x its 1R);
// - max_trades_per_day when it is past the count among the day's trades (by opening time);
// - max_risk_per_trade when its 1R is larger than the amount; min_planned_rr when its planned R:R is smaller;
// - no_trading_weekdays / trading_hours when it opened on a weekday off / outside the hours;
// - cooldown_after_loss when it opened less than the minutes after a losing trade of the account closed.
// A day (the account's clock; a day a trade opened or closed) breaks a rule when one of its trades does, and
// max_daily_loss also when the trades closed that day lost the amount or more. Scores are out of 100: the
// weights of the rules kept over the weights of all the account's rules turned on.
import { sql, type SQL } from "drizzle-orm";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal } from "../money.ts";
import { ONE_R_SQL } from "../risk.ts";
import { rulesOfAccount } from "./rules.ts";
import { closeRates, noBaseError, type MissingRate } from "../fx/base.ts";
import { ratesSql } from "../fx/convert.ts";
import { baseOf } from "../fx/user-base.ts";
import { WEIGHTS } from "./schema.ts";

/**
 * Every (rule, trade) broken among the account's trades from `lower` on (all when null), as the CTEs
 * `rules`, `t` (the trades with their local day) and `tb` (broken pairs). Trades before `lower` are still read
 * where they set a later trade's context: a loss closed the day before, or earlier the same day.
 */
export function brokenSql(accountId: string, lower: SQL | null, upper: SQL | null = null): SQL {
  const from = lower ?? sql`'-infinity'::timestamptz`;
  const until = upper ?? sql`'infinity'::timestamptz`;
  return sql`rules as (
    select r.id, r.type, r.weight, (r.params->>'amount')::numeric as amount, (r.params->>'r')::numeric as r, (r.params->>'count')::int as count,
      (r.params->>'ratio')::numeric as ratio, array(select jsonb_array_elements_text(r.params->'weekdays')::int) as weekdays,
      (r.params->>'from')::time as from_time, (r.params->>'to')::time as to_time, make_interval(mins => coalesce((r.params->>'minutes')::int, 0)) as cooldown
    from trading_rules r where r.account_id = ${accountId} and r.enabled
  ),
  t as (
    select p.id, p.opened_at, p.closed_at, p.net_pnl, (p.opened_at at time zone a.timezone) as lo,
      (p.opened_at at time zone a.timezone)::date as day, (p.closed_at at time zone a.timezone)::date as close_day,
      ${ONE_R_SQL} as one_r,
      abs(j.target_price - j.entry_price) / nullif(abs(j.entry_price - j.stop_price), 0) as planned_rr
    from positions p join accounts a on a.id = p.account_id left join trade_journals j on j.position_id = p.id
    where p.account_id = ${accountId} and p.opened_at < ${until}
      and (p.opened_at >= ${from} - interval '2 days' or p.closed_at >= ${from} - interval '2 days' or p.closed_at is null)
      and exists (select 1 from rules)
  ),
  ev as (
    select id, closed_at as at, 0 as ord, net_pnl as net, close_day as eday from t where closed_at is not null
    union all
    select id, opened_at, 1, null, day from t
  ),
  -- One sort serves every window: a day (the account's clock) is a function of the time, so the events in
  -- (day, time) order are in time order.
  w as (
    select id, ord,
      max(at) filter (where ord = 0 and net < 0) over (order by eday, at, ord, id rows between unbounded preceding and 1 preceding) as last_loss,
      coalesce(sum(net) filter (where ord = 0) over (partition by eday order by at, ord, id rows between unbounded preceding and 1 preceding), 0) as day_net_before,
      count(*) filter (where ord = 1) over (partition by eday order by at, ord, id rows between unbounded preceding and current row) as n
    from ev
  ),
  k as (select t.*, w.last_loss, w.day_net_before, w.n from t join w on w.id = t.id and w.ord = 1),
  tb as (
    select r.id as rule_id, k.id as trade_id, k.day, k.closed_at, k.net_pnl from rules r cross join k
    where k.opened_at >= ${from} and case r.type
      when 'max_daily_loss' then k.day_net_before <= -r.amount
      when 'max_loss_per_trade' then k.closed_at is not null and k.net_pnl < -(coalesce(r.r * k.one_r, r.amount))
      when 'max_trades_per_day' then k.n > r.count
      when 'max_risk_per_trade' then k.one_r > r.amount
      when 'min_planned_rr' then k.planned_rr < r.ratio
      when 'no_trading_weekdays' then extract(isodow from k.lo)::int = any(r.weekdays)
      when 'trading_hours' then k.lo::time < r.from_time or k.lo::time >= r.to_time
      when 'cooldown_after_loss' then k.opened_at - k.last_loss < r.cooldown
      else false end is true
  )`;
}


/** A trade's compliance: the rules it broke and its score; null when the account has no rule turned on. */
export async function tradeCompliance(deps: Pick<Deps, "db">, accountId: string, tradeId: string, openedAt: string) {
  const rules = await rulesOfAccount(deps, accountId, true);
  if (rules.length === 0) return null;
  const rows = rowsOf<{ rule_id: string }>(
    await deps.db.execute(
      sql`with ${brokenSql(accountId, sql`${openedAt}::timestamptz`, sql`(${openedAt}::timestamptz + interval '1 microsecond')`)} select rule_id::text as rule_id from tb where trade_id = ${tradeId}`,
    ),
  );
  const broken = new Set(rows.map((r) => r.rule_id));
  const total = rules.reduce((s, r) => s + WEIGHTS[r.weight], 0);
  const lost = rules.filter((r) => broken.has(r.id)).reduce((s, r) => s + WEIGHTS[r.weight], 0);
  return {
    score: Math.round((100 * (total - lost)) / total),
    rules: rules.length,
    broken: rules.filter((r) => broken.has(r.id)).map((r) => ({ ruleId: r.id, label: r.label, weight: r.weight })),
  };
}

export type ComplianceQuery = { from?: string | undefined; to?: string | undefined; currency?: "base" | undefined };

type Figures = { trades: number; wins: number; net: string; expectancy: string | null };
const figures = (f: Figures | undefined) => {
  const trades = Number(f?.trades ?? 0);
  return {
    trades,
    wins: Number(f?.wins ?? 0),
    netPnl: formatDecimal(f?.net ?? "0"),
    winRate: trades > 0 ? (Number(f!.wins) / trades).toFixed(4) : null,
    expectancy: f?.expectancy ? formatDecimal(f.expectancy) : null,
  };
};

/** The rates of an account's close days to the user's base (compliance in the base): ratesSql's arguments. */
type InBase = { userId: string; base: string; currency: string; own: boolean };

/**
 * The compliance report's one statement (exported for the benchmark): per rule, per day, and the split.
 * With `inBase`, the money figures are converted at each trade's close date's rate (a trade without one is
 * left out of them); the rules are kept in the account's own amounts, as they are written.
 */
export function complianceSql(accountId: string, timezone: string, query: ComplianceQuery, inBase?: InBase): SQL {
  const lower = query.from ? sql`(${query.from}::date::timestamp at time zone ${timezone})` : null;
  const upper = query.to ? sql`((${query.to}::date + 1)::timestamp at time zone ${timezone})` : null;
  const inRange = sql`${query.from ? sql`and x.day >= ${query.from}::date` : sql``} ${query.to ? sql`and x.day <= ${query.to}::date` : sql``}`;
  const fx = inBase
    ? sql`fx as (${ratesSql(inBase.userId, inBase.base, sql`select distinct ${inBase.currency}::text as currency, ${accountId}::uuid as account_id, t.close_day as day from t where t.close_day is not null`, inBase.own)}),`
    : sql``;
  /** A closed trade's net P&L in the figures' currency (its close day: `day`). */
  const money = (net: SQL, day: SQL) => (inBase ? sql`round(${net} * (select fx.k from fx where fx.day = ${day}), 10)` : net);
  return sql`with ${brokenSql(accountId, lower, upper)}, ${fx}
      tr as (select k.id, k.day, k.closed_at, ${money(sql`k.net_pnl`, sql`k.close_day`)} as net_pnl, k.id in (select trade_id from tb) as broke
        from k where k.opened_at >= ${lower ?? sql`'-infinity'::timestamptz`}),
      dl as (select k.close_day as day, sum(k.net_pnl) as own_net, ${money(sql`sum(k.net_pnl)`, sql`k.close_day`)} as net from k where k.closed_at is not null group by k.close_day),
      tday as (select day, count(*) as trades from tr group by day),
      dayset as (select day from tday union select day from dl where day >= ${query.from ?? "-infinity"}::date),
      dbd as (
        select x.day, array_agg(x.rule_id) as broken from (
          select day, rule_id from tb
          union
          select dl.day, r.id from dl join rules r on r.type = 'max_daily_loss' and dl.own_net <= -r.amount
        ) x group by x.day
      ),
      days as (
        select d.day, coalesce(tday.trades, 0) as trades, coalesce(dl.net, 0) as net, coalesce(dbd.broken, '{}') as broken
        from dayset d left join tday on tday.day = d.day left join dl on dl.day = d.day left join dbd on dbd.day = d.day
      ),
      bt as (select x.rule_id, count(*) as trades, coalesce(sum(${money(sql`x.net_pnl`, sql`(x.closed_at at time zone ${timezone})::date`)}) filter (where x.closed_at is not null), 0) as net
        from tb x where true ${inRange} group by x.rule_id),
      bd as (select b.rule_id, count(*) as days from days x cross join unnest(x.broken) as b(rule_id) where true ${inRange} group by b.rule_id)
      select
        (select coalesce(json_agg(json_build_object('id', r.id, 'trades', coalesce(bt.trades, 0), 'days', coalesce(bd.days, 0), 'netPnl', coalesce(bt.net, 0)::text)), '[]')
          from rules r left join bt on bt.rule_id = r.id left join bd on bd.rule_id = r.id)::text as per_rule,
        (select coalesce(json_agg(json_build_object('day', to_char(x.day, 'YYYY-MM-DD'), 'trades', x.trades, 'net', x.net::text, 'broken', x.broken) order by x.day), '[]')
          from days x where true ${inRange})::text as days,
        (select coalesce(json_object_agg(g.kept, json_build_object('trades', g.trades, 'wins', g.wins, 'net', g.net::text, 'expectancy', g.expectancy::text)), '{}') from (
          select not x.broke as kept, count(*) as trades, count(*) filter (where x.net_pnl > 0) as wins, sum(x.net_pnl) as net,
            round(avg(x.net_pnl), 10) as expectancy
          from tr x where x.closed_at is not null ${inRange} group by 1) g)::text as split`;
}

/**
 * GET /api/rules/compliance: over the account's days from `from` to `to` (both included, the account's
 * clock): each rule with the trades and days that broke it and what those trades made; the closed trades
 * that kept every rule against those that broke one; each day's score and broken rules; the streak of fully
 * compliant days (the current one ending on the last trading day of the period, and the best).
 */
export async function complianceReport(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, accountId: string, query: ComplianceQuery) {
  const account = await requireOwnAccount(deps, user, accountId);
  if (query.from && query.to && query.from > query.to) {
    throw new AppError("VALIDATION_ERROR", "The period ends before it starts.", { fields: [{ path: "to", message: "must not be before from" }] });
  }
  const rules = await rulesOfAccount(deps, accountId, true);
  // In the base (docs/currencies.md): the rates of the account's close days in the period, asked first.
  let inBase: InBase | undefined;
  let missingRates: MissingRate[] | undefined;
  if (query.currency === "base") {
    const base = await baseOf(deps, user.id);
    if (!base) throw noBaseError();
    if (base.base !== account.currency) {
      const lower = query.from ? sql`(${query.from}::date::timestamp at time zone ${account.timezone})` : sql`'-infinity'::timestamptz`;
      const upper = query.to ? sql`((${query.to}::date + 1)::timestamp at time zone ${account.timezone})` : sql`'infinity'::timestamptz`;
      const rates = await closeRates(deps, user.id, base.base, sql`select distinct a.currency, a.id as account_id, (p.closed_at at time zone a.timezone)::date as day
        from positions p join accounts a on a.id = p.account_id
        where p.account_id = ${accountId}::uuid and p.closed_at is not null and p.opened_at >= ${lower} - interval '2 days' and p.opened_at < ${upper}`);
      inBase = { userId: user.id, base: base.base, currency: account.currency, own: rates.own };
      missingRates = rates.missing;
    } else missingRates = [];
  }
  const [row] = rowsOf<{ per_rule: string; days: string; split: string }>(await deps.db.execute(complianceSql(accountId, account.timezone, query, inBase)));
  const perRule = new Map((JSON.parse(row!.per_rule) as Array<{ id: string; trades: number; days: number; netPnl: string }>).map((r) => [r.id, r]));
  const total = rules.reduce((s, r) => s + WEIGHTS[r.weight], 0);
  const weightOf = new Map(rules.map((r) => [r.id, WEIGHTS[r.weight]]));
  const days = (JSON.parse(row!.days) as Array<{ day: string; trades: number; net: string; broken: string[] }>).map((d) => {
    const lost = d.broken.reduce((s, id) => s + (weightOf.get(id) ?? 0), 0);
    return { day: d.day, trades: d.trades, netPnl: formatDecimal(d.net), score: total ? Math.round((100 * (total - lost)) / total) : null, broken: d.broken };
  });
  let current = 0;
  let best = 0;
  for (const d of days) {
    current = d.broken.length === 0 ? current + 1 : 0;
    best = Math.max(best, current);
  }
  const split = JSON.parse(row!.split) as Record<"true" | "false", Figures | undefined>;
  const scored = days.filter((d) => d.score !== null);
  return {
    accountId,
    currency: inBase?.base ?? account.currency,
    ...(missingRates ? { missingRates } : {}),
    rules: rules.map((r) => ({
      ...r,
      brokenTrades: perRule.get(r.id)?.trades ?? 0,
      brokenDays: perRule.get(r.id)?.days ?? 0,
      /** Net P&L of the closed trades that broke it. */
      brokenNetPnl: formatDecimal(perRule.get(r.id)?.netPnl ?? "0"),
    })),
    /** The average day score of the period, out of 100 (null without rules or days). */
    score: rules.length && scored.length ? Math.round(scored.reduce((s, d) => s + d.score!, 0) / scored.length) : null,
    trades: { compliant: figures(split.true), broken: figures(split.false) },
    days,
    streak: rules.length ? { current, best } : { current: 0, best: 0 },
  };
}
