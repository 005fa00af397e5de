// The maintained statistics (issue 37; docs/trading.md, "Statistics at any depth") against the journal itself.
// Property test: random histories over two accounts of one trader (fills added, edited and deleted across
// day boundaries in each account's zone, imports and undos, backdated fills, splits, journals' tags, setups
// and plans, an account's default risk and time zone changed), through the same SQL functions the API calls,
// on the real Postgres. After every step, every maintained row equals stats_rows over its day (and each month
// the sum of its days, each user day stats_drawdown_rows), and every figure (summary, calendar, equity by day,
// week and month, every breakdown) read from the maintained rows equals the same figure computed from the
// journal (lib/stats/recompute.ts), for one account and for both, over ranges with whole days, partial days
// at either edge, inside one day, and open-ended.
// Concurrency: 20 imports, fill deletions and plan edits at once in one account, with reads settling the
// notes meanwhile, leave the rows equal to the journal.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import type { AuthUser } from "../../lib/auth/session.ts";
import type { Db } from "../../lib/db/client.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { JOBS, settleStatisticsJob } from "../../lib/jobs/index.ts";
import { SETTLE_READ_MAX_NOTES, settlePending } from "../../lib/maintained/settle.ts";
import { walkBack } from "../../lib/fx/rates.ts";
import { breakdown, calendar, equityCurve, summary, type BreakdownBy, type StatsQuery, type StatsSource } from "../../lib/stats/stats.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { applyStagedImport } from "../support/staged-import.ts";

const url = () => inject("databaseUrl");

const fillArb = fc.record({
  symbol: fc.constantFrom("AAA", "BBB", "CCC"),
  buy: fc.boolean(),
  qty: fc.integer({ min: 1, max: 3 }),
  price: fc.constantFrom("10.00", "10.50", "11.00", "9.25"),
  fees: fc.constantFrom("0", "0", "0.35"),
  // Minutes over four days, around midnight in New York and in Tokyo.
  minute: fc.integer({ min: 0, max: 4 * 24 * 60 - 1 }),
  account: fc.constantFrom(0, 0, 1),
});
type RandomFill = typeof fillArb extends fc.Arbitrary<infer T> ? T : never;

const opArb = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("add" as const), fill: fillArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), field: fc.constantFrom("price", "qty", "minute", "side", "fees"), to: fillArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("import" as const), rows: fc.array(fillArb, { minLength: 1, maxLength: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("undo" as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("journal" as const),
      pick: fc.nat(),
      tags: fc.subarray(["fomo", "a+", "news"]),
      setup: fc.constantFrom(null, "breakout", "pullback"),
      plannedRisk: fc.constantFrom(null, "7.5", "20"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("split" as const), symbol: fc.constantFrom("AAA", "BBB"), minute: fc.integer({ min: 0, max: 4 * 24 * 60 - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("risk" as const), account: fc.constantFrom(0, 1), to: fc.constantFrom(null, "10", "25") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("zone" as const), account: fc.constantFrom(0, 1), to: fc.constantFrom("America/New_York", "Asia/Tokyo", "Etc/UTC") }) },
);

const START = Date.UTC(2026, 2, 6, 0, 0, 0); // Friday 2026-03-06 00:00 UTC; New York's DST starts on the 8th
const at = (minute: number, second = 0) => new Date(START + minute * 60_000 + second * 1000).toISOString();
let exec = 0;
/** A Postgres array literal (drizzle would expand a JS array into a row). */
const pgArray = (xs: string[]) => `{${xs.join(",")}}`;

/** Every maintained row of the accounts against stats_rows over its day, months against their days, user days against stats_drawdown_rows. */
async function checkRows(db: Db, accounts: string[], userId: string, after: string) {
  // What a read does first: the days the writes noted, refreshed.
  await db.execute(sql`select stats_settle(${userId}::uuid)`);
  const diff = rowsOf(
    await db.execute(sql`
      with d as (
        select distinct g.account_id, g.day, a.timezone from stats_groups g join accounts a on a.id = g.account_id
        where g.grain = 'day' and g.account_id = any(${pgArray(accounts)}::uuid[])
        union
        select pf.account_id, (pf.executed_at at time zone a.timezone)::date, a.timezone from position_fills pf join accounts a on a.id = pf.account_id
        where pf.account_id = any(${pgArray(accounts)}::uuid[])
        union
        select p.account_id, (p.closed_at at time zone a.timezone)::date, a.timezone from positions p join accounts a on a.id = p.account_id
        where p.account_id = any(${pgArray(accounts)}::uuid[]) and p.closed_at is not null
      ),
      expected as (
        select e.* from (select array_agg(account_id) as a, array_agg(day::timestamp at time zone timezone) as l,
          array_agg((day + 1)::timestamp at time zone timezone) as h from d) x
        cross join lateral stats_rows(x.a, x.l, x.h, array['', 'symbol', 'direction', 'weekday', 'hour', 'setup', 'tag']) e
      ),
      actual as (
        select account_id, day, dim, key, one_r, net, gross, fees, moved, trades, wins, losses, trades_net, wins_net, losses_net,
          largest, smallest, day_trades, day_r, day_with_risk, dd_high, dd_low, dd_drop
        from stats_groups where grain = 'day' and account_id = any(${pgArray(accounts)}::uuid[])
      )
      (select 'missing' as what, * from (select * from expected except all select * from actual) m)
      union all
      (select 'extra', * from (select * from actual except all select * from expected) x)`),
  );
  expect(diff, `day rows after ${after}`).toEqual([]);
  const months = rowsOf(
    await db.execute(sql`
      with expected as (
        select account_id, date_trunc('month', day)::date as day, dim, key, one_r, sum(net) as net, sum(gross) as gross, sum(fees) as fees,
          sum(moved) as moved, sum(trades) as trades, sum(wins) as wins, sum(losses) as losses, sum(trades_net) as trades_net,
          sum(wins_net) as wins_net, sum(losses_net) as losses_net, max(largest) as largest, min(smallest) as smallest
        from stats_groups where grain = 'day' and account_id = any(${pgArray(accounts)}::uuid[]) group by 1, 2, 3, 4, 5
      ),
      actual as (
        select account_id, day, dim, key, one_r, net, gross, fees, moved::numeric, trades::numeric, wins::numeric, losses::numeric,
          trades_net, wins_net, losses_net, largest, smallest
        from stats_groups where grain = 'month' and account_id = any(${pgArray(accounts)}::uuid[])
      )
      (select * from expected except all select * from actual) union all (select * from actual except all select * from expected)`),
  );
  expect(months, `month rows after ${after}`).toEqual([]);
  const userDays = rowsOf(
    await db.execute(sql`
      with expected as (
        select * from stats_drawdown_rows(array[${userId}::uuid, ${userId}::uuid], array['USD', 'EUR'], array['-infinity'::timestamptz, '-infinity'::timestamptz], array['infinity'::timestamptz, 'infinity'::timestamptz])
      ),
      actual as (select user_id, currency, day, net, high, low, drop from stats_drawdown_days where user_id = ${userId}::uuid)
      (select * from expected except all select * from actual) union all (select * from actual except all select * from expected)`),
  );
  expect(userDays, `user days after ${after}`).toEqual([]);
}

const RANGES: Array<Pick<StatsQuery, "from" | "to">> = [
  {},
  { from: "2026-03-07T00:00:00.000Z" },
  { to: "2026-03-08T17:30:00.000Z" },
  // Whole days in New York (EST, then EDT from the 8th).
  { from: "2026-03-07T05:00:00.000Z", to: "2026-03-09T04:00:00.000Z" },
  // Partial days at both edges, and inside one day.
  { from: "2026-03-06T13:15:00.000Z", to: "2026-03-08T22:45:00.000Z" },
  { from: "2026-03-07T10:00:00.000Z", to: "2026-03-07T20:00:00.000Z" },
  // Across a month's end.
  { from: "2026-02-20T00:00:00.000Z", to: "2026-04-02T00:00:00.000Z" },
];
const DIMS: BreakdownBy[] = ["symbol", "direction", "tag", "setup", "weekday", "hour"];

/**
 * Every figure read from the maintained rows equals the same figure computed from the journal: per account, over
 * the accounts of one currency (or all, when they share one), and in the user's base currency when `base`.
 */
async function checkFigures(t: TestApp, user: AuthUser, accounts: string[], after: string, base = false) {
  const deps = t.deps;
  const both = async <T,>(read: (source: StatsSource) => Promise<T>, what: string) => {
    const [maintained, journal] = [await read("maintained"), await read("journal")];
    expect(maintained, `${what} after ${after}`).toEqual(journal);
  };
  if (base) {
    // A first read in the base builds its months (lib/fx/base-months.ts, after the answer): the reads below use them.
    await summary(deps, user, { currency: "base" });
    await t.settled();
  }
  for (const scopeQuery of [{ accountId: accounts[0] }, { accountId: accounts[1] }, base ? { currency: "USD" } : {}, ...(base ? [{ currency: "base" }] : [])] as StatsQuery[]) {
    for (const range of RANGES) {
      const q = { ...scopeQuery, ...range };
      const label = JSON.stringify(q);
      await both((s) => summary(deps, user, q, s), `summary ${label}`);
      await both((s) => calendar(deps, user, q, s), `calendar ${label}`);
      for (const bucket of ["day", "week", "month"] as const) await both((s) => equityCurve(deps, user, { ...q, bucket }, s), `equity ${bucket} ${label}`);
      // Every breakdown over the open range and one with partial days; the symbol's over every range.
      const dims = range.from === undefined || range === RANGES[4] ? DIMS : (["symbol"] as BreakdownBy[]);
      for (const by of dims) await both((s) => breakdown(deps, user, { ...q, by }, s), `breakdown ${by} ${label}`);
    }
  }
}

/**
 * Reference rates for February to April 2026 (fx_rates, per 1 EUR), as the rate service would have given them:
 * a weekday's USD 1.08 + its day of the month / 1000, none on weekends nor on Monday 2026-03-09 (a holiday:
 * the figures walk back to Friday's), every date recorded as asked, so no read asks the service.
 */
async function seedRates(db: Db) {
  await db.execute(sql`with d as (select day::date from generate_series('2026-02-01'::date, '2026-04-30'::date, interval '1 day') day),
    r as (
      insert into fx_rates (day, currency, per_eur)
      select day, c.currency, case c.currency when 'EUR' then 1 else 1.08 + extract(day from day) / 1000 end from d cross join (values ('EUR'), ('USD')) c(currency)
      where extract(isodow from day) < 6 and day <> '2026-03-09'
      on conflict do nothing returning 1
    )
    insert into fx_rate_days (day, has_rates) select day, extract(isodow from day) < 6 and day <> '2026-03-09' from d on conflict do nothing`);
  await walkBack({ db }, "2026-02-01", "2026-04-30");
}

async function authUser(db: Db, userId: string): Promise<AuthUser> {
  const [u] = rowsOf<{ email: string }>(await db.execute(sql`select email from users where id = ${userId}::uuid`));
  return { id: userId, email: u!.email, emailVerified: false, isAdmin: false, plan: "free" } as AuthUser;
}

describe("maintained statistics under random histories (property-based, real Postgres)", () => {
  it("every maintained row and every figure read from them equals the journal's, after every step", async () => {
    const t = await testApp(url());
    const db: Db = t.deps.db;
    await seedRates(db);

    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        // A trader of their own per run (straight into the table: the sign-up route is rate limited).
        const [created] = rowsOf<{ id: string }>(
          await db.execute(sql`insert into users (email, password_hash) values (${`stats-${crypto.randomUUID()}@example.test`}, 'x') returning id::text`),
        );
        const userId = created!.id;
        const user = await authUser(db, userId);
        const accounts: string[] = [];
        // Two currencies and a base (docs/currencies.md): the Tokyo account in EUR, the figures also in USD.
        for (const [zone, currency] of [["America/New_York", "USD"], ["Asia/Tokyo", "EUR"]]) {
          const [a] = rowsOf<{ id: string }>(
            await db.execute(sql`select id::text from account_create(${userId}, ${`Prop ${crypto.randomUUID()}`}, ${currency}, 100000, ${zone}, null, null)`),
          );
          accounts.push(a!.id);
        }
        await db.execute(sql`insert into user_settings (user_id, base_currency) values (${userId}::uuid, 'USD')`);
        const imports: Array<{ id: string; account: string; undone: boolean }> = [];
        const fillIds = async () =>
          rowsOf<{ id: string }>(await db.execute(sql`select id::text from fills where account_id = any(${pgArray(accounts)}::uuid[]) order by executed_at, id`)).map((r) => r.id);
        const tradeIds = async () =>
          rowsOf<{ id: string }>(await db.execute(sql`select id::text from positions where account_id = any(${pgArray(accounts)}::uuid[]) order by opened_at, id`)).map((r) => r.id);

        for (const op of ops) {
          switch (op.kind) {
            case "add": {
              const f = op.fill;
              await db.execute(sql`select fill_add(${userId}, ${accounts[f.account]!}, ${f.symbol}, 'stock', 1, ${f.buy ? "buy" : "sell"}, ${String(f.qty)}::numeric,
                ${f.price}::numeric, ${f.fees}::numeric, ${at(f.minute)}::timestamptz, null, null)`);
              break;
            }
            case "edit": {
              const ids = await fillIds();
              if (!ids.length) break;
              const v = op.to;
              await db.execute(sql`select fill_update(${userId}, ${ids[op.pick % ids.length]!}::uuid, null, null, null,
                ${op.field === "side" ? (v.buy ? "buy" : "sell") : null}, ${op.field === "qty" ? String(v.qty) : null}::numeric,
                ${op.field === "price" ? v.price : null}::numeric, ${op.field === "fees" ? v.fees : null}::numeric,
                ${op.field === "minute" ? at(v.minute) : null}::timestamptz)`);
              break;
            }
            case "delete": {
              const ids = await fillIds();
              if (ids.length) await db.execute(sql`select fill_delete(${userId}, ${ids[op.pick % ids.length]!}::uuid)`);
              break;
            }
            case "import": {
              // One file per account: the rows of the first one's account.
              const account = accounts[op.rows[0]!.account]!;
              const staged = op.rows.map((f: RandomFill, i) => {
                exec += 1;
                return [f.symbol, "stock", "1", f.buy ? "buy" : "sell", String(f.qty), f.price, f.fees, at(f.minute, i), `S${exec}`, false];
              });
              imports.push({ id: await applyStagedImport(db, userId, account, staged), account, undone: false });
              break;
            }
            case "undo": {
              const live = imports.filter((i) => !i.undone);
              if (!live.length) break;
              const imp = live[op.pick % live.length]!;
              await db.execute(sql`select import_undo(${userId}::uuid, ${imp.id}::uuid)`);
              imp.undone = true;
              break;
            }
            case "journal": {
              const trades = await tradeIds();
              if (!trades.length) break;
              const patch = { tags: op.tags, setup: op.setup, plannedRisk: op.plannedRisk };
              await db.execute(sql`select trade_journal_write(${userId}::uuid, ${trades[op.pick % trades.length]!}::uuid, ${JSON.stringify(patch)}::jsonb)`);
              break;
            }
            case "split": {
              const [existing] = rowsOf<{ id: string }>(await db.execute(sql`select id::text from splits where user_id = ${userId}::uuid and symbol = ${op.symbol}`));
              if (existing) await db.execute(sql`select split_delete(${userId}::uuid, ${existing.id}::uuid)`);
              else await db.execute(sql`select split_add(${userId}::uuid, ${op.symbol}, ${at(op.minute)}::timestamptz, 2, 1)`);
              break;
            }
            case "risk":
              await db.execute(sql`update accounts set default_risk = ${op.to}::numeric where id = ${accounts[op.account]!}::uuid`);
              break;
            case "zone":
              await db.execute(sql`update accounts set timezone = ${op.to} where id = ${accounts[op.account]!}::uuid`);
              break;
          }
          await checkRows(db, accounts, userId, op.kind);
          await checkFigures(t, user, accounts, op.kind, true);
        }
      }),
      // A run is ~15 s of real work: a failure is reported as found, not shrunk for minutes.
      { numRuns: 5, endOnFailure: true },
    );
  }, 600_000);

  it("20 concurrent imports, fill deletions and plan edits in one account, read meanwhile, leave the maintained rows equal to the journal", async () => {
    const t = await testApp(url());
    const db: Db = t.deps.db;
    const { userId } = await signUp(t, "stats-concurrent");
    const user = await authUser(db, userId);
    const [a] = rowsOf<{ id: string }>(
      await db.execute(sql`select id::text from account_create(${userId}, 'Concurrent', 'USD', 100000, 'America/New_York', null, null)`),
    );
    const accountId = a!.id;
    // Something to delete: a day of fills in three symbols; and round trips in a fourth, whose plans are edited.
    for (let i = 0; i < 12; i++) {
      const symbol = ["AAA", "BBB", "CCC"][i % 3]!;
      await db.execute(sql`select fill_add(${userId}, ${accountId}, ${symbol}, 'stock', 1, ${i % 2 ? "sell" : "buy"}, 1, ${10 + i}::numeric, 0.5, ${at(60 * i)}::timestamptz, null, null)`);
    }
    for (let i = 0; i < 6; i++) {
      await db.execute(sql`select fill_add(${userId}, ${accountId}, 'EEE', 'stock', 1, 'buy', 1, 20, 0, ${at(60 * i + 10)}::timestamptz, null, null)`);
      await db.execute(sql`select fill_add(${userId}, ${accountId}, 'EEE', 'stock', 1, 'sell', 1, ${19 + i}::numeric, 0, ${at(60 * i + 20)}::timestamptz, null, null)`);
    }
    const fills = rowsOf<{ id: string }>(
      await db.execute(sql`select id::text from fills where account_id = ${accountId}::uuid and symbol <> 'EEE' order by executed_at`),
    ).map((r) => r.id);
    const planned = rowsOf<{ id: string }>(
      await db.execute(sql`select id::text from positions where account_id = ${accountId}::uuid and symbol = 'EEE' order by opened_at`),
    ).map((r) => r.id);
    let deleted = 0;
    let imported = 0;
    const work = Array.from({ length: 20 }, async (_, i) => {
      if (i % 3 === 1) {
        deleted += 1;
        await db.execute(sql`select fill_delete(${userId}, ${fills[(i - 1) / 3]!}::uuid)`);
        return;
      }
      if (i % 3 === 2) {
        const patch = { plannedRisk: String(5 + i), tags: [`t${i % 2}`], setup: i % 4 ? "breakout" : null };
        await db.execute(sql`select trade_journal_write(${userId}::uuid, ${planned[i % planned.length]!}::uuid, ${JSON.stringify(patch)}::jsonb)`);
        return;
      }
      const staged = Array.from({ length: 6 }, (_, k) => [
        ["AAA", "BBB", "CCC", "DDD"][(i + k) % 4]!, "stock", "1", k % 2 ? "sell" : "buy", "2", String(11 + k), "0.25", at(37 * i + 13 * k + 5, i), `C${i}-${k}`, false,
      ]);
      imported += staged.length;
      await applyStagedImport(db, userId, accountId, staged);
    });
    // Readers at the same time: each settles the notes committed so far while the writers go on.
    let writing = true;
    const writes = Promise.all(work).finally(() => {
      writing = false;
    });
    const reads = Array.from({ length: 4 }, async () => {
      while (writing) await summary(t.deps, user, { accountId });
    });
    await Promise.all([writes, ...reads]);
    await db.execute(sql`select stats_settle(${userId}::uuid)`);
    const [counts] = rowsOf<{ fills: number; days: number }>(
      await db.execute(sql`select (select count(*)::int from fills where account_id = ${accountId}::uuid) as fills,
        (select count(*)::int from stats_groups where account_id = ${accountId}::uuid and grain = 'day' and dim = '') as days`),
    );
    // Every deletion a distinct fill; every import's rows in.
    expect(counts!.fills).toBe(12 + 12 - deleted + imported);
    expect(counts!.days).toBeGreaterThan(0);
    const [second] = rowsOf<{ id: string }>(
      await db.execute(sql`select id::text from account_create(${userId}, 'Empty', 'USD', 0, 'Asia/Tokyo', null, null)`),
    );
    await checkRows(db, [accountId, second!.id], userId, "the concurrent writes");
    await checkFigures(t, user, [accountId, second!.id], "the concurrent writes");
  }, 120_000);

  it("two reads settling at once: the second waits for the first, and the rows end exact", async () => {
    const t = await testApp(url());
    const db: Db = t.deps.db;
    const { userId } = await signUp(t, "stats-settle");
    const accounts: string[] = [];
    for (const name of ["Settle A", "Settle B"]) {
      const [a] = rowsOf<{ id: string }>(
        await db.execute(sql`select id::text from account_create(${userId}, ${name}, 'USD', 100000, 'America/New_York', null, null)`),
      );
      accounts.push(a!.id);
    }
    const add = (account: string, minute: number, side: "buy" | "sell", price: number) =>
      db.execute(sql`select fill_add(${userId}, ${account}, 'AAA', 'stock', 1, ${side}, 1, ${price}::numeric, 0.1, ${at(minute)}::timestamptz, null, null)`);
    await add(accounts[0]!, 10, "buy", 10);
    await add(accounts[0]!, 20, "sell", 12); // the first account's day noted
    const first = new pg.Client({ connectionString: url() });
    const second = new pg.Client({ connectionString: url() });
    await Promise.all([first.connect(), second.connect()]);
    try {
      // The first read settles that day (and the user's UTC day over both accounts) and holds its transaction open.
      await first.query("begin");
      await first.query("select stats_settle($1::uuid)", [userId]);
      // Meanwhile a write in the other account notes the same day, and commits.
      await add(accounts[1]!, 30, "buy", 11);
      await add(accounts[1]!, 40, "sell", 9);
      // The second read settles it: it must wait for the first, then write the user's day after the first's.
      let secondDone = false;
      const secondRead = second.query("select stats_settle($1::uuid)", [userId]).finally(() => {
        secondDone = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondDone, "the second read waits for the first").toBe(false);
      await first.query("commit");
      await secondRead;
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    await checkRows(db, accounts, userId, "two settles");
    const [day] = rowsOf<{ net: string }>(
      await db.execute(sql`select net::text from stats_drawdown_days where user_id = ${userId}::uuid`),
    );
    // +2 - 0.2 in the first account, -2 - 0.2 in the second.
    expect(Number(day!.net)).toBe(-0.4);
  }, 60_000);

  it("the settle job refreshes what writes noted, so a read after it has nothing left to do", async () => {
    const t = await testApp(url());
    const db: Db = t.deps.db;
    const { userId } = await signUp(t, "stats-job");
    const [a] = rowsOf<{ id: string }>(
      await db.execute(sql`select id::text from account_create(${userId}, 'Job', 'USD', 100000, 'America/New_York', null, null)`),
    );
    await db.execute(sql`select fill_add(${userId}, ${a!.id}, 'AAA', 'stock', 1, 'buy', 1, 10, 0, ${at(10)}::timestamptz, null, null)`);
    await db.execute(sql`select fill_add(${userId}, ${a!.id}, 'AAA', 'stock', 1, 'sell', 1, 13, 0, ${at(20)}::timestamptz, null, null)`);
    const pending = async () =>
      Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from stats_pending where account_id = ${a!.id}::uuid`))[0]!.n);
    expect(await pending()).toBeGreaterThan(0);
    // The job's work, for this trader only (other tests' traders share the database); the job runs it for all.
    expect(await settlePending(t.deps, { only: [userId] })).toBe(1);
    expect(await pending()).toBe(0);
    expect(JOBS).toContain(settleStatisticsJob);
    expect(settleStatisticsJob.cron).toBe("* * * * *");
    const [day] = rowsOf<{ net: string; trades: number }>(
      await db.execute(sql`select net::text, trades from stats_groups where account_id = ${a!.id}::uuid and grain = 'day' and dim = '' and one_r is null`),
    );
    expect(day).toEqual({ net: "3.0000000000", trades: 1 });
  });

  it("a read with more notes than it settles answers from the journal and leaves them to the job; a few it settles", async () => {
    const t = await testApp(url());
    const db: Db = t.deps.db;
    const { userId, client } = await signUp(t, "stats-long");
    const [a] = rowsOf<{ id: string }>(
      await db.execute(sql`select id::text from account_create(${userId}, 'Long history', 'USD', 100000, 'America/New_York', null, null)`),
    );
    const accountId = a!.id;
    // An import of a long history: a round trip a day, over more days than a read settles.
    const days = SETTLE_READ_MAX_NOTES + 10;
    const staged = Array.from({ length: days }, (_, d) => [
      ["AAA", "stock", "1", "buy", "2", "10", "0.5", at(d * 24 * 60 + 15 * 60), `L${d}b`, false],
      ["AAA", "stock", "1", "sell", "2", String(9 + (d % 4)), "0.5", at(d * 24 * 60 + 16 * 60), `L${d}s`, false],
    ]).flat();
    await applyStagedImport(db, userId, accountId, staged);
    const pending = async () =>
      Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from stats_pending where account_id = ${accountId}::uuid`))[0]!.n);
    expect(await pending()).toBeGreaterThan(SETTLE_READ_MAX_NOTES);

    const user = await authUser(db, userId);
    const q = { accountId };
    const reads = async (source?: StatsSource) => [
      await summary(t.deps, user, q, source),
      await calendar(t.deps, user, q, source),
      await equityCurve(t.deps, user, { ...q, bucket: "week" }, source),
      await breakdown(t.deps, user, { ...q, by: "symbol" }, source),
    ];
    const fromJournal = await reads("journal");
    // Right figures with the rows not yet refreshed: they came from the journal, and the notes are still there.
    expect(await reads()).toEqual(fromJournal);
    expect(await pending()).toBeGreaterThan(SETTLE_READ_MAX_NOTES);
    const res = await client.get(`/api/stats/summary?accountId=${accountId}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(fromJournal[0])));
    expect(await pending()).toBeGreaterThan(SETTLE_READ_MAX_NOTES);

    // The job settles them; the rows then answer, the same.
    expect(await settlePending(t.deps, { only: [userId] })).toBe(1);
    expect(await pending()).toBe(0);
    expect(await reads()).toEqual(fromJournal);
    await checkRows(db, [accountId], userId, "the job's settle");

    // A few notes: the read settles them itself.
    await db.execute(sql`select fill_add(${userId}, ${accountId}, 'BBB', 'stock', 1, 'buy', 1, 10, 0, ${at(30)}::timestamptz, null, null)`);
    await db.execute(sql`select fill_add(${userId}, ${accountId}, 'BBB', 'stock', 1, 'sell', 1, 12, 0, ${at(40)}::timestamptz, null, null)`);
    expect(await pending()).toBeGreaterThan(0);
    const [withFew] = await reads();
    expect(await pending()).toBe(0);
    expect(withFew).toEqual((await reads("journal"))[0]);
  }, 60_000);
});
