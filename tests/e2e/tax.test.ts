// The tax year page in Chromium against the real server (issue 58; docs/tax.md): a loss washed by a purchase in
// another account, Schedule D's totals, the lots with code W, the wash watch and the files, at 1280 and 390 px.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SCREENSHOTS, signedInTrader, type TraderPage } from "./browser.ts";

describe("tax: the year's lots and forms", () => {
  let t: TraderPage;
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "tax");
    const account = async (name: string) => {
      const res = await t.context.request.post(`${base()}/api/accounts`, { data: { name, currency: "USD", timezone: "America/New_York" } });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const [a, b] = [await account("Broker A"), await account("Broker B")];
    const fill = async (accountId: string, side: string, price: string, day: string) => {
      const res = await t.context.request.post(`${base()}/api/fills`, { data: { accountId, symbol: "XYZ", side, quantity: "100", price, fees: "0", executedAt: `${day}T15:00:00Z` } });
      expect(res.status(), await res.text()).toBe(201);
    };
    await fill(a, "buy", "10", "2026-03-02");
    await fill(a, "sell", "7.5", "2026-06-01");
    await fill(b, "buy", "8", "2026-06-15");
    await fill(b, "sell", "11", "2026-09-01");
  }, 60_000);
  afterAll(() => t?.browser.close());

  it("at 1280 px: the washed loss, its replacement's basis, Schedule D and the files", async () => {
    await t.page.goto(`${base()}/tax`);
    await t.page.getByLabel("Tax year").selectOption("2026");
    const lots = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Lots sold in 2026" }) });
    await lots.getByRole("row", { name: /XYZ Broker A .* W \$250\.00/ }).waitFor();
    await lots.getByRole("row", { name: /XYZ Broker B .*\$1,050\.00/ }).waitFor();
    const d = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Schedule D, 2026" }) });
    expect(await d.textContent()).toMatch(/Net \(line 16\)\+\$50\.00/);
    expect(await d.textContent()).toMatch(/Disallowed by wash sales\$250\.00/);
    const csv = await t.context.request.get(`${base()}${await t.page.getByRole("link", { name: "Form 8949 (CSV)" }).getAttribute("href")}`);
    expect(await csv.text()).toContain("I,C,100 sh XYZ,03/02/2026,06/01/2026,750.00,1000.00,W,250.00,0.00");
    const txf = await t.context.request.get(`${base()}${await t.page.getByRole("link", { name: "TXF for tax software" }).getAttribute("href")}`);
    expect((await txf.text()).startsWith("V042\r\n")).toBe(true);
    await t.page.screenshot({ path: `${SCREENSHOTS}tax.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });

  it("at 390 px: the page fits the phone", async () => {
    await t.page.setViewportSize({ width: 390, height: 844 });
    await t.page.goto(`${base()}/tax`);
    await t.page.getByLabel("Tax year").selectOption("2026");
    await t.page.getByRole("heading", { name: "Lots sold in 2026" }).waitFor();
    await t.page.getByText("W $250.00").first().waitFor();
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await t.page.screenshot({ path: `${SCREENSHOTS}tax-phone.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });
});
