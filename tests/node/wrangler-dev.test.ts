// `wrangler dev` (workerd through Miniflare) answers GET /api/health and a trader's first steps from the same
// handlers, reaching the real Postgres through the serverless driver and the local bridge.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { readProcessEnv } from "../../lib/config/index.ts";
import { startDbBridge } from "../../scripts/db-bridge.ts";
import { TestClient } from "../support/client.ts";
import { signUpAndImport } from "../support/csv.ts";
import { freePort } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("wrangler dev", () => {
  it("serves /api/health from workerd with the database up, and a sign-up, an import, its ledger and its trades", { timeout: 90_000 }, async () => {
    const bridge = await startDbBridge();
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    // A port the system just handed out, not a random guess (one taken by another test's server failed a run).
    const port = await freePort();
    const vars = { ...baseTestEnv(), DATABASE_URL: inject("databaseUrl"), DB_HTTP_ENDPOINT: bridge.httpUrl };
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
      ],
      {
        cwd: ROOT,
        env: { PATH: `${join(ROOT, "node_modules/.bin")}:${PATH ?? ""}`, HOME: tmpdir(), CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "true" },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      },
    );
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined))?.status, {
          timeout: 60_000,
          interval: 250,
        })
        .toBe(200);
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await res.json()).toMatchObject({ status: "ok", database: "up" });

      // wrangler's own bundle of every group (its esbuild, wrangler.toml's alias), not the test pool's: a
      // trader's first steps through it.
      const client = new TestClient(`http://127.0.0.1:${port}`);
      const account = { id: (await signUpAndImport(client, { startingBalance: "1000" })).accountId };
      const ledger = (await (await client.get(`/api/ledger/${account.id}?page=1&pageSize=10`)).json()) as { entries: unknown[] };
      expect(ledger.entries).toHaveLength(5);
      const trades = (await (await client.get(`/api/trades?accountId=${account.id}`)).json()) as { trades: unknown[] };
      expect(trades.trades).toHaveLength(2);
    } catch (err) {
      console.error(output.slice(-4000));
      throw err;
    } finally {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* already gone */
      }
      await bridge.close();
    }
  });
});
