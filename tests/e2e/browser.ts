// Debian's Chromium driven by playwright-core (`npx playwright install` cannot download browsers here;
// .ci/run installs the `chromium` package).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** Where the browser tests write their screenshots (`npm run screenshots` copies them to docs/screenshots). */
export const SCREENSHOTS = fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url));

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this machine's
// closed network refuses.
export const BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
}

/** A documentation-range address (RFC 5737), different on each call. */
export function testClientAddress(): string {
  return `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
}

export type PageOptions = { width?: number; timezoneId?: string };

/**
 * A context and its page at desktop width or the width given (390: a phone), from an address of its own (the
 * server trusts the loopback proxy in the e2e setup, so the per-client limits, five sign-ups and ten sign-ins per
 * 15 minutes, hold for each test trader, not for the whole suite); the page's uncaught errors are collected in
 * `errors`.
 */
export async function openPage(browser: Browser, { width = 1280, timezoneId }: PageOptions = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width, height: width <= 480 ? 844 : 900 },
    extraHTTPHeaders: { "X-Forwarded-For": testClientAddress() },
    ...(timezoneId ? { timezoneId } : {}),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Registers a trader through the API in `context` (signed in there from then on), `tag` in the email. */
export async function registerTrader(context: BrowserContext, baseUrl: string, tag: string): Promise<{ email: string; password: string }> {
  const email = `${tag}-${Date.now()}@example.com`;
  const password = "correct horse battery";
  const reg = await context.request.post(`${baseUrl}/api/auth/register`, { data: { email, password } });
  if (reg.status() !== 201) throw new Error(`register answered ${reg.status()}`);
  return { email, password };
}

export type TraderPage = { browser: Browser; context: BrowserContext; page: Page; errors: string[]; email: string; password: string };

/** A browser of its own with one signed-in trader (openPage, then registerTrader). */
export async function signedInTrader(baseUrl: string, tag: string, width = 1280, options: Omit<PageOptions, "width"> = {}): Promise<TraderPage> {
  const browser = await launchBrowser();
  const { context, page, errors } = await openPage(browser, { width, ...options });
  return { browser, context, page, errors, ...(await registerTrader(context, baseUrl, tag)) };
}
