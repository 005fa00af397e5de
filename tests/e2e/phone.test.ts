// The key numbers at phone width (390 px) in Chromium: P&L on the trades list, amount and balance on the
// ledger, price on a trade's fills, each on screen with its label; calendar amounts on one line; no
// sideways scrolling anywhere.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("phone width", () => {
  let t: TraderPage;
  let accountId = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "phone-tables");
    await t.page.setViewportSize({ width: 390, height: 844 });
    const post = async (path: string, data: unknown) => {
      const res = await t.context.request.post(`${base()}${path}`, { data });
      expect(res.status(), path).toBe(201);
      return (await res.json()) as { id: string };
    };
    accountId = (await post("/api/accounts", { name: "Phone", currency: "USD", startingBalance: "10000", timezone: "Etc/UTC" })).id;
    const today = new Date();
    const at = (h: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), h)).toISOString();
    await post("/api/fills", { accountId, symbol: "AAPL", side: "buy", quantity: "10", price: "100", fees: "0", executedAt: at(1) });
    await post("/api/fills", { accountId, symbol: "AAPL", side: "sell", quantity: "10", price: "1234.56", fees: "0", executedAt: at(2) });
  }, 60_000);
  afterAll(() => t?.browser.close());

  const onScreen = async (selector: string, text: string) => {
    const cell = t.page.locator(selector).filter({ hasText: text }).first();
    await cell.waitFor();
    const box = (await cell.boundingBox())!;
    expect(box.x, selector).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, selector).toBeLessThanOrEqual(390);
  };
  const noSidewaysScroll = async () => expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  it("trades: each trade's net P&L is on screen with its label", async () => {
    await t.page.goto(`${base()}/trades`);
    await onScreen('td[data-label="Net P&L"]', "+$11,345.60");
    await noSidewaysScroll();
  });

  it("ledger: the amount and the balance of each entry are on screen", async () => {
    await t.page.goto(`${base()}/accounts/${accountId}`);
    await onScreen('td[data-label="Amount"]', "$12,345.60");
    await onScreen('td[data-label="Balance"]', "$21,345.60");
    await noSidewaysScroll();
  });

  it("a trade's fills: the price is on screen", async () => {
    await t.page.goto(`${base()}/trades`);
    await t.page.getByRole("link", { name: "AAPL" }).first().click();
    await onScreen('td[data-label="Price"]', "1,234.56");
    await noSidewaysScroll();
  });

  it("the calendar's amounts stay on one line", async () => {
    await t.page.goto(`${base()}/dashboard`);
    const amount = t.page.locator(".calendar__pnl-compact").first();
    await amount.waitFor();
    const lines = await amount.evaluate((el) => {
      const style = getComputedStyle(el);
      return { whiteSpace: style.whiteSpace, height: el.getBoundingClientRect().height, lineHeight: parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4 };
    });
    expect(lines.whiteSpace).toBe("nowrap");
    expect(lines.height).toBeLessThan(lines.lineHeight * 1.6);
    await noSidewaysScroll();
    expect(t.errors).toEqual([]);
  });

  it("the account page offers the CSV exports, and the fills file downloads", async () => {
    await t.page.setViewportSize({ width: 1280, height: 900 });
    await t.page.goto(`${base()}/accounts/${accountId}`);
    const [download] = await Promise.all([t.page.waitForEvent("download"), t.page.getByRole("link", { name: "Fills (CSV)" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^fills-[0-9a-f]{8}\.csv$/);
    const text = await (await download.createReadStream()).toArray();
    const csv = Buffer.concat(text as Buffer[]).toString("utf8");
    expect(csv.split("\r\n")[0]).toBe("Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID,Asset Class,Multiplier");
    expect(csv).toContain(",AAPL,SELL,10.00,1234.56,");
  });
});
