// The months of a user's statistics kept in their base currency (docs/currencies.md, "Maintained months"):
// a read in the base sums a month's rows instead of its days', as a read in one currency does. A month is
// built from the day rows of all the user's accounts, each converted at its day's rate, and read only while
// it is still what those rows and rates give: for the same base and rates' version (user_settings.fx_version,
// raised by an override, a change of base, an account created or deleted) and the same change count of the
// month's day rows (stats_month_versions, raised by a trigger on every write of them). New reference rates for
// a date drop the months they reach (lib/fx/rates.ts). The months of the last ten days are never built: their
// rates may still come (published the afternoon of the day, walked back up to 7 days).
import { sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../db/rows.ts";
import { ratesSql } from "./convert.ts";

/** Days before today that a kept month must end by. */
export const SETTLED_DAYS = 10;

/**
 * Builds the user's months in the base that are missing or out of date (every month old enough with day rows),
 * in one statement, at most one build per user at a time (another one under way: nothing done). What the
 * statement reads (the day rows, their months' change counts, the rates) is one snapshot, so a month written
 * meanwhile is built with its older count and not read. Returns how many months were built.
 */
export async function buildBaseMonths(
  deps: Pick<Deps, "db" | "now">,
  userId: string,
  head: { base: string; fxVersion: string; overrides: boolean },
): Promise<number> {
  const today = deps.now().toISOString().slice(0, 10);
  const [base, fx] = [head.base, head.fxVersion];
  const [row] = rowsOf<{ months: number }>(
    await deps.db.execute(sql`with lock as (select pg_try_advisory_xact_lock(hashtextextended('stats-base ' || ${userId}, 0)) as ok),
      todo as (
        select m.month, coalesce(mv.v, 0) as v from (
          select distinct g.day as month from accounts a join stats_groups g on g.account_id = a.id and g.grain = 'month' and g.dim = ''
          where a.user_id = ${userId}::uuid
        ) m
        left join stats_month_versions mv on mv.user_id = ${userId}::uuid and mv.month = m.month
        left join stats_base_months s on s.user_id = ${userId}::uuid and s.month = m.month
        where (m.month + interval '1 month')::date <= ${today}::date - ${SETTLED_DAYS}::int
          and (s.user_id is null or s.base <> ${base} or s.fx_version <> ${fx}::bigint or s.v <> coalesce(mv.v, 0))
          and (select ok from lock)
      ),
      native as (
        select a.currency, a.id as account_id, t.month, g.dim, g.day, g.key, g.one_r, g.net, g.gross, g.fees, g.moved, g.trades, g.wins, g.losses,
          g.trades_net, g.wins_net, g.losses_net, g.largest, g.smallest
        from todo t join accounts a on a.user_id = ${userId}::uuid
        join stats_groups g on g.account_id = a.id and g.grain = 'day' and g.day >= t.month and g.day < (t.month + interval '1 month')::date
      ),
      conv as (${ratesSql(userId, base, sql`select * from native`, head.overrides)}),
      built as (
        select n.month, n.dim, n.key, n.one_r, sum(n.net * n.k) as net, sum(n.gross * n.k) as gross, sum(n.fees * n.k) as fees,
          sum(n.moved)::int as moved, sum(n.trades)::int as trades, sum(n.wins)::int as wins, sum(n.losses)::int as losses,
          sum(n.trades_net) as trades_net, sum(n.wins_net) as wins_net, sum(n.losses_net) as losses_net, max(n.largest) as largest, min(n.smallest) as smallest,
          sum(n.trades_net * n.k) as b_trades_net, sum(n.wins_net * n.k) as b_wins_net, sum(n.losses_net * n.k) as b_losses_net,
          max(n.largest * n.k) as b_largest, min(n.smallest * n.k) as b_smallest
        from conv n where n.k is not null
        group by n.month, n.dim, n.key, n.one_r
      ),
      missing as (select month, count(distinct (currency, day))::int as n from conv where k is null group by month),
      -- Each month as a drawdown segment over its days' converted closes: running sums from its start.
      dday as (select month, day, sum(net * k) as net from conv where dim = '' and one_r is null and k is not null group by month, day),
      drun as (select month, day, net, sum(net) over (partition by month order by day) as p from dday),
      dd as (
        select month, sum(net) as net, max(p) as high, min(p) as low, max(pk - p) as drop
        from (select month, net, p, max(p) over (partition by month order by day) as pk from drun) y group by month
      ),
      written as (
        insert into stats_base_groups (user_id, month, base, fx_version, v, dim, key, one_r, net, gross, fees, moved, trades, wins, losses,
          trades_net, wins_net, losses_net, largest, smallest, b_trades_net, b_wins_net, b_losses_net, b_largest, b_smallest)
        select ${userId}::uuid, b.month, ${base}, ${fx}::bigint, t.v, b.dim, b.key, b.one_r, b.net, b.gross, b.fees, b.moved, b.trades, b.wins, b.losses,
          b.trades_net, b.wins_net, b.losses_net, b.largest, b.smallest, b.b_trades_net, b.b_wins_net, b.b_losses_net, b.b_largest, b.b_smallest
        from built b join todo t on t.month = b.month
        on conflict do nothing
        returning 1
      ),
      gone as (
        delete from stats_base_groups x using todo t
        where x.user_id = ${userId}::uuid and x.month = t.month and (x.base, x.fx_version, x.v) is distinct from (${base}, ${fx}::bigint, t.v)
        returning 1
      ),
      state as (
        insert into stats_base_months (user_id, month, base, fx_version, v, missing, dd_net, dd_high, dd_low, dd_drop)
        select ${userId}::uuid, t.month, ${base}, ${fx}::bigint, t.v, coalesce(m.n, 0), coalesce(d.net, 0), coalesce(d.high, 0), coalesce(d.low, 0), coalesce(d.drop, 0)
        from todo t left join missing m on m.month = t.month left join dd d on d.month = t.month
        on conflict (user_id, month) do update set base = excluded.base, fx_version = excluded.fx_version, v = excluded.v, missing = excluded.missing,
          dd_net = excluded.dd_net, dd_high = excluded.dd_high, dd_low = excluded.dd_low, dd_drop = excluded.dd_drop, built_at = now()
        returning 1
      )
      select (select count(*) from state)::int as months, (select count(*) from written) + (select count(*) from gone) as rows`),
  );
  return row?.months ?? 0;
}

/** The versions (of the rows and of the rates) whose months were last brought up to date, per user: checked once each (per process). */
const checked = new Map<string, string>();
const MAX_CHECKED = 10_000;

/**
 * buildBaseMonths after the read (deps.defer: the answer does not wait for it; until it is done, the read sums
 * the days, with the same figures), once per version of the user's rows and rates: a read again with nothing
 * changed asks nothing more.
 */
export function keepBaseMonths(deps: Pick<Deps, "db" | "now" | "defer">, userId: string, read: { base: string; fxVersion: string; overrides: boolean; stamp: string }, version: string) {
  const at = `${version}:${read.stamp}:${deps.now().toISOString().slice(0, 10)}`;
  if (checked.get(userId) === at) return;
  if (checked.size >= MAX_CHECKED) checked.clear();
  checked.set(userId, at);
  deps.defer(() => buildBaseMonths(deps, userId, read));
}
