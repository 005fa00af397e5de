// The statistics and the ledger at the edge (issue 37): `wrangler dev` (workerd, wrangler's own bundle of
// every group) reaching Postgres over the serverless driver's HTTP transport through the local bridge
// (scripts/db-bridge.ts), at 100,000 closed trades and a 100,000-entry ledger in one account. Each route's
// first request after start (cold: the isolate compiles the code it needs) and the median of the next 11
// (warm), beside GET /api/accounts/:id as the floor of a signed-in read. Locally the bridge stands in for
// Neon's proxy, so the figures hold the driver's HTTP round trips and workerd, not the network to a region.
import pg from "pg";
import { startDbBridge } from "../db-bridge.ts";
import { startWranglerDev } from "../../tests/support/wrangler.ts";
import { registerBenchUser, request } from "./http.ts";
import { seedClosedTrades } from "./stats.ts";

export const EDGE_TRADES = 100_000;

export async function measureEdge(env: Record<string, string>, databaseUrl: string, runs = 11) {
  const bridge = await startDbBridge();
  const vars = { ...env, DATABASE_URL: databaseUrl, DB_HTTP_ENDPOINT: bridge.httpUrl };
  delete (vars as Record<string, string | undefined>).PATH;
  const wrangler = await startWranglerDev(vars, env.PATH ?? "");
  const base = wrangler.url;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    for (;;) {
      const res = await fetch(`${base}/api/health`).catch(() => undefined);
      if (res?.status === 200) break;
      if (performance.now() - started > 90_000) throw new Error(`wrangler dev did not start:\n${wrangler.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const { cookie, user } = await registerBenchUser(base, "edge-bench");
    const { rows } = await client.query<{ id: string }>("select id from account_create($1, 'Edge bench', 'USD', 0, 'America/New_York', null, null)", [user.id]);
    const accountId = rows[0]!.id;
    await seedClosedTrades(client, accountId, EDGE_TRADES);
    await client.query(
      `insert into ledger_entries (account_id, type, amount, occurred_at)
       select $1, 'adjustment', 1.25, timestamptz '2022-01-03 14:30Z' + g * interval '20 minutes' from generate_series(1, $2::int) g`,
      [accountId, EDGE_TRADES],
    );
    await client.query("analyze ledger_entries");
    const get = (path: string) => async () => {
      const res = await request(`${base}${path}`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.slice(0, 200)}`);
    };
    const q = `accountId=${accountId}`;
    const routes = {
      account: get(`/api/accounts/${accountId}`),
      summary: get(`/api/stats/summary?${q}`),
      monthCalendar: get(`/api/stats/calendar?${q}&from=2024-06-01T04:00:00Z&to=2024-07-01T04:00:00Z`),
      equity: get(`/api/stats/equity?${q}`),
      breakdown: get(`/api/stats/breakdown?${q}&by=symbol`),
      ledgerPage: get(`/api/ledger/${accountId}?page=1&pageSize=50`),
      ledgerDeep: get(`/api/ledger/${accountId}?page=1000&pageSize=50`),
    };
    const result = {} as Record<keyof typeof routes, { cold: number; warm: number }>;
    for (const [name, fn] of Object.entries(routes) as Array<[keyof typeof routes, () => Promise<void>]>) {
      const t0 = performance.now();
      await fn();
      const cold = performance.now() - t0;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await fn();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      result[name] = { cold, warm: times[Math.floor(times.length / 2)]! };
    }
    await client.query("delete from accounts where id = $1", [accountId]);
    return result;
  } finally {
    await client.end();
    wrangler.stop();
    await bridge.close();
  }
}
