// The trades list a trader sorts and totals, at 1280 and 390 px, and the dashboard figures that open it (a
// calendar day, a breakdown row), in Chromium against the real server.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("the trades list: sorting, totals, and the dashboard's way in", () => {
  let t: TraderPage;
  let accountId = "";
  const base = () => inject("baseUrl");
  const symbols = () => t.page.locator("table.trades-table tbody th a").allTextContents();

  beforeAll(async () => {
    t = await signedInTrader(base(), "trades-list");
    const post = async (path: string, data: unknown) => {
      const res = await t.context.request.post(`${base()}${path}`, { data });
      expect(res.status(), path).toBe(201);
      return (await res.json()) as { id: string };
    };
    accountId = (await post("/api/accounts", { name: "Sorting", currency: "USD", startingBalance: "10000", timezone: "Etc/UTC" })).id;
    const trip = async (symbol: string, side: "buy" | "sell", quantity: string, open: [string, string], close: [string, string]) => {
      await post("/api/fills", { accountId, symbol, side, quantity, price: open[0], fees: "0", executedAt: open[1] });
      await post("/api/fills", { accountId, symbol, side: side === "buy" ? "sell" : "buy", quantity, price: close[0], fees: "0", executedAt: close[1] });
    };
    await trip("AAPL", "buy", "10", ["100", "2026-10-05T14:00:00Z"], ["110", "2026-10-05T15:00:00Z"]); // +100, 1h
    await trip("MSFT", "sell", "5", ["200", "2026-10-06T14:00:00Z"], ["210", "2026-10-06T16:00:00Z"]); // -50, 2h
    await trip("NVDA", "buy", "2", ["50", "2026-10-06T17:00:00Z"], ["60", "2026-10-06T17:15:00Z"]); // +20, 15m
  }, 60_000);
  afterAll(() => t?.browser.close());

  it("at 1280 px: a heading sorts (again: the other way), the totals count every match, hold time is a column", async () => {
    await t.page.goto(`${base()}/trades`);
    const totals = t.page.getByLabel("Totals of the trades matching the filters");
    await expect.poll(() => totals.textContent()).toContain("3 trades · 3 closed · win rate 66.7% · net P&L +$70.00");
    expect(await symbols()).toEqual(["NVDA", "MSFT", "AAPL"]);
    expect(await t.page.locator('td[data-label="Held"]').allTextContents()).toEqual(["15m", "2h", "1h"]);

    const table = t.page.getByRole("table", { name: /^Trades/ });
    await table.getByRole("button", { name: "Net P&L" }).click();
    await t.page.getByRole("table", { name: /by Net P&L, highest first/ }).waitFor();
    await expect.poll(symbols).toEqual(["AAPL", "NVDA", "MSFT"]);
    await table.getByRole("button", { name: /^Net P&L/ }).click();
    await t.page.getByRole("table", { name: /by Net P&L, lowest first/ }).waitFor();
    await expect.poll(symbols).toEqual(["MSFT", "NVDA", "AAPL"]);
    expect(new URL(t.page.url()).search).toBe("?sort=netPnl&order=asc");
    expect(await table.getByRole("columnheader", { name: /Net P&L/ }).getAttribute("aria-sort")).toBe("ascending");
    expect(t.errors).toEqual([]);
  });

  it("a calendar day and a breakdown row open the trades behind them", async () => {
    await t.page.goto(`${base()}/dashboard?account=${accountId}`);
    await t.page.getByRole("table", { name: "Daily net P&L, October 2026" }).waitFor();
    await t.page.getByRole("link", { name: /^Trades of 2026-10-06/ }).click();
    await t.page.getByRole("list", { name: "Also filtered by" }).getByText("With a fill on Oct 6, 2026").waitFor();
    await expect.poll(symbols).toEqual(["NVDA", "MSFT"]);
    await expect.poll(() => t.page.getByLabel("Totals of the trades matching the filters").textContent()).toContain("2 trades · 2 closed · win rate 50% · net P&L -$30.00");
    // Dropping the day's chip shows every trade again.
    await t.page.getByRole("button", { name: "Remove the filter With a fill on Oct 6, 2026" }).click();
    await expect.poll(symbols).toEqual(["NVDA", "MSFT", "AAPL"]);

    await t.page.goto(`${base()}/dashboard?account=${accountId}`);
    await t.page.getByRole("table", { name: "Net P&L by symbol" }).getByRole("link", { name: "AAPL" }).click();
    await expect.poll(symbols).toEqual(["AAPL"]);
    expect(new URL(t.page.url()).searchParams.get("symbol")).toBe("AAPL");
    expect(t.errors).toEqual([]);
  });

  it("at 390 px: the order is picked from a list, the totals stay on screen, nothing scrolls sideways", async () => {
    await t.page.setViewportSize({ width: 390, height: 844 });
    await t.page.goto(`${base()}/trades`);
    await t.page.getByLabel("Sort by").selectOption("heldFor");
    await expect.poll(symbols).toEqual(["MSFT", "AAPL", "NVDA"]);
    await t.page.getByLabel("Order").selectOption("asc");
    await expect.poll(symbols).toEqual(["NVDA", "AAPL", "MSFT"]);
    const box = (await t.page.getByLabel("Totals of the trades matching the filters").boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(t.errors).toEqual([]);
  });
});
