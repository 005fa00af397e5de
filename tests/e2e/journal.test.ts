// The main flow a new trader takes, in Chromium against the real Node entrypoint and Postgres:
// register -> create an account -> deposit -> import a broker CSV -> trades, ledger and dashboard figures
// -> undo the import. Each step asserts what the trader sees. Screenshots of the main screens are written to
// test-results/screenshots (`npm run screenshots` copies them to docs/screenshots).
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, SCREENSHOTS } from "./browser.ts";

const FIXTURE = fileURLToPath(new URL("../fixtures/brokers/generic.csv", import.meta.url));
const IBKR_FIXTURE = fileURLToPath(new URL("../fixtures/brokers/ibkr-activity.csv", import.meta.url));

// generic.csv: AAPL bought 100 @ 191.50 and sold @ 192.25 (1.00 fees each way) = +73.00 net;
// ESH24 (x50) sold 1 @ 4812.25 and bought back @ 4803.50 (2.25 fees each way) = +433.00 net.
const NET_PNL = "+$506.00";

describe("a new trader's first session", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (e) => errors.push(e.message));
  });
  afterAll(() => browser?.close());

  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  const go = (path: string) => page.goto(`${inject("baseUrl")}${path}`);
  const ledger = () => page.getByRole("table", { name: /Cash ledger/ });
  /** The Balance column (5th) of the ledger's newest row. */
  const newestBalance = () => ledger().locator("tbody tr").first().locator("td, th").nth(4);

  let accountPath = "";
  const email = `trader-${Date.now()}@example.com`;
  const password = "correct horse battery";

  it("registers and lands on the accounts page with a first-step prompt", async () => {
    await go("/register");
    await expect.poll(() => page.getByRole("heading", { name: "Create your account" }).isVisible()).toBe(true);
    await shot("register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/accounts$/);
    await page.getByRole("heading", { name: "Create your first account" }).waitFor();
  });

  it("creates an account with a starting balance and opens its ledger", async () => {
    await page.getByLabel("Account name").fill("Swing account");
    await page.getByLabel("Starting balance").fill("10000");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/accounts\/[0-9a-f-]{36}$/);
    accountPath = new URL(page.url()).pathname;
    await page.getByRole("heading", { level: 1, name: "Swing account" }).waitFor();
    await expect.poll(() => newestBalance().textContent()).toContain("$10,000.00");
  });

  it("records a deposit, and the running balance follows it", async () => {
    await page.getByRole("radio", { name: "Deposit" }).check();
    await page.getByLabel("Amount").fill("500.05");
    await page.getByRole("button", { name: "Record deposit" }).click();
    await page.getByText("Deposit of $500.05 recorded.").waitFor();
    await expect.poll(() => newestBalance().textContent()).toContain("$10,500.05");
    await expect.poll(() => ledger().locator("tbody tr").count()).toBe(2);
  });

  it("imports a broker CSV: preset detected, preview, commit", async () => {
    const accountId = accountPath.split("/").pop();
    await go(`/import?account=${accountId}`);
    await page.getByLabel("CSV file").setInputFiles(FIXTURE);
    await expect.poll(() => page.locator("p.import-detected").textContent()).toMatch(/Generic/i);
    await page.getByRole("button", { name: "Preview import" }).click();
    await page.getByRole("heading", { name: "3. Preview of generic.csv" }).waitFor();
    const summary = page.getByLabel("Preview summary");
    await expect.poll(() => summary.textContent()).toMatch(/To import\s*4/);
    await shot("import-preview");
    await page.getByRole("button", { name: "Commit import" }).click();
    await page.getByRole("heading", { name: "Import complete" }).waitFor();
    await page.getByRole("table", { name: "Imports into this account, newest first" }).getByRole("cell", { name: "Imported" }).waitFor();
  });

  it("shows the imported trades, and their cash in the ledger", async () => {
    await go("/trades");
    const trades = page.getByRole("table", { name: "Trades, newest opened first" });
    await trades.getByRole("link", { name: "AAPL" }).waitFor();
    await trades.getByRole("link", { name: "ESH24" }).waitFor();
    await shot("flow-trades");
    await trades.getByRole("link", { name: "AAPL" }).click();
    await page.getByRole("heading", { level: 1, name: /AAPL/ }).waitFor();
    await page.getByLabel("Notes").fill("Opening-range breakout, sized small.");
    await page.getByRole("button", { name: "Save journal" }).click();
    await page.getByText("Journal saved.").waitFor();

    await go(accountPath);
    // Four fills plus the deposit and the opening entry; 10,500.05 + 506.00 of net cash from the round trips.
    await expect.poll(() => ledger().locator("tbody tr").count()).toBe(6);
    await expect.poll(() => newestBalance().textContent()).toContain("$11,006.05");
    await shot("flow-account-ledger");
  });

  it("shows the figures on the dashboard: summary, calendar and equity curve", async () => {
    const accountId = accountPath.split("/").pop();
    await go(`/dashboard?account=${accountId}`);
    const summary = page.getByRole("list", { name: "Summary" });
    const card = (label: string) => summary.getByRole("listitem").filter({ has: page.getByText(label, { exact: true }) }).locator(".stat-card__value");
    await expect.poll(() => card("Net P&L").textContent()).toBe(NET_PNL);
    await expect.poll(() => card("Trades").textContent()).toBe("2");
    const day = page.getByRole("table", { name: "Daily net P&L, January 2024" }).locator('td[data-date="2024-01-19"]');
    await expect.poll(() => day.textContent()).toContain(NET_PNL);
    await page.getByRole("img", { name: /Equity curve by day/ }).waitFor();
    await shot("flow-dashboard");
  });

  it("works at phone width: navigation behind a menu button, no sideways scrolling", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await go(accountPath);
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByRole("heading", { name: "P&L calendar" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENSHOTS}flow-dashboard-phone.png` });
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("undoes the import from the history: trades and cash are gone again", async () => {
    const accountId = accountPath.split("/").pop();
    await go(`/import?account=${accountId}`);
    await page.getByRole("button", { name: "Undo import of generic.csv" }).click();
    await page.getByRole("alertdialog", { name: "Undo the import of generic.csv?" }).waitFor();
    await page.getByRole("button", { name: "Yes, undo import" }).click();
    await page.getByRole("table", { name: "Imports into this account, newest first" }).getByRole("cell", { name: "Undone" }).waitFor();

    await go("/trades");
    await page.getByRole("heading", { name: "No trades yet" }).waitFor();
    await go(accountPath);
    await expect.poll(() => ledger().locator("tbody tr").count()).toBe(2);
    await expect.poll(() => newestBalance().textContent()).toContain("$10,500.05");
  });

  it("imports an IBKR statement: money to the cent, one precision per instrument's prices, the cash right", async () => {
    const created = await context.request.post(`${inject("baseUrl")}/api/accounts`, {
      data: { name: "IBKR", currency: "USD", startingBalance: "500000", timezone: "America/New_York" },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await go(`/import?account=${id}`);
    await page.getByLabel("CSV file").setInputFiles(IBKR_FIXTURE);
    await expect.poll(() => page.locator("p.import-detected").textContent()).toMatch(/Activity Statement/i);
    await page.getByRole("button", { name: "Preview import" }).click();
    await page.getByRole("heading", { name: "3. Preview of ibkr-activity.csv" }).waitFor();
    const summary = page.getByLabel("Preview summary");
    // The ES short moves cash by its fee only; the assigned put delivers 100 AAPL at 190; the figures are rounded to the cent.
    await expect.poll(() => summary.textContent()).toContain("-$414,831.15");
    // Skipped rows are counted by reason; the rows themselves are behind a toggle.
    await page.getByRole("list", { name: "Rows skipped, by reason" }).getByText(/currency conversion \(forex\)/).waitFor();
    await page.getByText("Show the skipped rows").click();
    await page.getByRole("table", { name: "Rows left out, with the reason" }).getByText(/currency conversion \(forex\)/).waitFor();
    await page.getByRole("button", { name: "Commit import" }).click();
    await page.getByRole("heading", { name: "Import complete" }).waitFor();

    await go("/trades");
    const trades = page.getByRole("table", { name: "Trades, newest opened first" });
    const aaplRows = trades.locator("tbody tr").filter({ hasText: "IBKR" }).filter({ has: page.getByRole("link", { name: "AAPL", exact: true }) });
    const aapl = aaplRows.filter({ hasText: "192.25" });
    await expect.poll(() => aapl.textContent()).toContain("+$73.00"); // 75 - 2.0036445 of fees
    expect(await aapl.textContent()).toContain("191.50");
    // Options read as a trader writes them, not as their OCC symbols.
    await trades.getByRole("link", { name: "AAPL 16 Feb 24 190 Put", exact: true }).waitFor();
    await trades.getByRole("link", { name: "SPY 16 Feb 24 500 Call", exact: true }).waitFor();
    expect(await trades.getByText(/240216[CP]00/).count()).toBe(0);
    // The put's assignment delivered 100 AAPL at the strike: an open trade of its own.
    await expect.poll(() => aaplRows.filter({ hasText: "190.00" }).count()).toBe(1);
    await go(`/accounts/${id}`);
    await expect.poll(() => newestBalance().textContent()).toContain("$85,168.85");
    expect(await ledger().textContent()).not.toMatch(/\d\.\d{3}/); // no amount beyond the cent
  });

  it("signs out, and signs back in with the keyboard alone", async () => {
    await go("/accounts");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in/);
    // Tab from the top of the page to the email field, type, Tab to the password, Enter submits.
    const focusedLabel = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent?.trim() ?? "");
    for (let i = 0; i < 15 && !(await focusedLabel()).startsWith("Email"); i++) await page.keyboard.press("Tab");
    expect(await focusedLabel()).toMatch(/^Email/);
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    expect(await focusedLabel()).toMatch(/^Password/);
    await page.keyboard.type(password);
    await page.keyboard.press("Enter");
    // Sign-in lands on the dashboard.
    await page.waitForURL(/\/dashboard/);
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    expect(errors).toEqual([]);
  });
});
