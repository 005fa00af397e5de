// The README's screenshots, from the demo data (`npm run seed:demo`, through the public API) in Chromium
// against the real Node entrypoint: the dashboard at desktop and phone width, the trades list, the account
// with its ledger, and a journaled trade with a chart screenshot. Written to test-results/screenshots;
// `npm run screenshots` copies them to docs/screenshots. The assertions check that each page shows the demo
// history, not an empty journal.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemo } from "../../scripts/seed-demo.ts";
import { pngImage } from "../support/images.ts";
import { BROWSER_ARGS, CHROMIUM, launchBrowser, SCREENSHOTS, testClientAddress } from "./browser.ts";
import type { Browser, Page } from "playwright-core";

describe("the demo journal, for the README", () => {
  let browser: Browser;
  let page: Page;
  let accountId = "";
  let credentials = { email: "", password: "" };
  const errors: string[] = [];
  const base = () => inject("baseUrl");
  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const email = `demo-${Date.now()}@example.com`;
    const password = "demo password 123";
    credentials = { email, password };
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

  it("installs as an app: manifest, icons and a service worker that caches the shell and never journal data; every page under 2 s, no console error", async () => {
    const manifest = await page.request.get(`${base()}/manifest.webmanifest`);
    expect(manifest.status()).toBe(200);
    expect(manifest.headers()["content-type"]).toContain("application/manifest+json");
    const body = (await manifest.json()) as { name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string; purpose: string }> };
    expect(body).toMatchObject({ name: "Trading Journal", start_url: "/dashboard", display: "standalone" });
    for (const icon of body.icons) {
      const png = await page.request.get(`${base()}${icon.src}`);
      expect(png.headers()["content-type"], icon.src).toBe("image/png");
      const bytes = await png.body();
      // The PNG header's width and height are the sizes the manifest says.
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }

    // A profile on disk, as a trader's browser has: Chromium never offers to install from an incognito one.
    const profile = mkdtempSync(join(tmpdir(), "journal-profile-"));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS, viewport: { width: 1280, height: 900 } });
    try {
      await installable(context);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  async function installable(context: BrowserContext) {
    const login = await context.request.post(`${base()}/api/auth/login`, { data: credentials, headers: { "X-Forwarded-For": testClientAddress() } });
    expect(login.status()).toBe(200);
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(`${page.url()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => consoleErrors.push(e.message));
    await page.goto(`${base()}/dashboard?account=${accountId}`);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(`${base()}/sw.js`);
    // Chromium's own installability check, the one Lighthouse reports.
    const cdp = await context.newCDPSession(page);
    await expect.poll(async () => ((await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: Array<{ errorId: string }> }).installabilityErrors.map((e) => e.errorId)).toEqual([]);

    // Every page on the demo data, once the service worker controls them: loaded, drawn and quiet within 2 s.
    const trade = ((await (await page.request.get(`${base()}/api/trades?accountId=${accountId}&pageSize=1`)).json()) as { trades: Array<{ id: string }> }).trades[0]!.id;
    const pages = [`/dashboard?account=${accountId}`, "/trades", `/trades/${trade}`, "/accounts", `/accounts/${accountId}`, `/accounts/${accountId}/fills`, "/import", "/journal", "/playbooks", "/rules", "/insights", "/advisor", "/settings/account", "/whats-new"];
    const slow: string[] = [];
    const timings: string[] = [];
    // A page's time: from asking for it to the end of its last request (the wait for the network to stay
    // quiet is not counted).
    let lastFinished = 0;
    page.on("requestfinished", () => (lastFinished = Date.now()));
    page.on("requestfailed", () => (lastFinished = Date.now()));
    for (const path of pages) {
      const started = Date.now();
      await page.goto(`${base()}${path}`, { waitUntil: "networkidle" });
      await page.locator("main h1").first().waitFor();
      const ms = lastFinished - started;
      timings.push(`${path.split("?")[0]} ${ms} ms`);
      if (ms > 2000) slow.push(`${path}: ${ms} ms`);
    }
    console.log(`page loads on the demo data: ${timings.join(", ")}`);
    expect(slow).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // The cache holds the app's own files only: no answer of the API, no runtime config.
    const cached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
      return paths;
    });
    expect(cached).toContain("/index.html");
    expect(cached.some((p) => p.startsWith("/assets/"))).toBe(true);
    expect(cached.filter((p) => !(p.startsWith("/assets/") || p.startsWith("/icons/") || ["/index.html", "/manifest.webmanifest", "/favicon.svg"].includes(p)))).toEqual([]);

    // Offline, the shell still opens and says it cannot reach the journal (no stale journal data shown).
    await context.setOffline(true);
    await page.goto(`${base()}/trades`);
    await page.getByText("Could not reach the journal.").waitFor();
  }
});
