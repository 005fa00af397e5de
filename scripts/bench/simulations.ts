// Simulations (issue 57; docs/simulations.md):
// - the Monte Carlo's 100,000 paths of 1,000 trades on Node, at the default block (the cube root of 500 sampled
//   trades: 8) and at block 1 (one draw a trade), beside a baseline in the same run: the same number of trades
//   summed from an array with no draws, no drawdown and no ruin (goal: under 1 s);
// - the same in workerd (`wrangler dev`, the runtime of the edge): a Worker bundling lib/simulations/monte-carlo.ts,
//   timed from outside (a Worker's clock stands still while it computes) against an empty request to it
//   (goal: within the Workers Standard plan's default 30,000 ms of CPU a request);
// - GET /api/stats/what-if over 100,000 closed trades on the Node entrypoint, leaving out revenge trades,
//   overtrading days and a weekday, beside GET /api/stats/summary of the same account (goal: under 1.5 s).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startWranglerDev } from "../../tests/support/wrangler.ts";
import { monteCarlo } from "../../lib/simulations/monte-carlo.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { registerBenchUser } from "./http.ts";
import { seedClosedTrades } from "./stats.ts";
import { ROOT } from "./worker-bundles.ts";

export const MC_PATHS = 100_000;
export const MC_TRADES = 1_000;
export const SAMPLED = 500;
export const WHAT_IF_TRADES = 100_000;
const ROUNDS = 5;

/** 500 R multiples with a small edge and streaks. */
export function sampleR(n = SAMPLED): number[] {
  return Array.from({ length: n }, (_, i) => (((i * 7919) % 97) / 97 < 0.42 ? 1.8 : -1) * (1 + (Math.floor(i / 10) % 3) * 0.1));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function params(blockSize: number) {
  return { r: sampleR(), paths: MC_PATHS, trades: MC_TRADES, riskPerTrade: 100, startingBalance: 20_000, blockSize, seed: 1, ruinAt: 10_000, targetAt: 30_000, maxRuin: 0.01 };
}

/** The baseline: as many trades summed from a typed array, nothing else. */
function baseline(): number {
  const r = Float64Array.from(sampleR());
  let total = 0;
  for (let p = 0; p < MC_PATHS; p++) {
    let sum = 0;
    for (let t = 0; t < MC_TRADES; t++) sum += r[(p + t) % SAMPLED]!;
    total += sum;
  }
  return total;
}

function time(fn: () => unknown, rounds = ROUNDS): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export function measureMonteCarloNode() {
  return {
    defaultBlockMs: time(() => monteCarlo(params(8))),
    blockOneMs: time(() => monteCarlo(params(1))),
    baselineMs: time(baseline),
  };
}

export async function measureMonteCarloWorkerd(path: string) {
  const dir = mkdtempSync(join(tmpdir(), "journal-mc-worker-"));
  writeFileSync(
    join(dir, "worker.ts"),
    `import { monteCarlo } from ${JSON.stringify(join(ROOT, "lib/simulations/monte-carlo.ts"))};
    const r = Array.from({ length: ${SAMPLED} }, (_, i) => (((i * 7919) % 97) / 97 < 0.42 ? 1.8 : -1) * (1 + (Math.floor(i / 10) % 3) * 0.1));
    export default {
      async fetch(request: Request) {
        const url = new URL(request.url);
        if (url.pathname === "/noop") return new Response("ok");
        const blockSize = Number(url.searchParams.get("block"));
        const result = monteCarlo({ r, paths: ${MC_PATHS}, trades: ${MC_TRADES}, riskPerTrade: 100, startingBalance: 20000, blockSize, seed: 1, ruinAt: 10000, targetAt: 30000, maxRuin: 0.01 });
        return Response.json({ p50: result.final.p50 });
      },
    };\n`,
  );
  writeFileSync(join(dir, "wrangler.toml"), `name = "mc-bench"\nmain = "worker.ts"\ncompatibility_date = "2025-01-01"\n`);
  const wrangler = await startWranglerDev({}, path, ["--config", join(dir, "wrangler.toml")]);
  try {
    const started = performance.now();
    for (;;) {
      const res = await fetch(`${wrangler.url}/noop`).catch(() => undefined);
      if (res?.status === 200) break;
      if (performance.now() - started > 90_000) throw new Error(`wrangler dev did not start:\n${wrangler.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const rtt = async (p: string) => {
      const t0 = performance.now();
      const res = await fetch(`${wrangler.url}${p}`);
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${body.slice(0, 300)}`);
      return performance.now() - t0;
    };
    const timed = async (p: string) => {
      await rtt(p);
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) times.push(await rtt(p));
      return median(times);
    };
    return { defaultBlockMs: await timed("/run?block=8"), blockOneMs: await timed("/run?block=1"), noopMs: await timed("/noop") };
  } finally {
    wrangler.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureWhatIf(env: Record<string, string>, databaseUrl: string) {
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { cookie, user } = await registerBenchUser(server.url, "what-if-bench");
    const { rows } = await client.query<{ id: string }>("select id from account_create($1, 'What-if bench', 'USD', 0, 'America/New_York', null, null)", [user.id]);
    const accountId = rows[0]!.id;
    await seedClosedTrades(client, accountId, WHAT_IF_TRADES);
    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 300)}`);
      return performance.now() - t0;
    };
    const timed = async (path: string) => {
      await get(path);
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) times.push(await get(path));
      return median(times);
    };
    const q = `accountId=${accountId}`;
    return {
      whatIfMs: await timed(`/api/stats/what-if?${q}&exclude=revenge,overtrading,weekday:5`),
      plainMs: await timed(`/api/stats/what-if?${q}`),
      summaryMs: await timed(`/api/stats/summary?${q}`),
    };
  } finally {
    await client.end();
    await server.stop();
  }
}
