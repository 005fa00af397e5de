// A prop-firm evaluation in Chromium against the real server (issue 56; docs/prop-firms.md): a preset chosen on
// the account page with one figure edited, trades in, and the "path to funding" panel at 1280 and 390 px.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SCREENSHOTS, signedInTrader, type TraderPage } from "./browser.ts";

describe("prop-firm accounts: the path to funding", () => {
  let t: TraderPage;
  let accountId = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "prop-firms");
    const res = await t.context.request.post(`${base()}/api/accounts`, { data: { name: "Topstep 50K", currency: "USD", timezone: "America/Chicago" } });
    expect(res.status(), await res.text()).toBe(201);
    accountId = ((await res.json()) as { id: string }).id;
  }, 60_000);
  afterAll(() => t?.browser.close());

  const fill = async (side: "buy" | "sell", price: string, executedAt: string) => {
    const res = await t.context.request.post(`${base()}/api/fills`, { data: { accountId, symbol: "ESM6", side, quantity: "1", price, executedAt } });
    expect(res.status(), await res.text()).toBe(201);
  };

  it("at 1280 px: a preset chosen and edited, then the panel after the trades, breached on its fill", async () => {
    await t.page.goto(`${base()}/accounts/${accountId}`);
    const panel = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Path to funding" }) });
    await panel.getByLabel("Firm and account").selectOption({ label: "Topstep: Trading Combine 50K" });
    await panel.getByLabel("First trading day").fill("2026-03-02");
    // Their account's drawdown is 2,500, not the preset's 2,000.
    await panel.getByLabel("Maximum drawdown").fill("2500");
    await panel.getByRole("button", { name: "Save the rules" }).click();
    await panel.getByText("Active").waitFor();
    expect(await panel.textContent()).toMatch(/Floor\$?47,500\.00/);

    // +1,000 on Monday; -1,100 on Tuesday: the daily loss limit (1,000) is reached on the losing fill.
    await fill("buy", "5000", "2026-03-02T15:00:00Z");
    await fill("sell", "5020", "2026-03-02T16:00:00Z");
    await fill("buy", "5020", "2026-03-03T15:00:00Z");
    await fill("sell", "4998", "2026-03-03T16:00:00Z");
    await t.page.reload();
    await panel.getByText("Breached", { exact: true }).waitFor();
    await panel.getByText(/Breached the daily loss limit at .*, on a fill\./).waitFor();
    expect(await panel.textContent()).toMatch(/Trading days2 of 2 at least/);
    await t.page.screenshot({ path: `${SCREENSHOTS}prop-firms-panel.png`, fullPage: true });
    // A fee in the ledger, and the dashboard's Path to funding: the account's state and the firms' cost.
    const fee = await t.context.request.post(`${base()}/api/ledger/${accountId}/entries`, { data: { type: "prop_fee", amount: "49", note: "Combine, March" } });
    expect(fee.status(), await fee.text()).toBe(201);
    await t.page.goto(`${base()}/dashboard`);
    const dashboard = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Path to funding" }) });
    await dashboard.getByText("Breached", { exact: true }).waitFor();
    await dashboard.getByText(/In USD, over 1 account: \$49\.00 in fees, \$0\.00 in payouts, net -\$49\.00 \(-100\.0% on the fees\)\./).waitFor();
    expect(t.errors).toEqual([]);
  });

  it("at 390 px: the panel fits the phone", async () => {
    await t.page.setViewportSize({ width: 390, height: 844 });
    await t.page.goto(`${base()}/accounts/${accountId}`);
    const panel = t.page.locator("section", { has: t.page.getByRole("heading", { name: "Path to funding" }) });
    await panel.getByText("Breached", { exact: true }).waitFor();
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await t.page.screenshot({ path: `${SCREENSHOTS}prop-firms-phone.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });
});
