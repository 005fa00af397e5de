// Option strategies in Chromium against the real server (issue 53; docs/options.md): a week of tastytrade option
// orders imported through the import page shows as strategies, an iron condor as one with its payoff diagram and
// four legs, at 1280 px and at 390 px (nothing scrolls sideways); the dashboard counts it once when asked.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SCREENSHOTS, signedInTrader, type TraderPage } from "./browser.ts";

const FIXTURE = fileURLToPath(new URL("../fixtures/options/tastytrade-strategies.csv", import.meta.url));

describe("option strategies: a condor as one trade", () => {
  let t: TraderPage;
  let accountId = "";
  const base = () => inject("baseUrl");
  const condorLink = () => t.page.getByRole("link", { name: "IWM · Iron condor (credit)" });

  beforeAll(async () => {
    t = await signedInTrader(base(), "strategies");
    const res = await t.context.request.post(`${base()}/api/accounts`, { data: { name: "Options", currency: "USD", startingBalance: "25000", timezone: "America/New_York" } });
    expect(res.status()).toBe(201);
    accountId = ((await res.json()) as { id: string }).id;
  }, 60_000);
  afterAll(() => t?.browser.close());

  it("imports the file: its orders show as six strategies, the condor one of them", async () => {
    await t.page.goto(`${base()}/import?account=${accountId}`);
    await t.page.getByLabel("CSV file").setInputFiles(FIXTURE);
    await expect.poll(() => t.page.locator("p.import-detected").textContent()).toMatch(/tastytrade/i);
    await t.page.getByRole("button", { name: "Preview import" }).click();
    await t.page.getByRole("button", { name: "Commit import" }).click();
    await t.page.getByRole("heading", { name: "Import complete" }).waitFor();

    await t.page.goto(`${base()}/trades`);
    await t.page.getByRole("navigation", { name: "Trades views" }).getByRole("link", { name: "Option strategies" }).click();
    const table = t.page.getByRole("table", { name: /^Strategies/ });
    await expect.poll(() => table.locator("tbody tr").count()).toBe(6);
    await condorLink().waitFor();
    expect(t.errors).toEqual([]);
  });

  it("at 1280 px: the condor's page has its figures, the payoff diagram and its four legs", async () => {
    await condorLink().click();
    await t.page.getByRole("heading", { level: 1, name: "IWM · Iron condor (credit)" }).waitFor();
    const payoff = t.page.getByRole("img", { name: /At expiry/ });
    await payoff.waitFor();
    expect(await payoff.getAttribute("aria-labelledby")).toBeTruthy();
    const caption = await t.page.locator("figure.payoff figcaption").textContent();
    expect(caption).toContain("at most +$140.00");
    expect(caption).toContain("at worst -$360.00");
    expect(caption).toContain("breakeven at 183.60 and 206.40");
    // The line bends at the four strikes: each is marked on the axis.
    for (const strike of ["180.00", "185.00", "205.00", "210.00"]) await payoff.getByText(strike, { exact: true }).waitFor();
    const legs = t.page.locator("table.legs-table tbody tr");
    await expect.poll(() => legs.count()).toBe(4);
    expect(await t.page.locator("table.legs-table tbody th").allTextContents()).toEqual(["IWM 16 Feb 24 180 Put", "IWM 16 Feb 24 185 Put", "IWM 16 Feb 24 205 Call", "IWM 16 Feb 24 210 Call"]);
    await t.page.screenshot({ path: `${SCREENSHOTS}strategy-condor.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });

  it("at 390 px: the same page fits the phone, the diagram within the screen", async () => {
    await t.page.setViewportSize({ width: 390, height: 844 });
    await t.page.reload();
    const payoff = t.page.getByRole("img", { name: /At expiry/ });
    await payoff.waitFor();
    const box = (await payoff.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expect.poll(() => t.page.locator("table.legs-table tbody tr").count()).toBe(4);
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await t.page.goto(`${base()}/strategies`);
    await condorLink().waitFor();
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await t.page.screenshot({ path: `${SCREENSHOTS}strategies-phone.png`, fullPage: true });
    expect(t.errors).toEqual([]);
  });

  it("the dashboard counts each strategy once when asked: six, not eleven", async () => {
    await t.page.setViewportSize({ width: 1280, height: 900 });
    await t.page.goto(`${base()}/dashboard?account=${accountId}`);
    const trades = () => t.page.getByRole("list", { name: "Summary" }).getByRole("listitem").filter({ hasText: /^Trades/ }).textContent();
    await expect.poll(trades).toMatch(/^Trades11/);
    await t.page.getByRole("radio", { name: "Each strategy" }).click();
    await expect.poll(trades).toMatch(/^Trades6/);
    expect(new URL(t.page.url()).searchParams.get("count")).toBe("strategy");
    expect(t.errors).toEqual([]);
  });
});
