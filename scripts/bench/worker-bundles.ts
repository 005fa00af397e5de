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
/** The advisor's model Workers (functions/workers/model-*.ts): reached through bindings only, no endpoint group. */
export const MODEL_WORKERS = ["model-openai", "model-anthropic", "model-gemini"] as const;
/** The broker sync's adapters (functions/workers/brokers.ts): reached through the accounts and jobs Workers' bindings only. */
export const BROKERS_WORKER = "brokers";
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

/** Builds one Worker of wrangler.toml as a deploy would, into `outdir`; the path of its module. */
export async function buildWorker(env: string, outdir: string): Promise<string> {
  await dryRun(["--env", env], outdir);
  const js = readdirSync(outdir).filter((f) => f.endsWith(".js"));
  if (js.length !== 1) throw new Error(`${env}: expected one module in ${outdir}, found ${js.join(", ")}`);
  return join(outdir, js[0]!);
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
