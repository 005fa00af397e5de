// Connecting Interactive Brokers in the browser, against the Flex Web Service's stand-in, and seeing the first
// run's trades (lib/sync; docs/imports.md "Broker sync"). Its own server and database, pointed at the stand-in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { readProcessEnv } from "../../lib/config/index.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startEntrypoint, type Entrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { flexStatement, flexTrade, startFlexServer, type FlexServer } from "../support/flex-server.ts";
import { launchBrowser, openPage, registerTrader } from "./browser.ts";

describe("broker sync in the browser", () => {
  let db: { name: string; url: string };
  let flex: FlexServer;
  let server: Entrypoint;
  let browser: Browser;
  beforeAll(async () => {
    db = await createMigratedDatabase("journal_e2e_flex");
    flex = await startFlexServer();
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), ...flex.env, DATABASE_URL: db.url }, 60_000);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await flex?.close();
    if (db) await dropDatabase(db.name);
  });

  it("connects IBKR with a token and query id, syncs, and shows the run and its trades, at 1280 and 390 px", async () => {
    flex.statement = flexStatement([
      flexTrade({ symbol: "AAPL", side: "BUY", quantity: "100", price: "191.5", commission: "1", dateTime: "20240119;093015", execId: "0000e0d5.65aa4c1f.01.01" }),
      flexTrade({ symbol: "AAPL", side: "SELL", quantity: "100", price: "192.25", commission: "1", dateTime: "20240119;100241", execId: "0000e0d5.65aa5d92.01.01" }),
    ]);
    flex.pendingPolls = 1;
    for (const width of [1280, 390]) {
      const { context, page, errors } = await openPage(browser, { width });
      await registerTrader(context, server.url, `flex-${width}`);
      const account = await (await context.request.post(`${server.url}/api/accounts`, { data: { name: "IBKR", currency: "USD", timezone: "America/New_York" } })).json();
      await page.goto(`${server.url}/accounts/${account.id}`);
      const panel = page.getByRole("region", { name: "Broker sync" });
      await panel.getByLabel("Flex Web Service token").fill(`goodtoken${width}abcdefgh`);
      await panel.getByLabel("Query ID").fill("987654");
      await panel.getByRole("button", { name: "Connect" }).click();
      await panel.getByText("Connected").waitFor();
      await panel.getByText("…efgh").waitFor();
      await panel.getByRole("button", { name: "Sync now" }).click();
      await panel.getByText(/Last sync .*: 2 fills imported, 0 already here\./).waitFor();
      // The history opens on a click and lists the run: the trader's, or the schedule's when its tick came
      // first (the server runs its jobs). A click landing while the panel re-renders after the run may not
      // open it, so the trader clicks again, as they would. The row is read by its text: at 390 px each cell's
      // accessible name also holds its column's label (data-label), which a role query by name would miss.
      const history = panel.locator("details.sync-runs");
      await expect
        .poll(async () => {
          if (!(await history.evaluate((d) => (d as HTMLDetailsElement).open))) await history.locator("summary").click();
          return history.evaluate((d) => (d as HTMLDetailsElement).open);
        }, { timeout: 20_000, interval: 500 })
        .toBe(true);
      // The run that imported the fills: a scheduled run that started after it (its tick can land at any time
      // on a loaded machine) sits above it, still running or finding the fills already here.
      const row = history.locator("tbody tr", { hasText: "2 fills imported, 0 already here." }).first();
      await row.waitFor({ state: "visible" });
      expect(await row.textContent()).toMatch(/You asked|Scheduled/);
      // The run's trades, in the trades list.
      await page.goto(`${server.url}/trades?accountId=${account.id}`);
      await page.locator("table.trades-table tbody th a", { hasText: "AAPL" }).waitFor();
      expect(await page.locator("table.trades-table tbody tr").count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 90_000);
});
