// Stats summary and calendar over 100,000 closed trades (200,000 fill shares) in one account: median latency
// through the API on the real Node server, and the same aggregate as bare SQL over a pg connection, in one run;
// and the summary with its figures in R (every trade has a 1R, one in ten from a stop) against the same query
// without them.
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { startNodeServer } from "../../functions/node-server.ts";
import type { Config } from "../../lib/config/index.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { createLogger } from "../../lib/log.ts";
import { summaryFromJournalSql } from "../../lib/stats/recompute.ts";
import { calendarSql, scope, summarySql } from "../../lib/stats/stats.ts";
import { registerBenchUser, request } from "./http.ts";
import { timeInterleaved, timeMany } from "./startup.ts";

export const STATS_TRADES = 100_000;
export const ISSUE_37_ROUNDS = 101;
const MONTH = "&from=2024-06-01T04:00:00Z&to=2024-07-01T04:00:00Z";

export async function measureStats(config: Config, databaseUrl: string, runs = 11) {
  const server = await startNodeServer(config, { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { cookie, user } = await registerBenchUser(server.url, "stats-bench");
    const { rows } = await client.query<{ id: string }>(
      "select id from account_create($1, 'Stats bench', 'USD', 0, 'America/New_York', null, null)",
      [user.id],
    );
    const accountId = rows[0]!.id;
    await seedClosedTrades(client, accountId, STATS_TRADES, { settle: false });
    // Right after the history arrives, every day is noted: the first read answers from the journal (more
    // notes than a read settles) and the settle job refreshes them.
    const firstStarted = performance.now();
    const first = await request(`${server.url}/api/stats/summary?accountId=${accountId}`, { headers: { Cookie: cookie } });
    if (first.status !== 200) throw new Error(`the first summary answered ${first.status}`);
    const firstRead = performance.now() - firstStarted;
    const settle = await settleRows(client, accountId);

    const dialect = new PgDialect();
    const handle = await createNodeDb(databaseUrl, { poolSize: 1, transactionPooler: false });
    const authUser = { ...user, emailVerified: false, isAdmin: false, plan: "free" as const };
    const scoped = await scope(handle, authUser, { accountId }).finally(() => handle.close());
    const bare = (built: ReturnType<typeof summarySql>) => {
      const q = dialect.sqlToQuery(built);
      return () => client.query(q.sql, q.params as unknown[]);
    };
    const api = (path: string, extra = "") => async () => {
      const res = await request(`${server.url}${path}?accountId=${accountId}${extra}`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    };
    const bump = () => client.query("update stats_versions set version = version + 1 where user_id = $1", [user.id]);
    const account = async () => {
      const res = await request(`${server.url}/api/accounts/${accountId}`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`the account answered ${res.status}`);
    };
    const result = {
      // Computed, not kept: the rows' version raised before each (untimed).
      apiSummary: (await timeInterleaved(runs, { read: { prepare: bump, run: api("/api/stats/summary") } }, 1)).read,
      sqlSummary: await timeMany(runs, bare(summarySql(authUser, { accountId }, "USD"))),
      // The same figures computed from the journal itself (lib/stats/recompute.ts), with and without R.
      sqlSummaryJournal: await timeMany(runs, bare(summaryFromJournalSql(scoped))),
      sqlSummaryJournalWithoutR: await timeMany(runs, bare(summaryFromJournalSql(scoped, { r: false }))),
      apiCalendar: (await timeInterleaved(runs, { read: { prepare: bump, run: api("/api/stats/calendar") } }, 1)).read,
      sqlCalendar: await timeMany(runs, bare(calendarSql(authUser, { accountId }, "USD"))),
      sqlCalendarJournal: await timeMany(runs, bare(calendarSql(authUser, { accountId }, "USD", "journal", scoped))),
      // Issue 37's figures: what the dashboard asks for, against the cheapest signed-in read of the account,
      // taken in turns (101 rounds, random order each) so that all five see the same load and the ratios hold.
      // Each read twice: as the dashboard is read again (the figures kept by the rows' version,
      // lib/maintained/cache.ts) and computed (the version raised before, untimed, as any change raises it).
      ...(await timeInterleaved(ISSUE_37_ROUNDS, {
        apiIssueSummary: api("/api/stats/summary"),
        apiMonthCalendar: api("/api/stats/calendar", MONTH),
        apiEquity: api("/api/stats/equity"),
        apiBreakdown: api("/api/stats/breakdown", "&by=symbol"),
        apiAccount: account,
      })),
      // A version is the user's: raising it for one read drops what the others kept, so these take turns
      // among themselves.
      ...(await timeInterleaved(ISSUE_37_ROUNDS, {
        computedSummary: { prepare: bump, run: api("/api/stats/summary") },
        computedMonthCalendar: { prepare: bump, run: api("/api/stats/calendar", MONTH) },
        computedEquity: { prepare: bump, run: api("/api/stats/equity") },
        computedBreakdown: { prepare: bump, run: api("/api/stats/breakdown", "&by=symbol") },
        computedAccount: account,
      })),
      firstRead,
      settle,
      base: await measureBase(server.url, client, cookie, user.id, runs),
    };
    await client.query("delete from accounts where id = $1", [accountId]);
    return result;
  } finally {
    await client.end();
    await server.close();
  }
}

/**
 * Issue 55's figures: each dashboard read in the base currency, over STATS_TRADES trades in three accounts
 * (USD, EUR, GBP; base EUR), against the same read in one currency (`currency=USD` over the first user's
 * STATS_TRADES trades in USD): kept (read again) and computed (the version raised before each). The reference
 * rates are seeded as the instance holds them after its first fetch (every weekday's, every date recorded),
 * since a benchmark reaches no rate service.
 */
async function measureBase(baseUrl: string, client: pg.Client, cookieA: string, userA: string, runs: number) {
  const { cookie, user } = await registerBenchUser(baseUrl, "stats-base-bench");
  const accounts: string[] = [];
  for (const currency of ["USD", "EUR", "GBP"]) {
    const { rows } = await client.query<{ id: string }>(`select id from account_create($1, $2, $3, 0, 'America/New_York', null, null)`, [user.id, `Base ${currency}`, currency]);
    accounts.push(rows[0]!.id);
    await seedClosedTrades(client, rows[0]!.id, Math.ceil(STATS_TRADES / 3));
  }
  await client.query(`with d as (select day::date from generate_series('2021-12-01'::date, '2026-12-31'::date, interval '1 day') day),
    r as (
      insert into fx_rates (day, currency, per_eur)
      select day, c.currency, c.base + extract(doy from day) / 10000 from d cross join (values ('EUR', 1), ('USD', 1.08), ('GBP', 0.85)) c(currency, base)
      where extract(isodow from day) < 6 on conflict do nothing returning 1
    )
    insert into fx_rate_days (day, has_rates) select day, extract(isodow from day) < 6 from d on conflict do nothing`);
  await client.query(`insert into fx_daily (currency, day, per_eur, rate_day)
    select r.currency, d.day, r.per_eur, r.day from fx_rate_days d
    cross join lateral (select distinct on (x.currency) x.currency, x.per_eur, x.day from fx_rates x where x.day <= d.day and x.day >= d.day - 7 order by x.currency, x.day desc) r
    on conflict do nothing`);
  await client.query("analyze fx_daily");
  await client.query("insert into user_settings (user_id, base_currency) values ($1, 'EUR') on conflict (user_id) do update set base_currency = 'EUR'", [user.id]);
  const get = (who: string, path: string) => async () => {
    const res = await request(`${baseUrl}${path}`, { headers: { Cookie: who } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  };
  const bumpOf = (id: string) => () => client.query("update stats_versions set version = version + 1 where user_id = $1", [id]);
  const reads = { summary: "/api/stats/summary?", monthCalendar: `/api/stats/calendar?${MONTH.slice(1)}&`, equity: "/api/stats/equity?", breakdown: "/api/stats/breakdown?by=symbol&" };
  // The first read after the base is set sums the days, and builds the months after its answer.
  const firstStarted = performance.now();
  await get(cookie, "/api/stats/summary?currency=base")();
  const firstRead = performance.now() - firstStarted;
  // The months built after it (a few seconds): the reads below are those of a trader who looks again later.
  const builtStarted = performance.now();
  for (let i = 0; i < 600; i++) {
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from stats_base_months where user_id = $1", [user.id]);
    if (rows[0]!.n > 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const monthsBuilt = performance.now() - builtStarted + firstRead;
  const out: Record<string, { kept: [number, number]; computed: [number, number] }> = {};
  for (const [name, path] of Object.entries(reads)) {
    const kept = await timeInterleaved(runs * 3, { base: get(cookie, `${path}currency=base`), one: get(cookieA, `${path}currency=USD`) }, 3);
    const computed = await timeInterleaved(runs * 3, {
      base: { prepare: bumpOf(user.id), run: get(cookie, `${path}currency=base`) },
      one: { prepare: bumpOf(userA), run: get(cookieA, `${path}currency=USD`) },
    }, 3);
    out[name] = { kept: [kept.base, kept.one], computed: [computed.base, computed.one] };
  }
  for (const id of accounts) await client.query("delete from accounts where id = $1", [id]);
  return { reads: out, firstRead, monthsBuilt };
}

/**
 * `trades` closed trades in one account over ~4 years (P&L between -250 and +250 with fees) written straight
 * to positions, with their two fill shares, a default risk and one journal with a stop in ten: what every
 * statistic reads (also the edge bench's, scripts/bench/edge.ts).
 */
export async function seedClosedTrades(client: pg.Client, accountId: string, trades: number, options: { settle?: boolean } = {}) {
  // Closed trades over ~4 years, P&L between -250 and +250 with fees, written straight to positions.
  await client.query(
    `insert into positions (account_id, open_fill_id, symbol, asset_class, multiplier, direction, opened_at, closed_at,
       open_quantity, max_quantity, entry_quantity, entry_value, exit_quantity, exit_value, fees, gross_pnl, net_pnl)
     select $1, gen_random_uuid(), 'SYM' || (g % 50), 'stock', 1, 'long',
       timestamptz '2022-01-03 14:30Z' + g * interval '20 minutes',
       timestamptz '2022-01-03 14:35Z' + g * interval '20 minutes',
       0, 100, 100, 10000, 100, 10000 + ((g * 7919) % 50000 - 25000) / 100.0, 1.5,
       ((g * 7919) % 50000 - 25000) / 100.0, ((g * 7919) % 50000 - 25000) / 100.0 - 1.5
     from generate_series(1, $2::int) g`,
    [accountId, trades],
  );
  // Each trade's two fill shares (what the statistics read): the opening one pays half the fees, the closing
  // one realises the gross P&L and pays the rest.
  await client.query(
    `insert into position_fills (position_id, account_id, fill_id, quantity, fees, role, executed_at, realized)
     select id, account_id, open_fill_id, 100, 0.75, 'open', opened_at, 0 from positions where account_id = $1
     union all
     select id, account_id, gen_random_uuid(), 100, 0.75, 'close', closed_at, gross_pnl from positions where account_id = $1`,
    [accountId],
  );
  // R: the account's default risk gives every trade a 1R, and one trade in ten has a stop of its own (a journal).
  await client.query("update accounts set default_risk = 100 where id = $1", [accountId]);
  await client.query(
    `insert into trade_journals (account_id, position_id, last_position_id, symbol, direction, opened_at, closed_at, net_pnl, fill_count, stop_price, entry_price)
     select account_id, id, id, symbol, direction, opened_at, closed_at, net_pnl, 2, 99, 100 from positions
     where account_id = $1 and (extract(epoch from opened_at)::bigint / 1200) % 10 = 0`,
    [accountId],
  );
  await client.query("analyze positions");
  await client.query("analyze position_fills");
  await client.query("analyze trade_journals");
  if (options.settle !== false) await settleRows(client, accountId);
}

/**
 * The maintained rows as a live instance holds them a minute after a history arrived: settled (by the settle
 * job, or by the first read when few days are noted; docs/trading.md) and vacuumed, as autovacuum does after
 * so many inserted rows (which lets the day totals be read from their index alone). Returns the settle's ms.
 */
export async function settleRows(client: pg.Client, accountId: string): Promise<number> {
  const started = performance.now();
  await client.query("select stats_settle(user_id) from accounts where id = $1", [accountId]);
  const ms = performance.now() - started;
  await client.query("vacuum analyze stats_groups");
  await client.query("vacuum analyze stats_drawdown_days");
  return ms;
}
