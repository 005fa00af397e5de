// Ledger of 1,000,000 entries in one account: page 1 and page 10,000 (pageSize 50) through the API on
// the real Node server, and the same page query as bare SQL over a warm pg connection, in one run. The bare
// query runs as the API runs its statement: prepared under a name (planned once per connection). Every
// figure is taken in turns with the others, so they all see the same load.
//
// Twice: right after start, while V8 is still compiling the request path (a server answers ~4,000 requests
// before its latency settles, docs/trading.md), and again once it has settled, which is what a running
// server answers and what the goal is judged on.
import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { ledgerPageSql } from "../../lib/ledger/ledger.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { registerBenchUser, request } from "./http.ts";
import { timeInterleaved } from "./startup.ts";

export const LEDGER_ROWS = 1_000_000;
/** Untimed rounds between the two passes: each figure's request path runs this many times more. */
export const LEDGER_WARMUP_ROUNDS = 3_000;

export async function measureLedger(env: Record<string, string>, databaseUrl: string, runs = 301) {
  // The real entrypoint in its own process, as deployed: the bench client does not share its event loop.
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl });
  // The floor of any HTTP round trip with this client: node:http answering a small JSON body, no framework.
  const bare = http.createServer((_req, res) => {
    res.setHeader("Content-Type", "application/json");
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { cookie, user } = await registerBenchUser(server.url, "ledger-bench");
    const userId = user.id;
    const { rows } = await client.query<{ id: string }>(
      "select id from account_create($1, 'Bench', 'USD', 0, 'America/New_York', null, null)",
      [userId],
    );
    const accountId = rows[0]!.id;
    const seeded = performance.now();
    await client.query(
      `insert into ledger_entries (account_id, type, amount, occurred_at)
       select $1, 'deposit', 1.25, timestamptz '2020-01-01' + g * interval '1 minute'
       from generate_series(1, $2::int) g`,
      [accountId, LEDGER_ROWS],
    );
    // Vacuumed as well as analyzed: a steady-state table, and no autovacuum of the fresh million rows
    // competing with the figures.
    await client.query("vacuum (analyze) ledger_entries");
    const seedMs = performance.now() - seeded;

    const dialect = new PgDialect();
    const get = (url: string, headers: Record<string, string> = {}) => async () => {
      const res = await request(url, { headers });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    };
    const api = (page: number) => get(`${server.url}/api/ledger/${accountId}?page=${page}&pageSize=50`, { Cookie: cookie });
    const sql = (page: number, name?: string) => {
      const q = dialect.sqlToQuery(ledgerPageSql(userId, accountId, { page, pageSize: 50 }));
      return () => client.query({ ...(name ? { name } : {}), text: q.sql, values: q.params as unknown[] });
    };
    // The same statement behind a bare node:http server in its own process (scripts/bench/ledger-floor.ts).
    const floor = fork(new URL("./ledger-floor.ts", import.meta.url), {
      env: { ...env, DATABASE_URL: databaseUrl, USER_ID: userId, ACCOUNT_ID: accountId },
    });
    const timed = await (async () => {
      try {
        const { port } = await new Promise<{ port: number }>((resolve, reject) => {
          floor.once("message", (m) => resolve(m as { port: number }));
          floor.once("exit", (code) => reject(new Error(`the floor server exited with ${code}`)));
        });
        const floorPage = (page: number) => get(`http://127.0.0.1:${port}/?page=${page}`);
        const figures = {
          bareHttp: get(bareUrl),
          httpFloor: get(`${server.url}/api/config/public`),
          sessionOnly: get(`${server.url}/api/auth/me`, { Cookie: cookie }),
          apiFirst: api(1),
          apiDeep: api(10_000),
          sqlFirst: sql(1, "ledger_page_bare"),
          sqlDeep: sql(10_000, "ledger_page_bare"),
          sqlFirstUnprepared: sql(1),
          floorFirst: floorPage(1),
          floorDeep: floorPage(10_000),
        };
        const started = await timeInterleaved(runs, figures, 0);
        const settled = await timeInterleaved(runs, figures, LEDGER_WARMUP_ROUNDS);
        return { started, settled };
      } finally {
        floor.kill();
      }
    })();
    await client.query("delete from accounts where id = $1", [accountId]);
    return { seedMs, ...timed };
  } finally {
    await client.end();
    bare.close();
    await server.stop();
  }
}

/** Entries of the backdating bench: a day trader's few years (133 entries a trading day for 752 days). */
export const BACKDATED_ROWS = 100_016;
const PER_DAY = 133;

/**
 * A backdated entry against an appended one (issue 37), through the API on the real Node server, at
 * BACKDATED_ROWS entries in one account: POST an entry dated now (appended) and one dated in the ledger's
 * first weeks (about 99% of the ledger after it), interleaved, and page 1 read after each. Before the ledger
 * kept its ranks per day, the backdated one rewrote every later entry (about 2 s at 100,000 entries).
 */
export async function measureBackdated(env: Record<string, string>, databaseUrl: string, runs = 201) {
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { cookie, user } = await registerBenchUser(server.url, "backdated-bench");
    const { rows } = await client.query<{ id: string }>("select id from account_create($1, 'Bench', 'USD', 1000, 'America/New_York', null, null, '2022-12-30T00:00:00Z')", [user.id]);
    const accountId = rows[0]!.id;
    const seeded = performance.now();
    // Trading days (weekdays) from 2023-01-02, 133 entries each from 14:30 UTC, a minute apart.
    await client.query(
      `insert into ledger_entries (account_id, type, amount, occurred_at)
       select $1, 'adjustment', case when g % 2 = 0 then 1.25 else -1 end,
         d.day + interval '14 hours 30 minutes' + (g % ${PER_DAY}) * interval '1 minute'
       from generate_series(0, $2::int - 1) g
       join lateral (select (select array_agg(x) from generate_series(date '2023-01-02', date '2027-01-01', interval '1 day') x
         where extract(isodow from x) < 6)[(g / ${PER_DAY}) + 1] as day) d on true`,
      [accountId, BACKDATED_ROWS],
    );
    await client.query("vacuum (analyze) ledger_entries");
    await client.query("vacuum (analyze) ledger_days");
    const seedMs = performance.now() - seeded;
    const [{ n }] = (await client.query<{ n: string }>("select count(*)::text as n from ledger_entries where account_id = $1", [accountId])).rows as [{ n: string }];
    let k = 0;
    const post = (occurredAt: () => string) => async () => {
      const res = await request(`${server.url}/api/ledger/${accountId}/entries`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify({ type: "adjustment", amount: "0.01", occurredAt: occurredAt() }),
      });
      if (res.status !== 201) throw new Error(`POST answered ${res.status}`);
    };
    const figures = {
      append: post(() => new Date(Date.UTC(2027, 0, 4, 15, 0, 0, k++)).toISOString()),
      // A day in the ledger's first two months, at a time between two of its entries.
      backdated: post(() => new Date(Date.UTC(2023, 0, 3 + (k++ % 50), 15, 0, 30)).toISOString()),
      page: async () => {
        const res = await request(`${server.url}/api/ledger/${accountId}?page=1&pageSize=50`, { headers: { Cookie: cookie } });
        if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
      },
    };
    const timed = await timeInterleaved(runs, figures, 30);
    // Exact after it all: the balance is the sum of the entries.
    const [check] = (await client.query<{ ok: boolean }>(
      `select (select sum(amount) from ledger_entries where account_id = $1) = (select sum(total) from ledger_days where account_id = $1) as ok`,
      [accountId],
    )).rows;
    await client.query("delete from accounts where id = $1", [accountId]);
    return { entries: Number(n), seedMs, exact: check!.ok, ...timed };
  } finally {
    await client.end();
    await server.stop();
  }
}
