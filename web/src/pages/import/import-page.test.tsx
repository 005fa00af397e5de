import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { PRESETS } from "../../../../lib/imports/presets.ts";
import { ACCOUNT, envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";
import { FakeXhr } from "./fake-xhr.ts";
import { PreviewView } from "./preview.tsx";

const IMPORT_ID = "33333333-3333-4333-8333-333333333333";

const GENERIC_CSV = [
  "Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID",
  "2024-01-19T09:30:15,AAPL,BUY,100,191.50,1.00,G-1001",
  "2024-01-19T10:02:41,AAPL,SELL,100,192.25,1.00,G-1002",
  "2024-01-19T10:05:00,AAPL,HOLD,abc,192.25,1.00,G-1003",
].join("\n");

const PREVIEW = {
  importId: IMPORT_ID,
  expiresAt: "2026-01-01T00:30:00.000Z",
  summary: { rows: 4, skipped: 1, valid: 2, invalid: 1, duplicate: 1, toImport: 1, cashEffect: "-19151.0036445" },
  errors: [
    { row: 4, column: "Side", message: 'is not a side: "HOLD"' },
    { row: 4, column: "Quantity", message: 'is not a number: "abc"' },
  ],
  symbols: [{ symbol: "AAPL", fills: 1, netQuantity: "100" }],
  fills: [
    { row: 2, symbol: "AAPL", assetClass: "stock", multiplier: "1", side: "buy", quantity: "100", price: "191.5", fees: "1", executedAt: "2024-01-19T14:30:15.000Z", executionId: "G-1001", duplicate: false },
    { row: 3, symbol: "AAPL", assetClass: "stock", multiplier: "1", side: "sell", quantity: "100", price: "192.25", fees: "1", executedAt: "2024-01-19T15:02:41.000Z", executionId: "G-1002", duplicate: true },
  ],
  rows: [
    { row: 2, status: "valid" },
    { row: 3, status: "duplicate" },
    { row: 4, status: "invalid", errors: [] },
    { row: 5, status: "skipped", reason: "a currency conversion (forex): the journal does not track currency pairs" },
  ],
};

const historyItem = (status: string, fillsCreated: number) => ({
  importId: IMPORT_ID,
  accountId: ACCOUNT.id,
  status,
  fileName: "generic.csv",
  presetId: "generic",
  createdAt: "2026-01-01T00:00:00.000Z",
  expiresAt: "2026-01-01T00:30:00.000Z",
  committedAt: status === "staged" ? null : "2026-01-01T00:01:00.000Z",
  undoneAt: status === "undone" ? "2026-01-01T00:02:00.000Z" : null,
  summary: PREVIEW.summary,
  fillsCreated,
});

describe("the preview", () => {
  it("lists each invalid row once with its cell errors, and flags duplicates", () => {
    render(<PreviewView preview={PREVIEW as never} currency="USD" timeZone="America/New_York" />);
    const errors = screen.getByRole("region", { name: "Rows with errors" });
    const rows = within(errors).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(1);
    expect(within(rows[0]!).getByRole("rowheader").textContent).toBe("4");
    expect(rows[0]!.textContent).toContain('Side: is not a side: "HOLD"');
    expect(rows[0]!.textContent).toContain('Quantity: is not a number: "abc"');
    expect(within(errors).getByText(/1 row is not imported/)).toBeTruthy();

    const summary = screen.getByLabelText("Preview summary");
    const counts = Object.fromEntries([...summary.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
    expect(counts).toMatchObject({ Rows: "4", Valid: "2", Invalid: "1", Duplicates: "1", "To import": "1", "Cash effect": "-$19,151.00" });
    const fills = within(screen.getByRole("region", { name: "Fills" })).getAllByRole("row").slice(1);
    expect(fills.map((r) => r.lastElementChild?.textContent)).toEqual(["New", "Duplicate"]);
    // One precision for the symbol's prices.
    expect(fills.map((r) => r.children[5]?.textContent)).toEqual(["191.50", "192.25"]);
    // The skipped rows counted by reason, and each row with its reason behind "Show the skipped rows".
    const skippedRegion = screen.getByRole("region", { name: "Rows the format skips" });
    expect(within(skippedRegion).getByRole("list", { name: "Rows skipped, by reason" }).textContent).toBe(
      "a currency conversion (forex): the journal does not track currency pairs: 1 row",
    );
    expect(skippedRegion.querySelector("details")?.open).toBe(false);
    const skipped = within(skippedRegion).getAllByRole("row", { hidden: true }).slice(1);
    expect(skipped.map((r) => r.textContent)).toEqual(["5a currency conversion (forex): the journal does not track currency pairs"]);
  });
});

describe("another journal's export", () => {
  it("says whether the file's own P&L and the journal's agree, and where they differ", () => {
    const differ = { ...PREVIEW, reconciliation: { file: "163.00", journal: "158.00", matches: false, differ: [{ symbol: "NVDA", file: "115.00", journal: "110.00" }] } };
    const { unmount } = render(<PreviewView preview={differ as never} currency="USD" timeZone="America/New_York" />);
    const line = screen.getByRole("status", { name: "Reconciliation" });
    expect(line.textContent).toMatch(/file's P&L is \+?\$163\.00.*makes \+?\$158\.00.*NVDA \+?\$115\.00 in the file, \+?\$110\.00 here/);
    unmount();
    render(<PreviewView preview={{ ...PREVIEW, reconciliation: { file: "25.00", journal: "25.00", matches: true, differ: [] } } as never} currency="USD" />);
    expect(screen.getByRole("status", { name: "Reconciliation" }).textContent).toMatch(/Reconciled: .*25\.00.* to the cent/);
  });
});

describe("the import wizard", () => {
  beforeEach(() => {
    FakeXhr.reset();
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
  });

  it("detects the preset, previews, commits, and undoes from the history after confirming", async () => {
    let history = [] as ReturnType<typeof historyItem>[];
    const commits: unknown[] = [];
    const mock = stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/csv-import/presets": { presets: PRESETS },
      "GET /api/csv-import/history": () => json({ imports: history }),
      "POST /api/csv-import/commit": ({ body }) => {
        commits.push(body);
        history = [historyItem("committed", 1)];
        return json(history[0]);
      },
      [`POST /api/csv-import/${IMPORT_ID}/undo`]: () => {
        history = [historyItem("undone", 1)];
        return json(history[0]);
      },
    });
    FakeXhr.answers.push({ status: 201, body: PREVIEW });
    const { queryClient } = renderApp("/import");
    const invalidated = vi.spyOn(queryClient, "invalidateQueries");
    const user = userEvent.setup();

    expect(await screen.findByText("Files you import into this account are listed here, and each can be undone.")).toBeTruthy();
    await user.upload(screen.getByLabelText("CSV file"), new File([GENERIC_CSV], "generic.csv", { type: "text/csv" }));
    expect(await screen.findByText("Generic executions (template)", { selector: "strong" })).toBeTruthy();
    expect((screen.getByLabelText("Format") as HTMLSelectElement).value).toBe("generic");

    await user.click(screen.getByRole("button", { name: "Preview import" }));
    expect(await screen.findByRole("heading", { name: "3. Preview of generic.csv" })).toBeTruthy();
    expect(screen.getAllByRole("status").map((s) => s.textContent).join(" ")).toMatch(/Preview ready: 1 fill to import, 1 row with errors, 1 duplicate/);
    const sent = FakeXhr.sent[0]!;
    expect(JSON.parse(sent.body!.get("request") as string)).toEqual({
      accountId: ACCOUNT.id,
      presetId: "generic",
      options: { dateFormat: "iso", numberFormat: "1,234.56" },
    });

    await user.click(screen.getByLabelText("Also import the duplicates"));
    await user.click(screen.getByRole("button", { name: "Commit import" }));
    expect(await screen.findByRole("heading", { name: "Import complete" })).toBeTruthy();
    expect(commits).toEqual([{ importId: IMPORT_ID, includeDuplicates: true }]);
    const keys = invalidated.mock.calls.map(([f]) => JSON.stringify(f?.queryKey));
    for (const k of [["trades"], ["ledger"], ["stats"], ["accounts"]]) expect(keys).toContain(JSON.stringify(k));

    const historyTable = await screen.findByRole("table", { name: "Imports into this account, newest first" });
    await user.click(within(historyTable).getByRole("button", { name: "Undo import of generic.csv" }));
    const dialog = screen.getByRole("alertdialog", { name: "Undo the import of generic.csv?" });
    expect(document.activeElement).toBe(dialog);
    await user.click(within(dialog).getByRole("button", { name: "Keep it" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Import history" })));
    expect(mock.mock.calls.some(([u]) => String(u).includes("/undo"))).toBe(false);

    await user.click(within(historyTable).getByRole("button", { name: "Undo import of generic.csv" }));
    await user.click(screen.getByRole("button", { name: "Yes, undo import" }));
    expect(await screen.findByText(/Import of generic.csv undone/)).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole("table", { name: /Imports into this account/ })).getByText("Undone")).toBeTruthy());
  });

  it("fills the mapping with the suggestion for a file no preset reads (its notes shown), and says when it is the account's saved one", async () => {
    const asked: unknown[] = [];
    let answer: Record<string, unknown> = {
      mapping: { executedAt: "When", symbol: "Ticker", side: "Dir", quantity: "Size", price: "Px" },
      options: { dateFormat: "DD/MM/YYYY", numberFormat: "1.234,56" },
      notes: ["No column looks like the fees."],
      source: "rules",
      savedAt: null,
    };
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/csv-import/presets": { presets: PRESETS },
      "GET /api/csv-import/history": { imports: [] },
      "POST /api/csv-import/suggest": ({ body }) => {
        asked.push(body);
        return json(answer);
      },
    });
    FakeXhr.answers.push({ status: 201, body: PREVIEW });
    renderApp("/import");
    const user = userEvent.setup();
    const csv = "When;Ticker;Dir;Size;Px\n19/01/2024 09:30;AAPL;B;100;191,50\n";
    await user.upload(await screen.findByLabelText("CSV file"), new File([csv], "mine.csv"));
    expect(await screen.findByText(/Suggested from the column names and the first rows/)).toBeTruthy();
    expect(screen.getByText("No column looks like the fees.")).toBeTruthy();
    expect(asked).toEqual([{ accountId: ACCOUNT.id, header: ["When", "Ticker", "Dir", "Size", "Px"], rows: [["19/01/2024 09:30", "AAPL", "B", "100", "191,50"]] }]);
    expect((screen.getByLabelText("Price") as HTMLSelectElement).value).toBe("Px");
    await user.click(screen.getByRole("button", { name: "Preview import" }));
    await screen.findByRole("heading", { name: "3. Preview of mine.csv" });
    expect(JSON.parse(FakeXhr.sent[0]!.body!.get("request") as string)).toEqual({
      accountId: ACCOUNT.id,
      mapping: { executedAt: "When", symbol: "Ticker", side: "Dir", quantity: "Size", price: "Px" },
      options: { dateFormat: "DD/MM/YYYY", numberFormat: "1.234,56", hasHeader: true },
    });

    // The next file of this layout: the account's own mapping, said as such.
    answer = { ...answer, notes: [], source: "saved", savedAt: "2026-11-20T10:00:00.000Z" };
    await user.upload(screen.getByLabelText("CSV file"), new File([csv], "again.csv"));
    expect(await screen.findByText(/Your mapping for this layout, last used/)).toBeTruthy();
  });

  it("with a model key, asks the trader's model for the mapping on request (header and five rows), and shows what it says to check", async () => {
    const asked: unknown[] = [];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/csv-import/presets": { presets: PRESETS },
      "GET /api/csv-import/history": { imports: [] },
      "GET /api/advisor/provider-keys": { keys: [{ provider: "anthropic", keyHintTail: "abcd", verified: true, defaultModel: "claude-sonnet-4-5", createdAt: "2026-01-01T00:00:00.000Z" }] },
      "POST /api/csv-import/suggest": { mapping: { symbol: "Ticker" }, options: {}, notes: [], source: "rules", savedAt: null },
      "POST /api/advisor/import-mapping": ({ body }) => {
        asked.push(body);
        return json({
          mapping: { executedAt: "When", symbol: "Ticker", side: "Dir", quantity: "Size", price: "Px" },
          options: { dateFormat: "DD/MM/YYYY", numberFormat: "1.234,56" },
          notes: ["Suggested by claude-sonnet-4-5 from the column names and the first 5 rows: check each column before previewing.", "B is a buy."],
          source: "model",
          savedAt: null,
          provider: "anthropic",
          model: "claude-sonnet-4-5",
        });
      },
    });
    renderApp("/import");
    const user = userEvent.setup();
    const rows = Array.from({ length: 7 }, (_, i) => `19/01/2024 09:3${i};AAPL;B;10${i};191,50`);
    await user.upload(await screen.findByLabelText("CSV file"), new File([["When;Ticker;Dir;Size;Px", ...rows].join("\n")], "mine.csv"));
    expect(await screen.findByText(/sends the column names and the first 5 rows of the file to Anthropic, with your key/)).toBeTruthy();
    expect((screen.getByLabelText("Price") as HTMLSelectElement).value).toBe("");
    await user.click(screen.getByRole("button", { name: "Ask Anthropic" }));
    expect(await screen.findByText("B is a buy.")).toBeTruthy();
    expect(screen.getByText(/^Suggested by claude-sonnet-4-5/)).toBeTruthy();
    expect((screen.getByLabelText("Price") as HTMLSelectElement).value).toBe("Px");
    expect(asked).toEqual([{ provider: "anthropic", header: ["When", "Ticker", "Dir", "Size", "Px"], rows: rows.slice(0, 5).map((r) => r.split(";")) }]);
  });

  it("asks for a manual mapping when no preset fits, and tells the user to preview again when the preview expired", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/csv-import/presets": { presets: PRESETS },
      "GET /api/csv-import/history": { imports: [] },
      "POST /api/csv-import/commit": envelope(410, "GONE", "This preview has expired; upload the file again."),
    });
    FakeXhr.answers.push({ status: 201, body: PREVIEW }, { status: 201, body: PREVIEW });
    renderApp("/import");
    const user = userEvent.setup();
    const csv = "When;Ticker;Dir;Size;Each\n2024-01-19 09:30;AAPL;B;100;191,50\n";
    await user.upload(await screen.findByLabelText("CSV file"), new File([csv], "mine.csv"));
    expect(await screen.findByText(/No known broker format matched/)).toBeTruthy();
    expect((screen.getByLabelText("Format") as HTMLSelectElement).value).toBe("manual");

    await user.click(screen.getByRole("button", { name: "Preview import" }));
    expect(await screen.findByText("The mapping needs attention.")).toBeTruthy();
    // "When", "Ticker", "Dir" and "Size" were guessed from their names; the price is named, by the field and in the summary.
    expect(screen.getAllByText("Price must be chosen.")).toHaveLength(2);
    expect(screen.queryByText("Symbol must be chosen.")).toBeNull();
    expect(FakeXhr.sent).toHaveLength(0);

    await user.selectOptions(screen.getByLabelText("Date and time"), "When");
    await user.selectOptions(screen.getByLabelText("Symbol"), "Ticker");
    await user.selectOptions(screen.getByLabelText("Side"), "Dir");
    await user.selectOptions(screen.getByLabelText("Quantity"), "Size");
    await user.selectOptions(screen.getByLabelText("Price"), "Each");
    await user.selectOptions(screen.getByLabelText("Number format"), "1.234,56");
    await user.click(screen.getByRole("button", { name: "Preview import" }));
    await screen.findByRole("heading", { name: "3. Preview of mine.csv" });
    expect(JSON.parse(FakeXhr.sent[0]!.body!.get("request") as string)).toEqual({
      accountId: ACCOUNT.id,
      mapping: { executedAt: "When", symbol: "Ticker", side: "Dir", quantity: "Size", price: "Each" },
      options: { dateFormat: "iso", numberFormat: "1.234,56", hasHeader: true },
    });

    await user.click(screen.getByRole("button", { name: "Commit import" }));
    expect(await screen.findByText("This preview has expired.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Preview again" }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
  });

  it("shows a cap refusal with the message naming the cap", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/csv-import/presets": { presets: PRESETS },
      "GET /api/csv-import/history": { imports: [] },
    });
    FakeXhr.answers.push({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE", message: "The file has more than 10000 data rows (CSV_IMPORT_MAX_ROWS).", requestId: "r-413" } } });
    renderApp("/import");
    const user = userEvent.setup();
    await user.upload(await screen.findByLabelText("CSV file"), new File([GENERIC_CSV], "big.csv"));
    await user.click(await screen.findByRole("button", { name: "Preview import" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("CSV_IMPORT_MAX_ROWS");
    expect(alert.textContent).toContain("r-413");
  });
});
