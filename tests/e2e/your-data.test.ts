// Settings > Account > Your data in Chromium, at desktop and phone width: one trader downloads the JSON
// export with the Export button; another imports that file with the form and finds the account, its ledger
// and its trade in their journal; a third imports the complete archive (the ZIP) the same way.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("Your data: export and import", () => {
  let owner: TraderPage;
  let newcomer: TraderPage;
  let third: TraderPage;
  let exported = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    owner = await signedInTrader(base(), "exporter");
    newcomer = await signedInTrader(base(), "importer");
    third = await signedInTrader(base(), "archive-importer");
    const account = await owner.context.request.post(`${base()}/api/accounts`, { data: { name: "Carried over", currency: "USD", startingBalance: "5000" } });
    const accountId = ((await account.json()) as { id: string }).id;
    await owner.context.request.post(`${base()}/api/fills`, { data: { accountId, symbol: "AMD", side: "buy", quantity: "10", price: "150", executedAt: "2026-03-02T15:00:00Z" } });
  }, 60_000);
  afterAll(async () => {
    await owner?.browser.close();
    await newcomer?.browser.close();
    await third?.browser.close();
  });

  it("at 1280 px, Export downloads the whole journal as JSON", async () => {
    const { page } = owner;
    await page.goto(`${base()}/settings/account`);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export (JSON)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^trading-journal-export-\d{4}-\d{2}-\d{2}\.json$/);
    exported = readFileSync((await file.path())!, "utf8");
    const data = JSON.parse(exported) as { accounts: Array<{ name: string; fills: unknown[] }> };
    expect(data.accounts.map((a) => [a.name, a.fills.length])).toEqual([["Carried over", 1]]);
  });

  it("at 390 px, another trader imports it, and the account is there with its trade", async () => {
    const { page } = newcomer;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base()}/settings/account`);
    await page.getByRole("heading", { name: "Your data" }).waitFor();
    await page.getByLabel("Import an export file").setInputFiles({ name: "export.json", mimeType: "application/json", buffer: Buffer.from(exported) });
    const button = page.getByRole("button", { name: "Import", exact: true });
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await button.click();
    await page.getByText("Imported 1 account, 1 fill and 0 ledger entries.").waitFor();
    await page.goto(`${base()}/trades`);
    await page.getByRole("link", { name: "AMD" }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The same file again: the account name is taken, and it says so.
    await page.goto(`${base()}/settings/account`);
    await page.getByLabel("Import an export file").setInputFiles({ name: "export.json", mimeType: "application/json", buffer: Buffer.from(exported) });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText(/already have an account named "Carried over"/).waitFor();
    expect(newcomer.errors).toEqual([]);
  });

  it("at 1280 px, Everything (ZIP) downloads the archive, and a third trader imports it with the same form", async () => {
    const download = owner.page.waitForEvent("download");
    await owner.page.goto(`${base()}/settings/account`);
    await owner.page.getByRole("link", { name: "Everything (ZIP)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^trading-journal-archive-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = readFileSync((await file.path())!);
    const { page } = third;
    await page.goto(`${base()}/settings/account`);
    await page.getByLabel("Import an export file").setInputFiles({ name: "archive.zip", mimeType: "application/zip", buffer: zip });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("Imported 1 account, 1 fill, 0 ledger entries, 0 screenshots and 0 conversations.").waitFor();
    await page.goto(`${base()}/trades`);
    await page.getByRole("link", { name: "AMD" }).first().waitFor();
    expect(third.errors).toEqual([]);
  });
});
