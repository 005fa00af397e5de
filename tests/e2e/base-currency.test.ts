// One base currency in Chromium against the real server (issue 55; docs/currencies.md): a EUR account and a USD
// account, the base chosen in Settings, and the dashboard's "All accounts (EUR)" total at 1280 and 390 px, the
// rates used listed in Settings with their source.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SCREENSHOTS, signedInTrader, type TraderPage } from "./browser.ts";

describe("one base currency: two accounts, one total", () => {
  let t: TraderPage;
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "base-currency");
    const post = async (path: string, data: unknown) => {
      const res = await t.context.request.post(`${base()}${path}`, { data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: string };
    };
    const eur = await post("/api/accounts", { name: "DEGIRO", currency: "EUR", timezone: "Europe/Berlin" });
    const usd = await post("/api/accounts", { name: "IBKR", currency: "USD", timezone: "America/New_York" });
    // EUR: +20.00 on Thursday 2026-03-05. USD: +110.60 closed Friday 2026-03-06 (1.106 USD per EUR): +100.00 EUR.
    for (const [accountId, day, pnl] of [[eur.id, "2026-03-05", 20], [usd.id, "2026-03-06", 110.6]] as const) {
      await post("/api/fills", { accountId, symbol: "SPY", side: "buy", quantity: "1", price: "1000", executedAt: `${day}T15:00:00Z` });
      await post("/api/fills", { accountId, symbol: "SPY", side: "sell", quantity: "1", price: (1000 + pnl).toFixed(2), executedAt: `${day}T16:00:00Z` });
    }
  }, 60_000);
  afterAll(() => t?.browser.close());

  const netCard = () => t.page.getByRole("list", { name: /Summary/ }).getByRole("listitem").filter({ hasText: /^Net P&L/ }).textContent();

  it("before a base: each currency on its own, and Settings offers the base", async () => {
    await t.page.goto(`${base()}/dashboard`);
    await t.page.getByText(/Your accounts are in EUR, USD/).waitFor();
    await t.page.goto(`${base()}/settings/currency`);
    await t.page.getByRole("combobox", { name: "Base currency" }).selectOption("EUR");
    await t.page.getByRole("button", { name: "Save" }).click();
    await t.page.getByText("Figures can now be shown in EUR.").waitFor();
    // The rates used: the USD day, at the ECB's rate through the rate service.
    await t.page.getByLabel("From").fill("2026-03-01");
    await t.page.getByLabel("To", { exact: true }).fill("2026-03-31");
    const row = t.page.getByRole("table", { name: /Rates used/ }).locator("tbody tr").first();
    await expect.poll(() => row.textContent()).toMatch(/2026-03-06.*USD.*1\.106.*2026-03-06.*ECB reference/);
    expect(t.errors).toEqual([]);
  });

  it("at 1280 px: the dashboard opens on All accounts (EUR) with the converted total", async () => {
    await t.page.goto(`${base()}/dashboard`);
    const scope = t.page.getByLabel("Account");
    await expect.poll(async () => (await scope.locator("option:checked").textContent()) ?? "").toBe("All accounts (EUR)");
    await t.page.getByRole("heading", { name: "Summary in EUR" }).waitFor();
    await expect.poll(netCard).toMatch(/120\.00/);
    expect(await t.page.getByRole("listitem").filter({ hasText: /^Net P&L/ }).getAttribute("title")).toMatch(/Converted to EUR/);
    await t.page.screenshot({ path: `${SCREENSHOTS}base-currency-dashboard.png`, fullPage: true });
    // One currency on its own is still there.
    await scope.selectOption({ label: "All USD accounts" });
    await expect.poll(netCard).toMatch(/110\.60/);
    expect(t.errors).toEqual([]);
  });

  it("at 390 px: the same total fits the phone", async () => {
    await t.page.setViewportSize({ width: 390, height: 844 });
    await t.page.goto(`${base()}/dashboard?currency=base`);
    await expect.poll(netCard).toMatch(/120\.00/);
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await t.page.goto(`${base()}/settings/currency`);
    await t.page.getByRole("heading", { name: "Rates used" }).waitFor();
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await t.page.screenshot({ path: `${SCREENSHOTS}base-currency-phone.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });
});
