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
});
