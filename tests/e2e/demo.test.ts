// The README's screenshots, from the demo data (`npm run seed:demo`, through the public API) in Chromium
// against the real Node entrypoint: the dashboard at desktop and phone width, the trades list, the account
// with its ledger, and a journaled trade with a chart screenshot. Written to test-results/screenshots;
// `npm run screenshots` copies them to docs/screenshots. The assertions check that each page shows the demo
// history, not an empty journal.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemo } from "../../scripts/seed-demo.ts";
import { pngImage } from "../support/images.ts";
import { launchBrowser, SCREENSHOTS, testClientAddress } from "./browser.ts";
import type { Browser, Page } from "playwright-core";

describe("the demo journal, for the README", () => {
  let browser: Browser;
  let page: Page;
  let accountId = "";
  const errors: string[] = [];
  const base = () => inject("baseUrl");
  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const email = `demo-${Date.now()}@example.com`;
    const password = "demo password 123";
    const seeded = await seedDemo({ url: base(), email, password, now: new Date("2026-11-20T22:00:00Z") });
    accountId = seeded.accountId;
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (e) => errors.push(e.message));
    const login = await context.request.post(`${base()}/api/auth/login`, { data: { email, password }, headers: { "X-Forwarded-For": testClientAddress() } });
    expect(login.status()).toBe(200);
  }, 120_000);
  afterAll(() => browser?.close());

  it("dashboard: months of trades on the curve, the breakdown and the calendar", async () => {
    await page.goto(`${base()}/dashboard?account=${accountId}`);
    await page.locator(".equity__canvas canvas").first().waitFor();
    const trades = page.getByRole("list", { name: "Summary" }).getByRole("listitem").filter({ has: page.getByText("Trades", { exact: true }) });
    await expect.poll(async () => Number((await trades.locator(".stat-card__value").textContent())?.replace(/\D/g, ""))).toBeGreaterThan(50);
    await shot("dashboard");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(".equity__canvas canvas").first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}dashboard-phone.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("trades, the account's ledger, and a journaled trade with its chart", async () => {
    await page.goto(`${base()}/trades`);
    await expect.poll(() => page.locator("table tbody tr").count()).toBeGreaterThan(20);
    await shot("trades");
    await page.goto(`${base()}/accounts/${accountId}`);
    await page.getByRole("table", { name: /Cash ledger/ }).waitFor();
    await shot("account-ledger");

    const list = (await (await page.request.get(`${base()}/api/trades?accountId=${accountId}&status=closed&pageSize=5`)).json()) as { trades: Array<{ id: string }> };
    const tradeId = list.trades[0]!.id;
    const form = { file: { name: "chart.png", mimeType: "image/png", buffer: pngImage({ width: 640, height: 360, rgb: [28, 78, 121] }) } };
    expect((await page.request.post(`${base()}/api/trades/${tradeId}/images`, { multipart: form })).status()).toBe(201);
    await page.goto(`${base()}/trades/${tradeId}`);
    await page.getByRole("button", { name: "Open screenshot 1 of 1" }).waitFor();
    await shot("trade-journal");
    expect(errors).toEqual([]);
  });
});
