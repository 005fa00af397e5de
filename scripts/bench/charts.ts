// The trade chart (docs/charts.md) on the real Node server, against a local stand-in for the bar provider
// (tests/support/bars-server.ts): a trade page's chart data over two days of cached 1-minute bars, through the
// API against the bare SQL reading the same bars, in one run; and the provider requests made to chart 1,000
// trades (50 symbols x 10 days, two trades per symbol and day), against the symbol-days they need.
import pg from "pg";
import { startNodeServer } from "../../functions/node-server.ts";
import type { Config } from "../../lib/config/index.ts";
import { drainBarQueue } from "../../lib/market/bar-queue.ts";
import { createLogger } from "../../lib/log.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { createRateLimiter } from "../../lib/ratelimit/index.ts";
import { startBarsServer } from "../../tests/support/bars-server.ts";
import { registerBenchUser, request } from "./http.ts";
import { timeInterleaved } from "./startup.ts";

export const CHART_TRADES = 1000;
const SYMBOLS = 50;
const DAYS = 10;

/** The weekdays from 2026-03-02 on, as YYYY-MM-DD. */
function weekdays(n: number): string[] {
  const out: string[] = [];
  for (let t = Date.parse("2026-03-02T12:00:00Z"); out.length < n; t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

export async function measureCharts(config: Config, databaseUrl: string, runs = 201) {
  const provider = await startBarsServer();
  const settings = { ...config, BARS_BASE_URL: provider.url, BARS_REQUESTS_PER_MINUTE: 100_000 } as Config;
  const server = await startNodeServer(settings, { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const handle = await createNodeDb(databaseUrl, { poolSize: 4, transactionPooler: false });
  const log = createLogger({ silent: true });
  const rateLimiter = createRateLimiter({ log });
  try {
    const { cookie, user } = await registerBenchUser(server.url, "charts-bench");
    const headers = { Cookie: cookie, "Content-Type": "application/json" };
    const saved = await request(`${server.url}/api/bars/key`, { method: "PUT", headers, body: JSON.stringify({ apiKey: "pk-bench-0123456789" }) });
    if (saved.status !== 200) throw new Error(`saving the key answered ${saved.status}`);
    const { rows } = await client.query<{ id: string }>("select id from account_create($1, 'Chart bench', 'USD', 0, 'America/New_York', null, null)", [user.id]);
    const accountId = rows[0]!.id;
    const fill = async (symbol: string, side: string, price: string, executedAt: string) => {
      const res = await request(`${server.url}/api/fills`, { method: "POST", headers, body: JSON.stringify({ accountId, symbol, side, quantity: "10", price, executedAt }) });
      if (res.status !== 201) throw new Error(`a fill answered ${res.status}`);
    };

    // One trade over two days (10:00 New York on the 2nd to 15:00 on the 3rd): its chart at 1 minute reads both days.
    await fill("AAPL", "buy", "100.30", "2026-03-02T15:00:00Z");
    await fill("AAPL", "sell", "100.50", "2026-03-03T20:00:00Z");
    const trades = await request(`${server.url}/api/trades?accountId=${accountId}&symbol=AAPL`, { headers });
    const tradeId = (JSON.parse(trades.body) as { trades: Array<{ id: string }> }).trades[0]!.id;
    const chartPath = `${server.url}/api/trades/${tradeId}/chart?resolution=1m&before=400&after=400`;
    const warm = await request(chartPath, { headers });
    const bars = (JSON.parse(warm.body) as { bars: unknown[] }).bars.length;
    const api = async () => {
      const res = await request(chartPath, { headers });
      if (res.status !== 200) throw new Error(`the chart answered ${res.status}`);
    };
    const from = (JSON.parse(warm.body) as { from: string; to: string }).from;
    const to = (JSON.parse(warm.body) as { from: string; to: string }).to;
    const sql = () =>
      client.query(
        `select t, open::text, high::text, low::text, close::text, volume::text from bars
         where user_id = $1 and symbol = 'AAPL' and resolution = '1m' and t >= $2 and t < $3 order by t`,
        [user.id, from, to],
      );
    // The fixed cost of any signed-in request (session, routing, a one-row query, the answer): GET /api/bars/key.
    const floor = async () => {
      const res = await request(`${server.url}/api/bars/key`, { headers });
      if (res.status !== 200) throw new Error(`the key answered ${res.status}`);
    };
    // Taken in turns, so the three see the same load on a shared machine and their ratios hold.
    const timed = await timeInterleaved(runs, { api, sql, floor });
    const chart = { bars, apiMs: timed.api, sqlMs: timed.sql, floorMs: timed.floor };

    // 1,000 trades: two per symbol and day, each charted once (8 at a time), then the queue drained.
    const days = weekdays(DAYS);
    const before = [...provider.requests.values()].reduce((a, b) => a + b, 0);
    const ids: string[] = [];
    for (let s = 0; s < SYMBOLS; s++) {
      const symbol = `B${String(s).padStart(2, "0")}`;
      for (const day of days) {
        for (const [open, close] of [["15:00", "15:30"], ["16:00", "16:30"]] as const) {
          await fill(symbol, "buy", "100", `${day}T${open}:00Z`);
          await fill(symbol, "sell", "101", `${day}T${close}:00Z`);
        }
      }
    }
    const { rows: all } = await client.query<{ id: string }>("select id::text from positions where account_id = $1 and symbol like 'B%'", [accountId]);
    ids.push(...all.map((r) => r.id));
    for (let i = 0; i < ids.length; i += 8) {
      await Promise.all(ids.slice(i, i + 8).map((id) => request(`${server.url}/api/trades/${id}/chart`, { headers })));
    }
    const deps = { db: handle.db, config: settings, fetch: globalThis.fetch, rateLimiter, log };
    for (let round = 0; round < 50 && (await client.query("select 1 from bar_days where status in ('queued', 'fetching') limit 1")).rows.length; round++) {
      await drainBarQueue(deps);
    }
    const requests = [...provider.requests.values()].reduce((a, b) => a + b, 0) - before;
    const { rows: needed } = await client.query<{ n: string }>("select count(*)::text as n from bar_days where user_id = $1 and symbol like 'B%'", [user.id]);
    await client.query("delete from accounts where id = $1", [accountId]);
    return { chart, trades: ids.length, requests, symbolDays: Number(needed[0]!.n) };
  } finally {
    await rateLimiter.close();
    await handle.close();
    await client.end();
    await server.close();
    await provider.close();
  }
}
