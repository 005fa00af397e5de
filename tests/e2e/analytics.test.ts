// Browser analytics and the feedback tab, end to end: the built app served by the real Node entrypoint
// with the ANALYTICS_PUBLIC_* variables pointing at a local stand-in ingestion host, driven in Chromium.
// Assertions are on what the stand-in actually received.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { readProcessEnv } from "../../lib/config/index.ts";
import { startAnalyticsIngestServer, type AnalyticsIngestServer, type IngestedEvent } from "../support/analytics-ingest-server.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startEntrypoint, type Entrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { launchBrowser } from "./browser.ts";

const SURVEY = "survey-e2e:q-rating:q-text";

// The analytics library drops events from automated browsers (navigator.webdriver, a "HeadlessChrome"
// user agent). The product keeps that filter; the test presents as an ordinary desktop Chrome instead.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

/** Records every cookie and Web Storage write made from page scripts, before any app code runs. */
function recordStorageWrites() {
  const w = window as unknown as { __storageWrites: string[] };
  w.__storageWrites = [];
  Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false });
  Object.defineProperty(Navigator.prototype, "userAgentData", { get: () => undefined });
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key: string, value: string) {
    w.__storageWrites.push(`${this === window.sessionStorage ? "sessionStorage" : "localStorage"}:${key}`);
    return setItem.call(this, key, value);
  };
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, "cookie")!;
  Object.defineProperty(Document.prototype, "cookie", {
    get() {
      return cookie.get!.call(this);
    },
    set(value: string) {
      w.__storageWrites.push(`cookie:${value.split("=")[0]}`);
      cookie.set!.call(this, value);
    },
  });
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ userAgent: USER_AGENT });
  await context.addInitScript(recordStorageWrites);
  return context;
}

async function analyticsEnv(extra: Record<string, string>, databaseUrl: string): Promise<Record<string, string>> {
  const { PATH } = await readProcessEnv({ dotenvPath: false });
  return { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: databaseUrl, ...extra };
}

function pageviews(events: IngestedEvent[]): IngestedEvent[] {
  return events.filter((e) => e.event === "$pageview");
}

// The one write the library makes: at start it checks that localStorage works by writing this key and
// removing it at once. Nothing is kept (the storage-length checks below), so it is the only write allowed.
const SUPPORT_PROBE = "localStorage:__mplssupport__";

async function storageState(page: Page, allowProbe = true) {
  const probe = allowProbe ? SUPPORT_PROBE : "";
  return page.evaluate((probe) => ({
    writes: (window as unknown as { __storageWrites: string[] }).__storageWrites.filter((w) => w !== probe),
    localStorage: window.localStorage.length,
    sessionStorage: window.sessionStorage.length,
    documentCookie: document.cookie,
  }), probe);
}

describe("browser analytics and the feedback tab", () => {
  let browser: Browser;
  let ingest: AnalyticsIngestServer;
  let db: { name: string; url: string };
  let withKey: Entrypoint;
  let withoutKey: Entrypoint;

  beforeAll(async () => {
    [browser, ingest, db] = await Promise.all([launchBrowser(), startAnalyticsIngestServer(), createMigratedDatabase("journal_e2e_analytics")]);
    const analytics = { ANALYTICS_PUBLIC_HOST: ingest.url, ANALYTICS_PUBLIC_FEEDBACK_SURVEY: SURVEY, ANALYTICS_PUBLIC_ENVIRONMENT: "e2e" };
    // One at a time: both run migrations on the same database at start.
    withKey = await startEntrypoint(await analyticsEnv({ ...analytics, ANALYTICS_PUBLIC_KEY: "phc_e2e_project_key" }, db.url));
    // Everything configured except the key: host, survey and environment must then do nothing.
    withoutKey = await startEntrypoint(await analyticsEnv(analytics, db.url));
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([withKey?.stop(), withoutKey?.stop()]);
    await ingest?.close();
    if (db) await dropDatabase(db.name);
  });

  it("sends a pageview per route change and web vitals, with sanitised URLs and no storage, cookies or autocapture", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (r: Request) => requested.push(r.url()));
    const app = withKey.url;
    const email = `analytics-${Date.now()}@example.com`;

    // Arrive from a foreign page whose full URL (path and query) is the referrer.
    await page.goto(ingest.landingUrl(`${app}/sign-in?from=mail&ref=42#private-fragment`, "localhost"));
    await page.click("#go");
    await page.getByRole("heading", { name: /sign in/i }).waitFor();
    await expect.poll(() => pageviews(ingest.events).length, { timeout: 15_000 }).toBe(1);

    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${app}/accounts`);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Trades" }).click();
    await page.waitForURL(`${app}/trades`);
    await nav.getByRole("link", { name: "Import" }).click();
    await page.waitForURL(`${app}/import`);

    await expect
      .poll(() => pageviews(ingest.events).map((e) => e.properties.$pathname), { timeout: 15_000 })
      .toEqual(["/sign-in", "/register", "/accounts", "/trades", "/import"]);
    // Web vitals are batched for up to 5 s after the first metric.
    await expect.poll(() => ingest.events.some((e) => e.event === "$web_vitals"), { timeout: 20_000 }).toBe(true);

    const views = pageviews(ingest.events);
    expect(views[0]!.properties.$current_url).toBe(`${app}/sign-in?from=mail&ref=42`);
    expect(views[1]!.properties.$current_url).toBe(`${app}/register`);
    for (const e of ingest.events) {
      const raw = JSON.stringify(e);
      expect(raw, e.event).not.toContain("private-fragment");
      expect(raw, e.event).not.toContain("/landing");
      expect(raw, e.event).not.toContain(email);
      expect(e.properties.$geoip_disable, e.event).toBe(true);
      expect(e.properties.environment, e.event).toBe("e2e");
      expect(e.properties.$process_person_profile, e.event).toBe(false);
      // Anonymous: no person properties at all.
      expect([e.$set, e.$set_once], e.event).toEqual([undefined, undefined]);
      // Referrer properties carry the referring hostname and nothing else.
      for (const [key, value] of Object.entries(e.properties)) {
        if (/referr/i.test(key)) expect([`${key}=localhost`, `${key}=$direct`], e.event).toContain(`${key}=${String(value)}`);
      }
    }
    expect(views[0]!.properties.$referrer).toBe("localhost");
    expect(views[0]!.properties.$referring_domain).toBe("localhost");

    // Only the allowed events, only the capture endpoint: no flags, remote config, surveys or scripts.
    expect(new Set(ingest.events.map((e) => e.event))).toEqual(new Set(["$pageview", "$web_vitals"]));
    for (const r of ingest.requests.filter((r) => r.method !== "OPTIONS")) expect(`${r.method} ${r.path}`).toMatch(/^POST \/(e|i\/v0\/e|batch|capture)\/?$/);

    // The library came in its own chunk (the case without a key checks that chunk is never fetched).
    expect(requested.filter((u) => /\/assets\/analytics-client-[^/]*\.js$/.test(u))).toHaveLength(1);

    const state = await storageState(page);
    expect(state).toEqual({ writes: [], localStorage: 0, sessionStorage: 0, documentCookie: "" });
    // The only cookie is the app's own HttpOnly session cookie, set by the server.
    expect((await context.cookies()).filter((c) => !c.httpOnly)).toEqual([]);
    await context.close();
  });

  it("sends one anonymous, scrubbed survey answer from the feedback dialog", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${withKey.url}/sign-in`);
    const before = ingest.events.length;

    const tab = page.getByRole("button", { name: "Feedback" });
    await tab.click();
    const dialog = page.getByRole("dialog", { name: "Send feedback" });
    await dialog.waitFor();
    // Escape closes the dialog and focus goes back to the tab.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await tab.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await dialog.getByRole("radio", { name: "4" }).check();
    const secretKey = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
    const hexKey = "0f".repeat(32);
    await dialog
      .getByLabel(/Anything else/)
      .fill(`Import broke. Reach me at trader.jane@example.org. My key ${secretKey}, header Authorization: Bearer abc.def.ghi123, ENCRYPTION_KEY=${hexKey}. Loving the P&L chart for AAPL at 187.25!`);
    await dialog.getByRole("button", { name: "Send feedback" }).click();
    await dialog.getByText("Thank you for your feedback.").waitFor();

    await expect.poll(() => ingest.events.slice(before).filter((e) => e.event === "survey sent").length, { timeout: 15_000 }).toBe(1);
    const sent = ingest.events.slice(before).find((e) => e.event === "survey sent")!;
    const text = sent.properties["$survey_response_q-text"] as string;
    expect(sent.properties.$survey_id).toBe("survey-e2e");
    expect(sent.properties["$survey_response_q-rating"]).toBe(4);
    expect(text).toContain("[email]");
    expect(text).toContain("Loving the P&L chart for AAPL at 187.25!");
    for (const secret of ["trader.jane@example.org", secretKey, "abc.def.ghi123", hexKey]) expect(JSON.stringify(sent)).not.toContain(secret);
    expect(sent.properties.environment).toBe("e2e");
    expect(sent.properties.$process_person_profile).toBe(false);
    expect([sent.$set, sent.$set_once]).toEqual([undefined, undefined]);
    expect(await storageState(page)).toEqual({ writes: [], localStorage: 0, sessionStorage: 0, documentCookie: "" });
    await context.close();
  });

  it("loads nothing and shows no feedback tab without a key", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const app = new URL(withoutKey.url).origin;
    const requested: string[] = [];
    page.on("request", (r: Request) => requested.push(r.url()));
    const before = ingest.requests.length;

    await page.goto(`${withoutKey.url}/sign-in?from=mail#x`);
    await page.getByRole("heading", { name: /sign in/i }).waitFor();
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    // Longer than the library's batching interval, so a request it would have made has been made.
    await page.waitForTimeout(4_000);

    expect(await page.evaluate(() => typeof (window as { __JOURNAL_CONFIG__?: { analytics?: { key?: unknown } } }).__JOURNAL_CONFIG__?.analytics?.key)).toBe("object");
    expect(requested.filter((u) => new URL(u).origin !== app)).toEqual([]);
    // The analytics library lives in its own chunk (analytics/analytics-client.ts); it must not even be fetched.
    const scripts = requested.filter((u) => u.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((u) => /\/assets\/analytics-client-/.test(u))).toEqual([]);
    expect(ingest.requests.length).toBe(before);
    expect(await page.getByRole("button", { name: "Feedback" }).count()).toBe(0);
    expect(await storageState(page, false)).toEqual({ writes: [], localStorage: 0, sessionStorage: 0, documentCookie: "" });
    await context.close();
  });
});
