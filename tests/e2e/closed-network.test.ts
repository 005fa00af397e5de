// "What's new" on an instance that cannot reach the project's release list (a closed network): the release
// notes it ships (CHANGELOG.md) at 1280 and 390 px, never an error. Its own server and database: the suite's
// server has fetched releases into its database, and a fetched copy comes first.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readProcessEnv } from "../../lib/config/index.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startEntrypoint, type Entrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { launchBrowser, openPage, registerTrader } from "./browser.ts";
import type { Browser } from "playwright-core";

describe("What's new on a closed network", () => {
  let db: { name: string; url: string };
  let server: Entrypoint;
  let browser: Browser;
  beforeAll(async () => {
    db = await createMigratedDatabase("journal_closed_network");
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    // Nothing listens on port 1: the release list is refused, as behind a firewall.
    server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), CHANGELOG_RELEASES_BASE_URL: "http://127.0.0.1:1", DATABASE_URL: db.url }, 60_000);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (db) await dropDatabase(db.name);
  });

  it("shows the release notes the instance ships, at both widths", async () => {
    const first = readFileSync(new URL("../../CHANGELOG.md", import.meta.url), "utf8").split("\n").find((l) => l.startsWith("## "))!.slice(3).trim();
    for (const width of [1280, 390]) {
      const { context, page, errors } = await openPage(browser, { width });
      await registerTrader(context, server.url, `closed-${width}`);
      await page.goto(`${server.url}/whats-new`);
      await page.getByText("The release notes this instance was installed with").waitFor();
      // The first section of CHANGELOG.md ("Unreleased" is named after the running version).
      expect(await page.locator("article.release h2").count()).toBeGreaterThan(0);
      if (first !== "Unreleased") await page.getByRole("heading", { name: first }).first().waitFor();
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 60_000);
});
