// Risk in R in Chromium, at desktop (1280) and phone (390) width: a stop set on the trade page gives the
// trade its result in R, and the dashboard in R shows it, with the count of trades that have a risk.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SCREENSHOTS, signedInTrader } from "./browser.ts";

const base = () => inject("baseUrl");

for (const width of [1280, 390] as const) {
  describe(`risk in R at ${width} px`, () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let errors: string[] = [];
    let accountId = "";
    let tradeId = "";

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      ({ browser, context, page, errors } = await signedInTrader(base(), `risk-${width}`, width));
      const account = await context.request.post(`${base()}/api/accounts`, { data: { name: "Risked", currency: "USD", timezone: "America/New_York" } });
      accountId = ((await account.json()) as { id: string }).id;
      for (const [side, price, at, fees] of [
        ["buy", "50", "2026-03-02T10:00:00-05:00", "1"],
        ["sell", "53", "2026-03-02T11:00:00-05:00", "1"],
        ["buy", "20", "2026-03-03T10:00:00-05:00", "0"],
        ["sell", "19", "2026-03-03T11:00:00-05:00", "0"],
      ]) {
        const symbol = price === "50" || price === "53" ? "AAPL" : "INTC";
        const res = await context.request.post(`${base()}/api/fills`, { data: { accountId, symbol, side, quantity: "100", price, fees, executedAt: at } });
        expect(res.status()).toBe(201);
      }
      const list = (await (await context.request.get(`${base()}/api/trades?accountId=${accountId}&symbol=AAPL`)).json()) as { trades: Array<{ id: string }> };
      tradeId = list.trades[0]!.id;
    });
    afterAll(() => browser?.close());

    it("a stop on the trade page gives its result in R; the list shows it", async () => {
      await page.goto(`${base()}/trades/${tradeId}`);
      await page.getByRole("heading", { name: "AAPL · Long" }).waitFor();
      // On the wrong side first: the field says why, nothing is saved.
      await page.getByLabel("Stop").fill("51");
      await page.getByRole("button", { name: "Save journal" }).click();
      await page.getByText("must be below the entry price 50.00 for a long trade").waitFor();
      await page.getByLabel("Stop").fill("48");
      await page.getByLabel("Target").fill("56");
      await page.getByRole("button", { name: "Save journal" }).click();
      await page.getByText("Journal saved.").waitFor();
      // 1R = 2 x 100 = 200; net 298 -> +1.49 R; R:R 3.
      await page.getByText("+1.49 R").waitFor();
      await page.getByText("3 : 1").waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}risk-trade-${width}.png`, fullPage: true });
      await page.goto(`${base()}/trades?accountId=${accountId}`);
      const row = page.getByRole("row", { name: /AAPL/ });
      await row.getByText("+1.49 R").waitFor();
    });

    it("the dashboard in R counts the trades with a risk and sums their R", async () => {
      await page.goto(`${base()}/dashboard?account=${accountId}`);
      await page.getByRole("heading", { name: "Summary", exact: true }).waitFor();
      // A click, not check(): the switch is a navigation (?unit=r), which React renders a moment later.
      await page.getByRole("radio", { name: "R", exact: true }).click();
      await page.getByRole("heading", { name: "Summary in R" }).waitFor();
      const total = page.getByRole("list", { name: "Summary in R" }).getByRole("listitem").filter({ hasText: "Total R" });
      await total.getByText("+1.49 R").waitFor();
      await total.getByText("1 of 2 trades with risk").waitFor();
      await page.getByRole("table", { name: "Closed trades by R-multiple, in 0.5 R buckets" }).waitFor();
      await page.getByRole("table", { name: /Daily R, March 2026/ }).waitFor();
      // No cell overflows the phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOTS}risk-dashboard-${width}.png`, fullPage: true });
      expect(errors).toEqual([]);
    });
  });
}
