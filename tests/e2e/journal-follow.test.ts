// "Your notes follow your fills" in Chromium, at desktop (1280) and phone (390) width, from a browser in
// London journaling a New York account: a missed scale-in typed in New York time keeps the trade's notes and
// screenshot (and its old address leads to it); an import undone keeps its trade's notes as a detached note,
// and the same file imported again puts them back; a fill deleted from the trade page says what becomes of
// the notes first. Screenshots of the trade that holds the notes afterwards go to test-results/screenshots.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { APIRequestContext, Browser, BrowserContext, Page } from "playwright-core";
import { pngImage } from "../support/images.ts";
import { SCREENSHOTS, signedInTrader } from "./browser.ts";

const base = () => inject("baseUrl");
const CSV = [
  "Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID",
  "2026-03-02T09:31:00,MSFT,BUY,20,401.50,1.00,J1",
  "2026-03-02T10:15:00,MSFT,SELL,20,404.25,1.00,J2",
].join("\n");

async function api<T>(request: APIRequestContext, method: "get" | "post", path: string, data?: unknown): Promise<T> {
  const res = await request[method](`${base()}${path}`, data === undefined ? {} : { data: data as Record<string, unknown> });
  if (res.status() >= 300) throw new Error(`${method.toUpperCase()} ${path} answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as T;
}

async function importFile(request: APIRequestContext, accountId: string): Promise<string> {
  const preview = await request.post(`${base()}/api/csv-import/preview`, {
    multipart: {
      file: { name: "msft.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) },
      request: JSON.stringify({ accountId, presetId: "generic" }),
    },
  });
  if (preview.status() !== 201) throw new Error(`preview answered ${preview.status()}`);
  const { importId } = (await preview.json()) as { importId: string };
  await api(request, "post", "/api/csv-import/commit", { importId });
  return importId;
}

for (const width of [1280, 390] as const) {
  describe(`notes follow fills at ${width} px, from a browser in London`, () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let errors: string[] = [];
    /** What the browser's console reports as a failed request (a 404 after a rebuild was one). */
    const failed: string[] = [];
    let accountId = "";

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      ({ browser, context, page, errors } = await signedInTrader(base(), `follow-${width}`, width, { timezoneId: "Europe/London" }));
      page.on("console", (m) => {
        if (m.type() === "error" && /Failed to load resource|status of 4\d\d/.test(m.text())) failed.push(`${m.text()} ${m.location().url}`);
      });
      accountId = (await api<{ id: string }>(context.request, "post", "/api/accounts", { name: "New York", currency: "USD", startingBalance: "50000", timezone: "America/New_York" })).id;
    });
    afterAll(() => browser?.close());

    const go = (path: string) => page.goto(`${base()}${path}`);
    const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: true });

    it("a missed scale-in typed as 09:30 New York time keeps the notes and the screenshot; the old address leads to the trade", async () => {
      await api(context.request, "post", "/api/fills", { accountId, symbol: "AAPL", side: "buy", quantity: "100", price: "190", executedAt: "2026-03-02T10:00:00-05:00" });
      await api(context.request, "post", "/api/fills", { accountId, symbol: "AAPL", side: "sell", quantity: "100", price: "192", executedAt: "2026-03-02T11:00:00-05:00" });
      const { trades } = await api<{ trades: Array<{ id: string }> }>(context.request, "get", `/api/trades?accountId=${accountId}&symbol=AAPL`);
      const oldId = trades[0]!.id;

      await go(`/trades/${oldId}`);
      await page.getByRole("heading", { name: "AAPL · Long" }).waitFor();
      await page.getByLabel("Notes").fill("Waited for the opening range.");
      await page.getByRole("button", { name: "Save journal" }).click();
      await page.getByText("Journal saved.").waitFor();
      await page.getByLabel("Add screenshots").setInputFiles({ name: "chart.png", mimeType: "image/png", buffer: pngImage({ rgb: [30, 120, 200] }) });
      await page.getByRole("button", { name: "Open screenshot 1 of 1" }).waitFor();

      // The missed scale-in, typed from London in the account's (New York) time.
      await go(`/fills/new?accountId=${accountId}`);
      await page.getByText("New York time (America/New_York): the account's time zone.").waitFor();
      await page.getByRole("combobox", { name: "Symbol" }).fill("AAPL");
      await page.getByLabel("Quantity").fill("50");
      await page.getByLabel("Price", { exact: true }).fill("189.50");
      await page.getByLabel("Executed at").fill("2026-03-02T09:30");
      await page.getByRole("button", { name: "Add fill" }).click();
      await page.waitForURL(/\/trades\?/);
      const fills = await api<{ fills: Array<{ executedAt: string; quantity: string }> }>(context.request, "get", `/api/fills?accountId=${accountId}&symbol=AAPL`);
      expect(fills.fills.find((f) => f.quantity === "50.00")!.executedAt).toBe("2026-03-02T14:30:00.000Z");

      // The old address: the rebuilt trade, with the notes and the screenshot.
      await go(`/trades/${oldId}`);
      await page.getByText("The trade you opened was rebuilt when its fills changed. This is the trade that holds its notes now.").waitFor();
      expect(new URL(page.url()).pathname).not.toBe(`/trades/${oldId}`);
      expect(await page.getByLabel("Notes").inputValue()).toBe("Waited for the opening range.");
      await page.getByRole("button", { name: "Open screenshot 1 of 1" }).waitFor();
      // Its fills in New York time, the missed one at 9:30.
      await page.getByRole("table").getByText(/9:30/).first().waitFor();
      await shot("journal-follow-scale-in");
    });

    it("an import undone keeps its trade's notes detached; the same file imported again puts them back", async () => {
      const importId = await importFile(context.request, accountId);
      const { trades } = await api<{ trades: Array<{ id: string }> }>(context.request, "get", `/api/trades?accountId=${accountId}&symbol=MSFT`);
      await go(`/trades/${trades[0]!.id}`);
      await page.getByLabel("Setup").fill("Gap fill");
      await page.getByLabel("Notes").fill("Took it off at the prior close.");
      await page.getByRole("button", { name: "Save journal" }).click();
      await page.getByText("Journal saved.").waitFor();

      await go(`/import`);
      await page.getByRole("button", { name: "Undo import of msft.csv" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Undo the import of msft.csv?" });
      await dialog.getByText(/1 journaled trade is built from these fills\. Nothing you wrote is deleted/).waitFor();
      await dialog.getByRole("button", { name: "Yes, undo import" }).click();
      await page.getByText(/Notes on its trades are kept\./).waitFor();

      await go("/trades");
      await page.getByRole("link", { name: "See detached notes" }).click();
      const card = page.getByRole("article").filter({ hasText: "Took it off at the prior close." });
      await card.getByText("Gap fill").waitFor();
      await shot("journal-follow-detached");

      // The same file again: the note goes back on the trade by itself.
      expect(importId).not.toBe(await importFile(context.request, accountId));
      const again = await api<{ trades: Array<{ id: string; notes: string | null }> }>(context.request, "get", `/api/trades?accountId=${accountId}&symbol=MSFT`);
      await go(`/trades/${again.trades[0]!.id}`);
      expect(await page.getByLabel("Notes").inputValue()).toBe("Took it off at the prior close.");
      expect(await page.getByLabel("Setup").inputValue()).toBe("Gap fill");
      await go("/notes/detached");
      await page.getByRole("heading", { name: "No detached notes" }).waitFor();
    });

    it("deleting a trade's only fill from the trade page says the notes are kept, and its address then says where", async () => {
      await api(context.request, "post", "/api/fills", { accountId, symbol: "NVDA", side: "buy", quantity: "5", price: "900", executedAt: "2026-03-04T10:00:00-05:00" });
      const { trades } = await api<{ trades: Array<{ id: string }> }>(context.request, "get", `/api/trades?accountId=${accountId}&symbol=NVDA`);
      await go(`/trades/${trades[0]!.id}`);
      await page.getByLabel("Notes").fill("Sized too big.");
      await page.getByRole("button", { name: "Save journal" }).click();
      await page.getByText("Journal saved.").waitFor();
      // A correction rebuilds the trade: the page stays on it, or goes where it went, with the notes, asking nothing of
      // what is gone.
      await page.getByRole("button", { name: /^Correct the buy of 5 at/ }).click();
      await page.getByLabel("Price", { exact: true }).fill("901");
      await page.getByRole("button", { name: "Save fill" }).click();
      await page.getByText("Fill corrected. Its trade was rebuilt; your notes followed it.").waitFor();
      await page.getByRole("cell", { name: /901/ }).first().waitFor();
      expect(await page.getByLabel("Notes").inputValue()).toBe("Sized too big.");
      await page.getByRole("button", { name: /^Delete the buy of 5 at/ }).click();
      const dialog = page.getByRole("alertdialog", { name: "Delete this fill?" });
      await dialog.getByText(/1 journaled trade is built from these fills/).waitFor();
      await dialog.getByRole("button", { name: "Yes, delete fill" }).click();
      await page.getByRole("heading", { name: "This trade's fills are gone" }).waitFor();
      await page.getByRole("link", { name: "detached note" }).click();
      await page.getByText("Sized too big.").waitFor();
      expect(errors).toEqual([]);
      // Not one request of the whole walk failed: the old address was sent on, a deleted fill's trade not asked for again.
      expect(failed).toEqual([]);
    });
  });
}
