// The rate of each (currency, day) pair to a user's base (docs/currencies.md), set-based: one lookup in
// fx_daily (the reference rates walked back per date, lib/fx/rates.ts) for the currency and one for the base,
// and the user's overrides of the week before and their brokers' rates when they have any. What every conversion reads: the statistics,
// a trade's `base`, the rates page.
import { sql, type SQL } from "drizzle-orm";

/**
 * Each pair of `pairs` (a query of currency, account_id, day, and any other columns: all kept, so rows are
 * converted in one join with the rates, planned on the rates' statistics), with k, rate, rate_day, source:
 * - rate: units of the currency per 1 base (10 decimals); k = 1 / rate (14 decimals, from the published
 *   rates), what an amount is multiplied by (a product of numerics is exact, so a sum converted equals its
 *   parts converted and summed);
 * - source: 'same' (the base itself); 'broker' (the account's broker's own rate of that date to this base,
 *   fx_broker_rates: its k as given; DESIGN.md section 11: it wins over both others); 'override' (the
 *   trader's rate of that date, or of an earlier one in the 7 days before with no reference rate since);
 *   'reference';
 * - all four null when the instance has no rate for the pair (a date never asked of the rate service, or
 *   without a published rate in the 7 days before).
 * `own`: whether the user has rates of their own or of their brokers to this base (none: their lookup is left
 * out, and account_id is not read).
 */
export function ratesSql(userId: string, base: string, pairs: SQL, own: boolean): SQL {
  const theirs = own
    ? sql`left join lateral (
        select * from (
          select br.day, br.k, round(1 / br.k, 10) as rate, 'broker' as source, 0 as rank
            from fx_broker_rates br where br.account_id = n.account_id and br.base = ${base} and br.day = n.day
          union all
          (select o.day, round(1 / o.rate, 14), round(o.rate, 10), 'override', 1
            from fx_overrides o
            where o.user_id = ${userId}::uuid and o.base = ${base} and o.currency = n.currency and o.day <= n.day and o.day >= n.day - 7
              and o.day >= coalesce(c.rate_day, '-infinity'::date)
            order by o.day desc limit 1)
        ) x order by rank limit 1
      ) o on true`
    : sql`left join (select null::date as day, null::numeric as k, null::numeric as rate, null::text as source) o on false`;
  return sql`select n.*,
      case when n.currency = ${base} then 1::numeric when o.k is not null then o.k when b.per_eur is not null then round(b.per_eur / c.per_eur, 14) end as k,
      case when n.currency = ${base} then 1::numeric when o.k is not null then o.rate when b.per_eur is not null then round(c.per_eur / b.per_eur, 10) end as rate,
      case when n.currency = ${base} then n.day when o.k is not null then o.day when b.per_eur is not null then c.rate_day end as rate_day,
      case when n.currency = ${base} then 'same' when o.k is not null then o.source when b.per_eur is not null then 'reference' end as source
    from (${pairs}) n
    left join fx_daily c on c.currency = n.currency and c.day = n.day
    left join fx_daily b on b.currency = ${base} and b.day = n.day and c.per_eur is not null
    ${theirs}`;
}
