// Time from spawning the Node entrypoint to its first 200 from GET /api/health, on an up-to-date
// database, beside the same measure for a bare Node HTTP server (the baseline: process start alone).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "./worker-bundles.ts";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Milliseconds to the first 200 from `path`, and the process's RSS once it has sat idle for a second after it. */
async function timeToReady(args: string[], env: Record<string, string>, path: string): Promise<{ ms: number; idleRss: number }> {
  const port = await freePort();
  const started = performance.now();
  // In a folder without a .env: exactly `env`, whatever `npm run dev` left at the root.
  const child = spawn(process.execPath, args, { cwd: tmpdir(), env: { ...env, PORT: String(port) }, stdio: "ignore" });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before it was ready`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        if (res.status === 200) {
          const ms = performance.now() - started;
          await new Promise((r) => setTimeout(r, 1000));
          const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
          return { ms, idleRss: rss };
        }
      } catch {
        /* not listening yet */
      }
      if (performance.now() - started > 30_000) throw new Error("not ready within 30 s");
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill("SIGKILL");
  }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A timed call, or one with an untimed step before each call (`prepare`). */
export type Timed = (() => Promise<unknown>) | { prepare?: () => Promise<unknown>; run: () => Promise<unknown> };

/**
 * Median of `runs` timed calls of each function, taken in turns (every function once per round, in a new
 * random order each round) after `warmup` untimed rounds, so every figure sees the same load on a shared
 * machine, none always runs right after the same neighbour, and ratios between them hold.
 */
export async function timeInterleaved<K extends string>(
  runs: number,
  fns: Record<K, Timed>,
  warmup = 20,
): Promise<Record<K, number>> {
  const entries = (Object.entries(fns) as [K, Timed][]).map(([k, t]) => [k, typeof t === "function" ? { run: t } : t] as const);
  const times = new Map<K, number[]>(entries.map(([k]) => [k, []]));
  for (let i = 0; i < warmup; i++) {
    for (const [, t] of entries) {
      await t.prepare?.();
      await t.run();
    }
  }
  for (let i = 0; i < runs; i++) {
    for (let j = entries.length - 1; j > 0; j--) {
      const r = Math.floor(Math.random() * (j + 1));
      [entries[j], entries[r]] = [entries[r]!, entries[j]!];
    }
    for (const [k, t] of entries) {
      await t.prepare?.();
      const started = performance.now();
      await t.run();
      times.get(k)!.push(performance.now() - started);
    }
  }
  return Object.fromEntries(entries.map(([k]) => [k, median(times.get(k)!)])) as Record<K, number>;
}

/** Median of `runs` timed calls after one warm-up call. */
export async function timeMany(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** `npm start`'s time to ready beside a bare node:http server's; `args` such as ["--from-source"] go to functions/node.ts. */
export async function measureStartup(
  env: Record<string, string>,
  runs = 5,
  args: string[] = [],
): Promise<{ baselineMs: number; entryMs: number; baselineRss: number; entryRss: number }> {
  // The bare server is an ES module file, as the entrypoint is (and as the before-stop hook measures it):
  // `node -e` with require() starts ~15 ms sooner, having no module loader to set up.
  const bareFile = join(tmpdir(), `bare-server-${process.pid}.mjs`);
  writeFileSync(bareFile, "import { createServer } from 'node:http';\ncreateServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');\n");
  const bare = [bareFile];
  const entry = [join(ROOT, "functions/node.ts"), ...args];
  await timeToReady(entry, env, "/api/health"); // applies migrations, so later runs start on an up-to-date database
  const baseline: Array<{ ms: number; idleRss: number }> = [];
  const measured: Array<{ ms: number; idleRss: number }> = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(await timeToReady(bare, env, "/"));
    measured.push(await timeToReady(entry, env, "/api/health"));
  }
  return {
    baselineMs: median(baseline.map((r) => r.ms)),
    entryMs: median(measured.map((r) => r.ms)),
    baselineRss: median(baseline.map((r) => r.idleRss)),
    entryRss: median(measured.map((r) => r.idleRss)),
  };
}
