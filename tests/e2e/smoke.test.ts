import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser.ts";

describe("the browser app in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("loads the app shell from the Node entrypoint with /config.js and no console errors", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // A signed-out visitor's session check answers 401, which Chromium logs as a failed resource load.
    page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
    const res = await page.goto(inject("baseUrl"));
    expect(res?.status()).toBe(200);
    expect(await page.evaluate(() => typeof (window as { __JOURNAL_CONFIG__?: unknown }).__JOURNAL_CONFIG__)).toBe("object");
    await expect.poll(() => page.title()).toMatch(/Trading Journal/);
    expect(errors).toEqual([]);
  });

  it("is the production build, though the tests built it (vitest sets NODE_ENV=test)", async () => {
    const shell = await (await fetch(inject("baseUrl"))).text();
    const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(shell)?.[1];
    expect(entry).toBeDefined();
    const code = await (await fetch(new URL(entry!, inject("baseUrl")))).text();
    // React's development build carries its warnings; the production build has none of them.
    expect(code.includes("Each child in a list should have a unique"), "React's development build").toBe(false);
    expect(code.includes("react.dev/errors"), "React's production error links").toBe(true);
    expect(code.includes("jsxDEV"), "JSX compiled for development").toBe(false);
  });
});
