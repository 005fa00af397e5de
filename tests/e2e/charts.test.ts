// The dashboard's charts in Chromium against the real Node entrypoint, at desktop and phone width: the
// equity curve (lightweight-charts on a canvas) answers the pointer with the exact figures of the bucket
// under it, drawdown included; the calendar totals each week; the breakdown groups by long and short.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("dashboard charts", () => {
  let t: TraderPage;
  let accountId = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "charts");
    const account = await t.context.request.post(`${base()}/api/accounts`, { data: { name: "Charts", currency: "USD", startingBalance: "10000", timezone: "Etc/UTC" } });
    accountId = ((await account.json()) as { id: string }).id;
    // Three round trips on three days of one week: +100, -50, +200 (equity 100, 50, 250; drawdown -50 on the 2nd).
    const fills = [
      ["AAPL", "buy", "100", "2026-03-02T14:00:00Z"], ["AAPL", "sell", "101", "2026-03-02T15:00:00Z"],
      ["MSFT", "sell", "50", "2026-03-03T14:00:00Z"], ["MSFT", "buy", "51", "2026-03-03T15:00:00Z"],
      ["NVDA", "buy", "10", "2026-03-04T14:00:00Z"], ["NVDA", "sell", "12", "2026-03-04T15:00:00Z"],
    ] as const;
    for (const [symbol, side, price, executedAt] of fills) {
      const res = await t.context.request.post(`${base()}/api/fills`, { data: { accountId, symbol, side, quantity: symbol === "NVDA" ? "100" : symbol === "MSFT" ? "50" : "100", price, executedAt } });
      expect(res.status()).toBe(201);
    }
  }, 60_000);
  afterAll(() => t?.browser.close());

  for (const width of [1280, 390]) {
    it(`at ${width} px the equity curve shows the figures under the pointer, and the calendar totals the week`, async () => {
      const { page } = t;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base()}/dashboard?account=${accountId}`);
      await page.getByRole("img", { name: /Equity curve by day/ }).waitFor();
      const canvas = page.locator(".equity__canvas canvas").first();
      await canvas.waitFor();
      const hover = page.getByTestId("equity-hover");
      // Before any pointer: the last bucket.
      await expect.poll(() => hover.innerText()).toContain("+$250.00");
      await page.locator(".equity__canvas").scrollIntoViewIfNeeded();
      const box = (await page.locator(".equity__canvas").boundingBox())!;
      await page.mouse.move(box.x + 6, box.y + 60);
      await expect.poll(() => hover.innerText()).toContain("Cumulative +$100.00");
      expect(await hover.innerText()).toContain("Drawdown $0.00");
      // The middle bucket: the only drawdown.
      await page.mouse.move(box.x + (box.width - 70) / 2, box.y + 60);
      await expect.poll(() => hover.innerText()).toContain("Cumulative +$50.00");
      expect(await hover.innerText()).toContain("Drawdown -$50.00");
      expect(await page.locator(".equity__legend").innerText()).toMatch(/Max drawdown by day\s*-\$50\.00/);

      const march = page.getByRole("table", { name: "Daily net P&L, March 2026" });
      await march.waitFor();
      const week = march.locator("td.calendar__week").filter({ hasText: "3 trades" });
      await expect.poll(() => week.count()).toBe(1);
      if (width > 560) expect(await week.innerText()).toContain("+$250.00");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(t.errors).toEqual([]);
    });
  }

  it("the breakdown groups by long and short", async () => {
    const { page } = t;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base()}/dashboard?account=${accountId}`);
    await page.getByLabel("Group by").selectOption("direction");
    const table = page.getByRole("table", { name: "Net P&L by long or short" });
    await table.waitFor();
    await expect.poll(() => table.getByRole("row", { name: /^Long \d/ }).innerText()).toContain("+$300.00");
    expect(await table.getByRole("row", { name: /^Short \d/ }).innerText()).toContain("-$50.00");
  });
});
