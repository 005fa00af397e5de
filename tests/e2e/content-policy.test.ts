// Every screen in Chromium: the content policy (docs/web.md, "Content policy"): every screen of the browser app,
// signed out and signed in (an administrator with an account, trades, a screenshot, a playbook, a rule, a journal
// day and an advisor conversation), plus the API reference page, loads with zero Content-Security-Policy
// violations under the strict policy the server sends (`script-src 'self'`, no inline script or style element).
// And the screen fit (docs/web.md, "Screen fit"): at 1280 pixels every table fits its panel, at 390 every table
// fits the screen too (read as cards where it is wide: no column waits off-screen with nothing to say so), at both
// no cell cuts its text and no button or field leaves its panel.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pngImage } from "../support/images.ts";
import { runCliProcess } from "../support/cli.ts";
import { signedInTrader, type TraderPage } from "./browser.ts";

const base = () => inject("baseUrl");
/** Broker files with stocks, options, futures, long execution ids and skipped rows: the import preview's widest tables. */
const fixturePath = (id: string) => fileURLToPath(new URL(`../fixtures/brokers/${id}.csv`, import.meta.url));
const IBKR_FIXTURE = fixturePath("ibkr-activity");
const PREVIEWED = ["ibkr-activity", "schwab", "tradovate"];

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

/**
 * What on the page is cut or sticks out: a table wider than its box, whether that box scrolls sideways or not (a
 * table fits its panel on a desktop, and on a phone a wide one is read as cards: a column scrolled off a phone's
 * screen is a figure the trader never sees), any element of a table (the cells and what they hold) whose text is
 * wider than it and clipped, and any button, field or link of a panel or card that reaches past its edge or past
 * its own place in the form (a row of buttons wider than its grid cell).
 * Visually hidden elements (1 pixel wide, for screen readers) and the charts' own layout tables are not looked at.
 */
const OVERFLOWS = (wide: boolean) => {
  const found: string[] = [];
  const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.split(" ")[0]}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
  const hidden = (el: Element) => (el as HTMLElement).offsetWidth <= 1 || el.closest(".visually-hidden") !== null;
  for (const table of document.querySelectorAll("table")) {
    // A chart's canvas is laid out in a table of lightweight-charts' own, sized by the library as it draws.
    if (hidden(table) || table.querySelector("canvas")) continue;
    const box = table.parentElement!;
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(box).overflowX);
    const over = table.getBoundingClientRect().right - box.getBoundingClientRect().right;
    const name = table.querySelector("caption")?.textContent || table.getAttribute("aria-label") || table.className || table.querySelector("th")?.textContent;
    if (!scrolls && over > 1) found.push(`table "${name}" sticks out of its box by ${Math.round(over)} px`);
    if (scrolls && box.scrollWidth > box.clientWidth + 1) {
      found.push(wide ? `table "${name}" scrolls sideways (${box.scrollWidth} px in ${box.clientWidth})` : `table "${name}" hides columns off a phone's screen (${box.scrollWidth} px in ${box.clientWidth})`);
    }
    for (const el of table.querySelectorAll("th, td, th *, td *")) {
      if (hidden(el)) continue;
      const style = getComputedStyle(el);
      const clips = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
      if (clips && el.scrollWidth > el.clientWidth + 1) found.push(`${describe(el)} cut (${el.scrollWidth} px in ${el.clientWidth})`);
    }
  }
  for (const el of document.querySelectorAll(".panel button, .panel input, .panel select, .panel a, .card button, .card input, .card select, .card a")) {
    if (hidden(el) || el.closest("table")) continue;
    const panel = el.parentElement!.closest(".panel, .card")!;
    // Inside a box that scrolls or clips, it is that box's to show.
    let inner = el.parentElement;
    while (inner && inner !== panel && getComputedStyle(inner).overflowX === "visible") inner = inner.parentElement;
    if (inner !== panel) continue;
    const [r, p] = [el.getBoundingClientRect(), panel.getBoundingClientRect()];
    if (r.right > p.right + 1 || r.left < p.left - 1) found.push(`${describe(el)} leaves its ${panel.classList.contains("card") ? "card" : "panel"} by ${Math.round(Math.max(r.right - p.right, p.left - r.left))} px`);
  }
  // A row of buttons or a field wider than its place in the form spills over its neighbours (or out of the panel).
  for (const el of document.querySelectorAll(".panel .button-row, .card .button-row, .panel .field, .card .field")) {
    if (hidden(el) || el.closest("table")) continue;
    if (el.scrollWidth > el.clientWidth + 1) found.push(`${describe(el)} spills out of its place (${el.scrollWidth} px in ${el.clientWidth})`);
  }
  return found;
};

/** Collects every violation the page reports (the event fires for blocked and report-only alike). */
const LISTEN = () => {
  const w = window as unknown as { __violations: string[] };
  w.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
};

describe("the content policy and the layout on every screen", () => {
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
    // An import in the account's history (the history's widest table is its list of imports).
    ids.ibkr = (await api<{ id: string }>("post", "/api/accounts", { name: "IBKR", currency: "USD", startingBalance: "500000", timezone: "America/New_York" })).id;
    const preview = await t.context.request.post(`${base()}/api/csv-import/preview`, {
      multipart: { file: { name: "ibkr-activity.csv", mimeType: "text/csv", buffer: readFileSync(IBKR_FIXTURE) }, request: JSON.stringify({ accountId: ids.ibkr, presetId: "ibkr-activity" }) },
    });
    expect(preview.status(), await preview.text()).toBe(201);
    await api("post", "/api/csv-import/commit", { importId: ((await preview.json()) as { importId: string }).importId });
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

  it("every screen loads with no violation, and nothing sticks out or is cut at 1280 and 390 px", async () => {
    const screens = [
      "/dashboard",
      "/dashboard?unit=r",
      `/dashboard?account=${ids.account}`,
      `/dashboard?account=${ids.ibkr}`,
      "/accounts",
      `/accounts/${ids.account}`,
      `/accounts/${ids.account}/fills`,
      "/trades",
      `/trades/${ids.trade}`,
      "/fills/new",
      "/notes/detached",
      "/import",
      `/import?account=${ids.ibkr}`,
      "/trades?sort=symbol",
      "/playbooks",
      "/journal",
      "/rules",
      "/insights",
      "/advisor",
      "/settings/account",
      "/settings/sessions",
      "/settings/keys",
      "/settings/billing",
      "/settings/digest",
      "/report",
      "/whats-new",
      "/admin",
      "/admin/stats",
      "/admin/audit",
      "/no-such-page",
    ];
    const found: string[] = [];
    const overflows: string[] = [];
    for (const width of [1280, 390]) {
      await t.page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const path of screens) {
        await t.page.goto(`${base()}${path}`);
        await settle(t.page, t.page.locator("h1").first());
        for (const v of await violations()) found.push(`${path}: ${v}`);
        for (const o of await t.page.evaluate(OVERFLOWS, width > 1000)) overflows.push(`${width} px ${path}: ${o}`);
      }
      // The import preview of broker files (the walkthrough's among them).
      for (const id of PREVIEWED) {
        await t.page.goto(`${base()}/import?account=${ids.ibkr}`);
        await t.page.getByLabel("CSV file").setInputFiles(fixturePath(id));
        await t.page.getByRole("button", { name: "Preview import" }).click();
        await t.page.getByRole("heading", { name: `3. Preview of ${id}.csv` }).waitFor();
        const skipped = t.page.getByText("Show the skipped rows");
        if (await skipped.count()) await skipped.click();
        for (const o of await t.page.evaluate(OVERFLOWS, width > 1000)) overflows.push(`${width} px import preview of ${id}: ${o}`);
      }
      await t.page.setViewportSize({ width: 1280, height: 900 });
    }
    // The set-up of two-factor sign-in draws its QR code; the settings panels open their forms.
    await t.page.goto(`${base()}/settings/account`);
    await t.page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await t.page.getByRole("img", { name: "QR code of your authenticator secret" }).waitFor();
    for (const v of await violations()) found.push(`/settings/account (2FA setup): ${v}`);
    expect(found).toEqual([]);
    expect(overflows).toEqual([]);
    expect(console).toEqual([]);
    expect(t.errors).toEqual([]);
  });

  it("the pages a signed-out visitor sees, and the API reference, load with no violation", async () => {
    const anonymous = await t.browser.newContext();
    await anonymous.addInitScript(LISTEN);
    const page = await anonymous.newPage();
    page.setDefaultTimeout(20_000);
    const found: string[] = [];
    for (const path of ["/sign-in", "/register", "/forgot-password", "/reset-password?token=x", "/verify-email?token=x", "/digest/unsubscribe?token=x", "/api/docs"]) {
      await page.goto(`${base()}${path}`);
      await settle(page, path === "/api/docs" ? page.getByText("Trading Journal API").first() : page.locator("h1").first());
      const seen = (await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)) ?? [];
      for (const v of seen) found.push(`${path}: ${v}`);
    }
    await anonymous.close();
    expect(found).toEqual([]);
  });
});
