// Tax (issue 58; docs/tax.md) on the real Node entrypoint: a year of 100,000 trades (200,000 fills) across three
// accounts, 50 symbols, one trade in eight a loss bought back within 30 days in another account (a wash sale):
// - GET /api/tax/lots for the year (goal: under 2 s), beside GET /api/accounts/:id (the floor of a signed-in read);
// - GET /api/tax/8949.csv of it, streamed, first on the fresh server: its bytes, and the server's peak RSS growth
//   while it answers (goal: under 150 MB).
import pg from "pg";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { registerBenchUser } from "./http.ts";
import { memoryOf } from "./imports.ts";
import { writeClearRefs } from "./sync.ts";

export const TAX_TRADES = 100_000;
const ROUNDS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureTax(env: Record<string, string>, databaseUrl: string) {
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { cookie, user } = await registerBenchUser(server.url, "tax-bench");
    const accounts: string[] = [];
    for (const name of ["Tax A", "Tax B", "Tax C"]) {
      const { rows } = await client.query<{ id: string }>("select id from account_create($1, $2, 'USD', 0, 'America/New_York', null, null)", [user.id, name]);
      accounts.push(rows[0]!.id);
    }
    // Trade g: bought in account g % 3 and sold 2 days later; prices walk so that one trade in eight loses.
    await client.query(
      `insert into fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at)
       select ($1::uuid[])[1 + g % 3], 'S' || (g % 50), 'stock', 1, s.side, 100,
         case when s.side = 'buy' then 100 else 100 + case when g % 8 = 0 then -3 else 2 end end, 1,
         timestamptz '2026-01-02 15:00Z' + (g * interval '300 seconds') + case when s.side = 'sell' then interval '2 days' else interval '0' end
       from generate_series(1, $2::int) g cross join (values ('buy'), ('sell')) s(side)`,
      [accounts, TAX_TRADES],
    );
    const time = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
      return { ms: performance.now() - t0, bytes: body.byteLength };
    };
    const timed = async (path: string) => {
      await time(path);
      const out: number[] = [];
      for (let i = 0; i < ROUNDS; i++) out.push((await time(path)).ms);
      return median(out);
    };
    // First the CSV on the fresh server, with its peak RSS (VmHWM, reset first) against its RSS before.
    const pid = server.child.pid!;
    await writeClearRefs(pid);
    const before = memoryOf(pid);
    const csv = await time("/api/tax/8949.csv?year=2026");
    const peakGrowth = memoryOf(pid).hwm - before.rss;
    const lotsMs = await timed("/api/tax/lots?year=2026");
    const accountMs = await timed(`/api/accounts/${accounts[0]}`);
    const lots = (await (await fetch(`${server.url}/api/tax/lots?year=2026`, { headers: { Cookie: cookie } })).json()) as { lots: Array<{ washSale: unknown }> };
    return { lotsMs, accountMs, csvMs: csv.ms, csvBytes: csv.bytes, rssBefore: before.rss, peakGrowth, rows: lots.lots.length, washed: lots.lots.filter((l) => l.washSale).length };
  } finally {
    await client.end();
    await server.stop();
  }
}
