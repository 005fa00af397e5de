// The content policy in Chromium (docs/web.md, "Content policy"): every screen of the browser app, signed out
// and signed in (an administrator with an account, trades, a screenshot, a playbook, a rule, a journal day and
// an advisor conversation), plus the API reference page, loads with zero Content-Security-Policy violations
// under the strict policy the server sends (`script-src 'self'`, no inline script or style element).
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pngImage } from "../support/images.ts";
import { runCliProcess } from "../support/cli.ts";
import { signedInTrader, type TraderPage } from "./browser.ts";

const base = () => inject("baseUrl");

/**
 * A page is settled when it has loaded, shows its heading (`ready`: lazy chunks and data in), and every image on
 * it has finished loading or failing: by then anything the policy blocks has been reported. (Not "networkidle":
 * under a loaded machine a page's background requests can keep it from ever idling.)
 */
async function settle(page: Page, ready: Locator): Promise<void> {
  await page.waitForLoadState("load");
  await ready.waitFor();
  // Lazy images below the fold load only when scrolled to: they are not waited for.
  await page.waitForFunction(() => [...document.images].every((img) => img.complete || img.loading === "lazy"));
}

/** Collects every violation the page reports (the event fires for blocked and report-only alike). */
const LISTEN = () => {
  const w = window as unknown as { __violations: string[] };
  w.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
};

describe("the content policy on every screen", () => {
  let t: TraderPage;
  const ids: Record<string, string> = {};
  const console: string[] = [];

  beforeAll(async () => {
    t = await signedInTrader(base(), "csp");
    await t.context.addInitScript(LISTEN);
    t.page.on("console", (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) console.push(m.text());
    });
    const api = async <T,>(method: "post" | "put" | "patch", path: string, data?: unknown): Promise<T> => {
      const res = await t.context.request[method](`${base()}${path}`, data === undefined ? {} : { data: data as Record<string, unknown> });
      if (res.status() >= 300) throw new Error(`${method} ${path} answered ${res.status()}: ${await res.text()}`);
      return (await res.json()) as T;
    };
    const promoted = await runCliProcess(inject("e2eDatabaseUrl"), ["promote-admin", t.email]);
    expect(promoted.code, promoted.out).toBe(0);
    ids.account = (await api<{ id: string }>("post", "/api/accounts", { name: "Main", currency: "USD", startingBalance: "25000", timezone: "America/New_York" })).id;
    for (const [side, price, at] of [["buy", "100", "2026-11-23T15:00:00Z"], ["sell", "104", "2026-11-23T16:00:00Z"]] as const) {
      await api("post", "/api/fills", { accountId: ids.account, symbol: "AAPL", side, quantity: "50", price, fees: "1", executedAt: at });
    }
    const trades = await t.context.request.get(`${base()}/api/trades?accountId=${ids.account}`);
    ids.trade = ((await trades.json()) as { trades: Array<{ id: string }> }).trades[0]!.id;
    await t.context.request.post(`${base()}/api/trades/${ids.trade}/images`, { multipart: { file: { name: "shot.png", mimeType: "image/png", buffer: Buffer.from(pngImage()) } } });
    await api("patch", `/api/trades/${ids.trade}`, { notes: "A clean breakout", tags: ["breakout"], stopPrice: "98" });
    await api("post", "/api/playbooks", { name: "ORB", items: [{ kind: "checkbox", label: "Volume" }] });
    await api("post", "/api/rules", { accountId: ids.account, rule: { type: "max_trades_per_day", count: 3 } });
    await api("put", `/api/days/${ids.account}/2026-11-23`, { plan: "Trade the open", mood: 4 });
  });
  afterAll(() => t?.browser.close());

  const violations = async () => (await t.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)) ?? [];

  it("sends the strict policy with the app's pages and the API's with its JSON", async () => {
    const page = await t.context.request.get(`${base()}/dashboard`);
    const policy = page.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toContain("unsafe-inline");
    const json = await t.context.request.get(`${base()}/api/accounts`);
    expect(json.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  });

  it("every screen loads with no violation", async () => {
    const screens = [
      "/dashboard",
      "/dashboard?unit=r",
      "/accounts",
      `/accounts/${ids.account}`,
      `/accounts/${ids.account}/fills`,
      "/trades",
      `/trades/${ids.trade}`,
      "/fills/new",
      "/notes/detached",
      "/import",
      "/playbooks",
      "/journal",
      "/rules",
      "/insights",
      "/advisor",
      "/settings/account",
      "/settings/sessions",
      "/settings/keys",
      "/settings/billing",
      "/whats-new",
      "/admin",
      "/admin/stats",
      "/admin/audit",
      "/no-such-page",
    ];
    const found: string[] = [];
    for (const path of screens) {
      await t.page.goto(`${base()}${path}`);
      await settle(t.page, t.page.locator("h1").first());
      for (const v of await violations()) found.push(`${path}: ${v}`);
    }
    // The set-up of two-factor sign-in draws its QR code; the settings panels open their forms.
    await t.page.goto(`${base()}/settings/account`);
    await t.page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await t.page.getByRole("img", { name: "QR code of your authenticator secret" }).waitFor();
    for (const v of await violations()) found.push(`/settings/account (2FA setup): ${v}`);
    expect(found).toEqual([]);
    expect(console).toEqual([]);
    expect(t.errors).toEqual([]);
  });

  it("the pages a signed-out visitor sees, and the API reference, load with no violation", async () => {
    const anonymous = await t.browser.newContext();
    await anonymous.addInitScript(LISTEN);
    const page = await anonymous.newPage();
    page.setDefaultTimeout(20_000);
    const found: string[] = [];
    for (const path of ["/sign-in", "/register", "/forgot-password", "/reset-password?token=x", "/verify-email?token=x", "/api/docs"]) {
      await page.goto(`${base()}${path}`);
      await settle(page, path === "/api/docs" ? page.getByText("Trading Journal API").first() : page.locator("h1").first());
      const seen = (await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)) ?? [];
      for (const v of seen) found.push(`${path}: ${v}`);
    }
    await anonymous.close();
    expect(found).toEqual([]);
  });
});
