// The trade on its chart in Chromium, at desktop (1280) and phone (390) width: candles uploaded as a CSV,
// a marker per fill (counted), the fill shown when the pointer is over its bar, the excursions, and a
// replay stepped bar by bar with the result hidden until the end.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { SCREENSHOTS, signedInTrader } from "./browser.ts";

const base = () => inject("baseUrl");
const minute = (i: number, s = 0) => new Date(Date.parse("2026-03-02T14:30:00Z") + i * 60_000 + s * 1000).toISOString();

for (const width of [1280, 390] as const) {
  describe(`the trade chart at ${width} px`, () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let errors: string[] = [];
    let tradeId = "";

    beforeAll(async () => {
      ({ browser, context, page, errors } = await signedInTrader(base(), `chart-${width}`, width, { timezoneId: "America/New_York" }));
      const account = await context.request.post(`${base()}/api/accounts`, { data: { name: "Charted", currency: "USD", timezone: "America/New_York" } });
      const accountId = ((await account.json()) as { id: string }).id;
      // 40 one-minute candles from 09:30 New York; three fills in minutes 5, 15 and 25.
      const rows = ["time,open,high,low,close,volume"];
      for (let i = 0; i < 40; i++) {
        const o = (10000 + i) / 100;
        rows.push(`${minute(i)},${o.toFixed(2)},${(o + 0.02).toFixed(2)},${(o - 0.02).toFixed(2)},${(o + 0.01).toFixed(2)},1000`);
      }
      const upload = await context.request.post(`${base()}/api/bars/upload`, {
        multipart: { file: { name: "aapl.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) }, symbol: "AAPL", resolution: "1m" },
      });
      expect(upload.status(), await upload.text()).toBe(201);
      for (const [side, quantity, price, at] of [
        ["buy", "100", "100.05", minute(5, 30)],
        ["buy", "100", "100.15", minute(15, 10)],
        ["sell", "200", "100.25", minute(25)],
      ]) {
        const res = await context.request.post(`${base()}/api/fills`, { data: { accountId, symbol: "AAPL", side, quantity, price, executedAt: at } });
        expect(res.status()).toBe(201);
      }
      const list = await context.request.get(`${base()}/api/trades?accountId=${accountId}`);
      tradeId = ((await list.json()) as { trades: Array<{ id: string }> }).trades[0]!.id;
    }, 60_000);
    afterAll(() => browser?.close());

    it("draws the candles with a marker per fill, shows a fill under the pointer, and the excursions", async () => {
      await page.goto(`${base()}/trades/${tradeId}`);
      const canvas = page.locator(".trade-chart__canvas");
      // A cold page load and the chart's request, not an interaction: more than the poll's default second
      // on a loaded machine (a full CI run once took longer at 390 px).
      await expect.poll(() => canvas.getAttribute("data-markers"), { timeout: 10_000 }).toBe("3");
      expect(Number(await canvas.getAttribute("data-candles"))).toBe(40);
      expect(await canvas.getAttribute("aria-label")).toMatch(/AAPL, 1 min candles .* 40 bars, 3 fills marked/);
      // Sweep the pointer across the chart until it is over a fill's bar.
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      const hover = page.getByTestId("chart-hover");
      let seen = "";
      for (let x = box.x + 2; x < box.x + box.width - 60 && !/Buy 100 at 100\.05/.test(seen); x += width > 500 ? 4 : 2) {
        await page.mouse.move(x, box.y + box.height / 3);
        seen = await hover.innerText();
      }
      expect(seen).toMatch(/Buy 100 at 100\.05, .*9:35/);
      await expect.poll(() => page.getByRole("heading", { name: "How far it went" }).count()).toBe(1);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.getByRole("heading", { name: "Chart" }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/trade-chart-${width}.png` });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });

    it("replays the trade bar by bar, the result hidden until the end", async () => {
      const canvas = page.locator(".trade-chart__canvas");
      await page.getByRole("button", { name: "Replay" }).click();
      const status = page.getByTestId("replay-status");
      // It starts on the bar before the first fill: nothing has happened yet, and the result waits.
      await expect.poll(() => status.innerText()).toMatch(/0 of 3 fills/);
      expect(await canvas.getAttribute("data-markers")).toBe("0");
      // The window is held from the trade's first bar, at the left edge (the bars before it scrolled off), so the
      // replay fills it from left to right. The 5 bars drawn are the 4 before the trade and its first.
      expect(Number(await canvas.getAttribute("data-candles"))).toBe(5);
      expect(await canvas.getAttribute("data-from")).toBe("4");
      expect(await page.locator(".stats").first().innerText()).toContain("after the replay");
      await page.getByRole("button", { name: "Step forward" }).click();
      await expect.poll(() => status.innerText()).toMatch(/1 of 3 fills/);
      expect(await canvas.getAttribute("data-markers")).toBe("1");
      expect(Number(await canvas.getAttribute("data-candles"))).toBe(6);
      // Scrubbed to the end: every fill, the result shown again.
      await page.getByLabel("Replay position").fill("39");
      await expect.poll(() => status.innerText()).toMatch(/3 of 3 fills .*the end/);
      expect(await canvas.getAttribute("data-markers")).toBe("3");
      expect(await page.locator(".stats").first().innerText()).not.toContain("after the replay");
      await page.getByRole("button", { name: "Close replay" }).click();
      await expect.poll(() => canvas.getAttribute("data-from")).toBe("0");
      expect(errors).toEqual([]);
    });
  });
}
