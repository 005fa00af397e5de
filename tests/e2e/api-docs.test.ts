// The API reference page in Chromium: it renders the instance's OpenAPI document, and every request it makes
// goes to the instance itself (no CDN, no web fonts, no telemetry).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";

describe("GET /api/docs", () => {
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(20_000);
    page.on("request", (r) => requested.push(r.url()));

  });
  afterAll(() => browser?.close());

  it("renders the reference from /api/openapi.json, asking nothing of any other host", async () => {
    const base = inject("baseUrl");
    await page.goto(`${base}/api/docs`);
    await page.getByText("Trading Journal API").first().waitFor();
    // The document's own words: an operation's summary, and a group opened on demand.
    await page.getByText("Whether the instance and its database are up").first().waitFor();
    // The list renders as it scrolls; the tag filter brings a group up. An operation opens on demand: its
    // parameters are the document's.
    await page.getByPlaceholder("Filter by tag").fill("symbols");
    await page.getByText("Search tickers by prefix or company-name words", { exact: false }).first().click();
    await page.getByText("Parameters", { exact: true }).first().waitFor();
    // A reference only: no "Try it out", no hosted extras.
    expect(await page.getByRole("button", { name: "Try it out" }).count()).toBe(0);
    expect(await page.getByText(/Ask AI|Deploy/).count()).toBe(0);
    expect(requested.some((u) => u.endsWith("/api/openapi.json"))).toBe(true);
    expect(requested.some((u) => u.endsWith("/api-reference/swagger-ui-bundle.js"))).toBe(true);
    const origin = new URL(base).origin;
    expect(requested.filter((u) => !u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:"))).toEqual([]);
  });
});
