// Connecting Schwab in the browser (lib/sync/schwab-oauth.ts; docs/imports.md "Broker sync"): the trader picks
// Schwab, is sent to the sign-in of Schwab's stand-in (tests/support/broker-server.ts: the app's client id and
// registered callback checked), allows, comes back through the callback (state and PKCE verifier checked by
// the stand-in's token endpoint) to the account page, and sees the first sync's trades. Its own server and
// database, its callback the server's own address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { readProcessEnv } from "../../lib/config/index.ts";
import { startBrokerServer, type BrokerServer } from "../support/broker-server.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { freePort, startEntrypoint, type Entrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { launchBrowser, openPage, registerTrader } from "./browser.ts";

describe("Schwab's sign-in in the browser", () => {
  let db: { name: string; url: string };
  let brokers: BrokerServer;
  let server: Entrypoint;
  let browser: Browser;
  beforeAll(async () => {
    db = await createMigratedDatabase("journal_e2e_schwab");
    brokers = await startBrokerServer();
    const port = await freePort();
    const web = `http://127.0.0.1:${port}`;
    brokers.schwab.app.redirectUri = `${web}/api/accounts/broker-oauth/schwab/callback`;
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), ...brokers.env, WEB_BASE_URL: web, PORT: String(port), DATABASE_URL: db.url }, 60_000);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await brokers?.close();
    if (db) await dropDatabase(db.name);
  });

  it("signs in at Schwab and back, with state and PKCE, and shows the first sync's trade, at 1280 and 390 px", async () => {
    for (const width of [1280, 390]) {
      const hash = `HASH${width}${crypto.randomUUID().slice(0, 8)}`;
      const tail = String(width).padStart(4, "0");
      brokers.schwab.nextLogin = [{ accountNumber: `8765${tail}`, hashValue: hash }];
      brokers.schwab.transactions.set(hash, [
        { activityId: width, time: "2024-05-10T14:30:05+0000", type: "TRADE", status: "VALID", orderId: 1, transferItems: [{ instrument: { assetType: "EQUITY", symbol: "SFM" }, amount: 3, cost: -501.9, price: 167.3, positionEffect: "OPENING" }] },
        { activityId: width + 1, time: "2024-05-10T15:30:05+0000", type: "TRADE", status: "VALID", orderId: 2, transferItems: [{ instrument: { assetType: "EQUITY", symbol: "SFM" }, amount: -3, cost: 504.3, price: 168.1, positionEffect: "CLOSING" }] },
      ]);
      const { context, page, errors } = await openPage(browser, { width });
      await registerTrader(context, server.url, `schwab-${width}`);
      const account = await (await context.request.post(`${server.url}/api/accounts`, { data: { name: "Schwab", currency: "USD", timezone: "America/New_York" } })).json();
      await page.goto(`${server.url}/accounts/${account.id}`);
      const panel = page.getByRole("region", { name: "Broker sync" });
      await panel.getByLabel("Broker", { exact: true }).selectOption("schwab");
      await panel.getByLabel("Import from").fill("2024-05-01");
      await panel.getByRole("button", { name: "Sign in at Schwab" }).click();
      // Schwab's page (the stand-in's): the app's key and callback were accepted.
      await page.getByRole("heading", { name: /Allow Journal/ }).waitFor();
      const authorize = new URL(page.url());
      expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorize.searchParams.get("state")).toBeTruthy();
      await page.getByRole("link", { name: "Allow" }).click();
      await page.waitForURL(`${server.url}/accounts/${account.id}?broker=connected`);
      await panel.getByText("Connected to Schwab.").waitFor();
      await panel.getByText(`…${tail}`).waitFor();
      await panel.getByRole("button", { name: "Sync now" }).click();
      await panel.getByText(/Last sync .*: 2 fills imported/).waitFor();
      await page.goto(`${server.url}/trades?accountId=${account.id}`);
      await page.locator("table.trades-table tbody th a", { hasText: "SFM" }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
