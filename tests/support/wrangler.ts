// `wrangler dev` (workerd through Miniflare, wrangler's own bundle of every group) on a free port of
// 127.0.0.1 with exactly `vars` as its bindings, for tests and benchmarks that cross a real socket.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./entrypoint.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export type WranglerDev = { url: string; output: () => string; stop: () => void };

/**
 * Starts it; `ready` is not awaited here (callers poll /api/health, each with its own deadline). `extra`:
 * more arguments (a benchmark's own `--config`).
 */
export async function startWranglerDev(vars: Record<string, string>, path: string, extra: string[] = []): Promise<WranglerDev> {
  // A port the system just handed out, not a random guess (one taken by another test's server failed a run).
  const port = await freePort();
  const child = spawn(
    join(ROOT, "node_modules/.bin/wrangler"),
    [
      "dev",
      "--port", String(port),
      "--ip", "127.0.0.1",
      "--inspector-port", "0",
      "--persist-to", mkdtempSync(join(tmpdir(), "journal-wrangler-")),
      "--show-interactive-dev-session=false",
      ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
      ...extra,
    ],
    {
      cwd: ROOT,
      env: { PATH: `${join(ROOT, "node_modules/.bin")}:${path}`, HOME: tmpdir(), CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* already gone */
      }
    },
  };
}
