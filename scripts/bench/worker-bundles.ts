// Builds every Worker of wrangler.toml the way a deploy would (`wrangler deploy --dry-run --outdir`) and
// measures the gzip size of each bundle.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { parse } from "smol-toml";

const run = promisify(execFile);
export const ROOT = new URL("../..", import.meta.url).pathname;
export const WORKER_GZIP_LIMIT_BYTES = 250 * 1024;
/**
 * The one Worker over the 250 KB budget, with a ceiling of its own so it cannot grow unnoticed: the advisor
 * carries the AI SDK with three provider packages and the full zod build they import (about 310 KB gzip on
 * their own; docs/architecture.md, "The advisor Worker's size").
 */
export const WORKER_GZIP_EXCEPTIONS: Readonly<Record<string, number>> = { advisor: 520 * 1024 };

export function budgetOf(worker: string): number {
  return WORKER_GZIP_EXCEPTIONS[worker] ?? WORKER_GZIP_LIMIT_BYTES;
}
const WRANGLER = join(ROOT, "node_modules/.bin/wrangler");
const WRANGLER_ENV = { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

type WranglerToml = {
  env?: Record<string, { main?: string; triggers?: { crons?: string[] }; routes?: { pattern: string; zone_name?: string }[] }>;
  compatibility_date?: string;
};

export function readWranglerToml(): WranglerToml {
  return parse(readFileSync(join(ROOT, "wrangler.toml"), "utf8")) as WranglerToml;
}

async function gzipOf(outdir: string): Promise<number> {
  const js = readdirSync(outdir).filter((f) => f.endsWith(".js") || f.endsWith(".mjs"));
  return js.reduce((sum, f) => sum + gzipSync(readFileSync(join(outdir, f)), { level: 9 }).length, 0);
}

async function dryRun(args: string[], outdir: string): Promise<number> {
  rmSync(outdir, { recursive: true, force: true });
  await run(WRANGLER, ["deploy", "--dry-run", "--outdir", outdir, ...args], {
    cwd: ROOT,
    env: { PATH: `${join(ROOT, "node_modules/.bin")}:/usr/bin:/bin`, HOME: "/tmp", ...WRANGLER_ENV },
    maxBuffer: 16 * 1024 * 1024,
  });
  return gzipOf(outdir);
}

/** gzip bytes of each Worker (one per wrangler environment) and of a bare Hono Worker as the baseline. */
export async function measureWorkerBundles(): Promise<{ baseline: number; workers: Record<string, number> }> {
  const toml = readWranglerToml();
  const out = join(ROOT, "dist/bench");
  mkdirSync(out, { recursive: true });
  const baselineEntry = join(out, "baseline-entry.ts");
  writeFileSync(baselineEntry, 'import { Hono } from "hono";\nexport default new Hono().get("/", (c) => c.text("ok"));\n');
  const baseline = await dryRun(
    [baselineEntry, "--name", "baseline", "--compatibility-date", toml.compatibility_date ?? "2026-10-01", "--minify", "-c", "/dev/null"],
    join(out, "baseline"),
  ).catch(async () =>
    // Older wranglers refuse `-c /dev/null`; fall back to a temporary config.
    dryRunWithConfig(baselineEntry, toml.compatibility_date ?? "2026-10-01", join(out, "baseline")),
  );
  const workers: Record<string, number> = {};
  for (const env of Object.keys(toml.env ?? {})) workers[env] = await dryRun(["--env", env], join(out, env));
  return { baseline, workers };
}

async function dryRunWithConfig(entry: string, date: string, outdir: string): Promise<number> {
  const config = join(ROOT, "dist/bench/baseline.wrangler.toml");
  writeFileSync(config, `name = "baseline"\nmain = "${entry}"\ncompatibility_date = "${date}"\nminify = true\n`);
  return dryRun(["-c", config], outdir);
}
