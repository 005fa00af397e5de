// Ledger of 1,000,000 entries in one account: page 1 and page 10,000 (pageSize 50) through the API on
// the real Node server, and the same page query as bare SQL over a pg connection, in one run.
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { startNodeServer } from "../../functions/node.ts";
import type { Config } from "../../lib/config/index.ts";
import { ledgerPageSql } from "../../lib/ledger/ledger.ts";
import { createLogger } from "../../lib/log.ts";
import { registerBenchUser, request } from "./http.ts";
import { timeMany } from "./startup.ts";

export const LEDGER_ROWS = 1_000_000;

export async function measureLedger(config: Config, databaseUrl: string, runs = 21) {
  const server = await startNodeServer(config, { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
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
      `insert into ledger_entries (account_id, type, amount, occurred_at, rank, balance_after)
       select $1, 'deposit', 1.25, timestamptz '2020-01-01' + g * interval '1 minute', g, g * 1.25
       from generate_series(1, $2::int) g`,
      [accountId, LEDGER_ROWS],
    );
    await client.query("analyze ledger_entries");
    const seedMs = performance.now() - seeded;

    const dialect = new PgDialect();
    const api = (page: number) => async () => {
      const res = await request(`${server.url}/api/ledger/${accountId}?page=${page}&pageSize=50`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`ledger answered ${res.status}`);
    };
    const bare = (page: number) => {
      const q = dialect.sqlToQuery(ledgerPageSql(userId, accountId, { page, pageSize: 50 }));
      return () => client.query(q.sql, q.params as unknown[]);
    };
    const me = async () => {
      const res = await request(`${server.url}/api/auth/me`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`me answered ${res.status}`);
    };
    const publicConfig = () => request(`${server.url}/api/config/public`);
    const result = {
      httpFloor: await timeMany(runs, publicConfig),
      sessionOnly: await timeMany(runs, me),
      seedMs,
      apiFirst: await timeMany(runs, api(1)),
      apiDeep: await timeMany(runs, api(10_000)),
      sqlFirst: await timeMany(runs, bare(1)),
      sqlDeep: await timeMany(runs, bare(10_000)),
    };
    await client.query("delete from accounts where id = $1", [accountId]);
    return result;
  } finally {
    await client.end();
    await server.close();
  }
}
