// `wrangler dev` (workerd through Miniflare) answers GET /api/health and a trader's first steps from the same
// handlers, reaching the real Postgres through the serverless driver and the local bridge.
import { describe, expect, inject, it } from "vitest";
import { readProcessEnv } from "../../lib/config/index.ts";
import { startDbBridge } from "../../scripts/db-bridge.ts";
import { TestClient } from "../support/client.ts";
import { signUpAndImport } from "../support/csv.ts";
import { baseTestEnv } from "../support/env.ts";
import { startWranglerDev } from "../support/wrangler.ts";

describe("wrangler dev", () => {
  it("serves /api/health from workerd with the database up, and a sign-up, an import, its ledger and its trades", { timeout: 90_000 }, async () => {
    const bridge = await startDbBridge();
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const vars = { ...baseTestEnv(), DATABASE_URL: inject("databaseUrl"), DB_HTTP_ENDPOINT: bridge.httpUrl };
    const wrangler = await startWranglerDev(vars, PATH ?? "");
    try {
      await expect
        .poll(async () => (await fetch(`${wrangler.url}/api/health`).catch(() => undefined))?.status, {
          timeout: 60_000,
          interval: 250,
        })
        .toBe(200);
      const res = await fetch(`${wrangler.url}/api/health`);
      expect(await res.json()).toMatchObject({ status: "ok", database: "up" });

      // wrangler's own bundle of every group (its esbuild, wrangler.toml's alias), not the test pool's: a
      // trader's first steps through it.
      const client = new TestClient(wrangler.url);
      const account = { id: (await signUpAndImport(client, { startingBalance: "1000" })).accountId };
      const ledger = (await (await client.get(`/api/ledger/${account.id}?page=1&pageSize=10`)).json()) as { entries: unknown[] };
      expect(ledger.entries).toHaveLength(5);
      const trades = (await (await client.get(`/api/trades?accountId=${account.id}`)).json()) as { trades: unknown[] };
      expect(trades.trades).toHaveLength(2);
    } catch (err) {
      console.error(wrangler.output().slice(-4000));
      throw err;
    } finally {
      wrangler.stop();
      await bridge.close();
    }
  });
});
