// Held under load (issue 61; docs/operations.md "Under load"): the Node entrypoint on a Postgres cluster of
// the benchmark's own, driven by simulated traders (tests/support/load.ts: sign-in, dashboard, trades, a trade's
// page, the ledger, notes and tags, deposits, fills pushed with a token, a small import and its undo, with 1 to
// 3 s of think time between steps):
// - 100, 300, 600 and 1,000 traders: throughput, p50/p95/p99 per route group, statuses, the pool's connections
//   (and requests waiting for one), the process's memory and the machine's CPU, second by second;
// - the same at 300 traders through pgbouncer in transaction mode;
// - faults under 100 traders: Postgres restarted (stopped fast, down 2 s), and through the pooler, the pooler
//   killed and started again: every answer during the gap, the time back, and every write checked against
//   each trader's log;
// - overload: 1,000 traders with no think time beyond 100-300 ms, the instance shedding (MAX_CONCURRENT_REQUESTS,
//   MAX_QUEUED_REQUESTS): how many are answered busy, and the p99 of the rest.
// `npm run bench -- soak` holds 300 traders for 30 minutes: memory after warm-up, connections, errors.
import { readFileSync } from "node:fs";
import pg from "pg";
import { migrateUrl } from "../../lib/db/migrate.ts";
import { freePort, startEntrypoint, type Entrypoint } from "../../tests/support/entrypoint.ts";
import { checkWrites, percentile, runLoad, setUpTraders, summarize, type LoadOptions, type Sample, type Trader } from "../../tests/support/load.ts";
import { startPgBouncer, type PgBouncer } from "../../tests/support/pgbouncer.ts";
import { startPrivatePostgres, type PrivatePostgres } from "../../tests/support/private-postgres.ts";
import { startProviderServer } from "../../tests/support/provider-server.ts";

const READS = ["dashboard", "trades", "trade", "ledger read"];
// The advisor's turns (about 3 % of steps) are timed to their whole streamed answer, on the providers' stand-in:
// listed per route, kept out of reads and writes.
const WRITES = ["note", "ledger write", "fills", "import"];
const THINK: [number, number] = [1000, 3000];

type Tick = { t: number; total: number; idle: number; waiting: number; rssMb: number; heapMb: number; externalMb: number; cpuBusy: number; shed: number };

/** The machine's CPU time (all cores), busy and total, from /proc/stat. */
function cpuTimes() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = n[3]! + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function metric(text: string, name: string, labels = ""): number {
  let sum = 0;
  for (const line of text.split("\n")) if (line.startsWith(`${name}${labels}`) && /[\s{]/.test(line.charAt(name.length))) sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  return sum;
}

/** Every second: the pool (from the server's /metrics), its RSS, the machine's CPU. */
function sample(metricsUrl: string) {
  const ticks: Tick[] = [];
  let last = cpuTimes();
  const started = performance.now();
  const timer = setInterval(async () => {
    try {
      const text = await (await fetch(`${metricsUrl}/metrics`)).text();
      const now = cpuTimes();
      const cpuBusy = (now.busy - last.busy) / Math.max(1, now.total - last.total);
      last = now;
      ticks.push({
        t: performance.now() - started,
        total: metric(text, "journal_database_connections", '{state="total"}'),
        idle: metric(text, "journal_database_connections", '{state="idle"}'),
        waiting: metric(text, "journal_database_connections", '{state="waiting"}'),
        rssMb: metric(text, "process_resident_memory_bytes") / 1024 / 1024,
        heapMb: metric(text, "nodejs_heap_size_used_bytes") / 1024 / 1024,
        externalMb: metric(text, "nodejs_external_memory_bytes") / 1024 / 1024,
        cpuBusy,
        shed: metric(text, "journal_http_requests_shed_total"),
      });
    } catch {
      // A scrape missed (the server busy): the next second's counts.
    }
  }, 1000);
  return { ticks, stop: () => clearInterval(timer) };
}

/** A new database on the bench's own cluster, migrated: its URL. */
async function migratedDatabase(cluster: PrivatePostgres, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url("postgres") });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = cluster.url(name);
  await migrateUrl(url, { skipPost: false });
  return url;
}

async function startServer(env: Record<string, string>, databaseUrl: string, directUrl: string, pooled: boolean, extra: Record<string, string> = {}) {
  const metricsPort = await freePort();
  const server = await startEntrypoint({
    ...env,
    DATABASE_URL: databaseUrl,
    ...(pooled ? { DIRECT_DATABASE_URL: directUrl, DB_TRANSACTION_POOLER: "true" } : {}),
    TRUSTED_PROXIES: "127.0.0.1/32,::1/128",
    METRICS_ENABLED: "true",
    METRICS_HOST: "127.0.0.1",
    METRICS_PORT: String(metricsPort),
    ...extra,
  });
  return { server, metricsUrl: `http://127.0.0.1:${metricsPort}` };
}

export type LevelFigures = {
  traders: number;
  seconds: number;
  throughput: number;
  routes: ReturnType<typeof summarize>;
  reads: { p50: number; p95: number; p99: number };
  writes: { p50: number; p95: number; p99: number };
  statuses: Record<string, number>;
  pool: { maxTotal: number; maxWaiting: number };
  rss: { min: number; max: number };
  cpuBusy: number;
  shed: number;
};

function figures(traders: number, samples: Sample[], ticks: Tick[], seconds: number): LevelFigures {
  const ms = (routes: string[]) => samples.filter((s) => routes.includes(s.route) && s.status >= 200 && s.status < 300).map((s) => s.ms);
  const p = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99) });
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const busy = ticks.map((t) => t.cpuBusy);
  return {
    traders,
    seconds,
    throughput: samples.length / seconds,
    routes: summarize(samples),
    reads: p(ms(READS)),
    writes: p(ms(WRITES)),
    statuses,
    pool: { maxTotal: Math.max(0, ...ticks.map((t) => t.total)), maxWaiting: Math.max(0, ...ticks.map((t) => t.waiting)) },
    rss: { min: Math.min(...ticks.map((t) => t.rssMb)), max: Math.max(...ticks.map((t) => t.rssMb)) },
    cpuBusy: busy.length ? busy.reduce((a, b) => a + b, 0) / busy.length : Number.NaN,
    shed: Math.max(0, ...ticks.map((t) => t.shed)),
  };
}

async function level(server: Entrypoint, metricsUrl: string, traders: Trader[], options: LoadOptions): Promise<LevelFigures> {
  const sampler = sample(metricsUrl);
  const { samples, started, finished } = await runLoad(server.url, traders, options);
  sampler.stop();
  // The ramp is left out of the rates: from when the last trader started.
  const steady = samples.filter((s) => s.at >= (options.rampMs ?? 0));
  return figures(traders.length, steady, sampler.ticks, (finished - started - (options.rampMs ?? 0)) / 1000);
}

export type FaultFigures = { answers503: number; other: Record<string, number>; failures: string[]; maxGapMs: number; retryAfter: boolean; backMs: number; checked: number; problems: string[]; unanswered: number; lostAnswers: string[] };

/** 100 traders for 40 s; at 15 s `fault` (a restart); then the answers during it and every write checked. */
async function underFault(server: Entrypoint, traders: Trader[], databaseUrl: string, fault: () => Promise<{ downAt: number; upAt: number }>): Promise<FaultFigures> {
  const startedAt = Date.now();
  const run = runLoad(server.url, traders, { durationMs: 40_000, thinkMs: [300, 900], rampMs: 3_000, importEvery: 12 });
  await new Promise((r) => setTimeout(r, 15_000));
  const { downAt, upAt } = await fault();
  const { samples, writes } = await run;
  const [down, up] = [downAt - startedAt, upAt - startedAt];
  const other: Record<string, number> = {};
  for (const s of samples) if (!(s.status >= 200 && s.status < 300) && s.status !== 503) other[s.status] = (other[s.status] ?? 0) + 1;
  const gap = samples.filter((s) => s.status === 503);
  const back = Math.min(...samples.filter((s) => s.status >= 200 && s.status < 300 && s.at - s.ms >= up).map((s) => s.at));
  const check = await checkWrites(server.url, databaseUrl, traders, writes);
  const failures = samples.filter((s) => s.status === 0).map((s) => `${s.route} at ${((s.at - down) / 1000).toFixed(1)} s from the fault after ${s.ms.toFixed(0)} ms: ${s.failure}`);
  return { answers503: gap.length, other, failures, maxGapMs: Math.max(0, ...samples.filter((s) => s.at >= down && s.at <= up + 5_000).map((s) => s.ms)), retryAfter: gap.every((s) => s.retryAfter), backMs: back - up, ...check };
}

export async function measureLoad(base: Record<string, string>, { levels = [100, 300, 600, 1000], levelMs = 45_000 } = {}) {
  const models = await startProviderServer();
  const env = { ...base, ...models.env };
  const cluster: PrivatePostgres = await startPrivatePostgres();
  let bouncer: PgBouncer | undefined;
  const servers: Entrypoint[] = [];
  try {
    const url = await migratedDatabase(cluster, "journal_load");

    const direct = await startServer(env, url, url, false);
    servers.push(direct.server);
    const setupStarted = performance.now();
    const traders = await setUpTraders(direct.server.url, Math.max(...levels), { parallel: 8, tag: "bench-load", advisor: true });
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const byLevel: LevelFigures[] = [];
    for (const n of levels) byLevel.push(await level(direct.server, direct.metricsUrl, traders.slice(0, n), { durationMs: levelMs, thinkMs: THINK, rampMs: 10_000, importEvery: 40 }));
    const overload = await level(direct.server, direct.metricsUrl, traders, { durationMs: 30_000, thinkMs: [100, 300], rampMs: 5_000, importEvery: 40 });
    const restart = await underFault(direct.server, traders.slice(0, 100), url, () => cluster.restart(2000));
    await direct.server.stop();
    servers.length = 0;

    bouncer = await startPgBouncer(url, { targetPort: cluster.port, poolSize: 10, maxClients: 200 });
    const pooled = await startServer(env, bouncer.via(url), url, true);
    servers.push(pooled.server);
    const pooled300 = await level(pooled.server, pooled.metricsUrl, traders.slice(0, 300), { durationMs: levelMs, thinkMs: THINK, rampMs: 10_000, importEvery: 40 });
    const poolerKilled = await underFault(pooled.server, traders.slice(0, 100), url, async () => {
      const port = bouncer!.port;
      await bouncer!.stop();
      const downAt = Date.now();
      await new Promise((r) => setTimeout(r, 2000));
      bouncer = await startPgBouncer(url, { targetPort: cluster.port, poolSize: 10, maxClients: 200, port });
      return { downAt, upAt: Date.now() };
    });
    return { setupSeconds, byLevel, overload, restart, pooled300, poolerKilled };
  } finally {
    for (const s of servers) await s.stop();
    await bouncer?.stop();
    await cluster.stop();
    await models.close();
  }
}

/**
 * 300 traders for `minutes`: the process's memory (RSS, and V8's heap in use: a leak of JavaScript objects shows
 * there first) each minute after a 3-minute warm-up, the pool, errors. `advisor` false leaves the advisor's turns
 * out of the mix (to tell a leak of theirs from one of the rest).
 */
export async function measureSoak(base: Record<string, string>, minutes = 30, traders = 300, advisor = true) {
  const models = await startProviderServer();
  const env = { ...base, ...models.env };
  const cluster = await startPrivatePostgres();
  try {
    const url = await migratedDatabase(cluster, "journal_soak");
    const { server, metricsUrl } = await startServer(env, url, url, false);
    try {
      const people = await setUpTraders(server.url, traders, { parallel: 8, tag: "bench-soak", advisor });
      const sampler = sample(metricsUrl);
      const { samples, writes } = await runLoad(server.url, people, { durationMs: minutes * 60_000, thinkMs: THINK, rampMs: 10_000, importEvery: 40, maxSteps: 100_000 });
      sampler.stop();
      const check = await checkWrites(server.url, url, people, writes);
      const perMinute = Array.from({ length: minutes }, (_, m) => {
        const ticks = sampler.ticks.filter((t) => t.t >= m * 60_000 && t.t < (m + 1) * 60_000);
        const avg = (f: (t: Tick) => number) => (ticks.length ? ticks.reduce((a, t) => a + f(t), 0) / ticks.length : Number.NaN);
        return { minute: m + 1, rssMb: avg((t) => t.rssMb), heapMb: avg((t) => t.heapMb), externalMb: avg((t) => t.externalMb), connections: Math.max(0, ...ticks.map((t) => t.total)) };
      });
      const statuses: Record<string, number> = {};
      for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
      return { perMinute, statuses, requests: samples.length, ...check };
    } finally {
      await server.stop();
    }
  } finally {
    await cluster.stop();
    await models.close();
  }
}
