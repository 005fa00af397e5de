// The mapping suggested for files no preset reads (lib/imports/suggest.ts), by rules alone, on five layouts
// written for this test (no broker's): each suggestion imports its file with no error.
import { describe, expect, inject, it } from "vitest";
import { sql } from "drizzle-orm";
import { journal } from "../support/app.ts";
import { normalizeCsv, readCsv } from "../../lib/imports/normalize.ts";
import type { ImportMapping, ImportOptions } from "../../lib/imports/schema.ts";
import { suggestMapping } from "../../lib/imports/suggest.ts";

const ACCOUNT = { timezone: "America/New_York", currency: "USD" };

/** The header and rows of a file, as the import page hands them to the suggestion. */
function headerAndRows(csv: string, delimiter: ImportOptions["delimiter"]) {
  const lines = csv.trim().split("\n").map((l) => l.split(delimiter ?? ","));
  return { header: lines[0]!, rows: lines.slice(1) };
}

const LAYOUTS: Array<{ name: string; csv: string; delimiter?: ImportOptions["delimiter"]; mapping: Partial<ImportMapping>; options: ImportOptions; notes?: RegExp[]; first: Record<string, string> }> = [
  {
    name: "English names of its own, IBKR-style side words",
    csv: "Trade Time,Ticker Symbol,Buy/Sell,Shares,Fill Price,Commission,Order Ref\n2024-01-19 09:30:15,AAPL,BOT,100,191.50,1.00,R-1\n2024-01-19 10:02:41,AAPL,SLD,100,192.25,1.00,R-2\n2024-01-19 11:15:00,MSFT,BOT,20,396.10,0.35,R-3\n",
    mapping: { executedAt: "Trade Time", symbol: "Ticker Symbol", side: "Buy/Sell", quantity: "Shares", price: "Fill Price", fees: "Commission" },
    options: { dateFormat: "iso" },
    first: { symbol: "AAPL", side: "buy", quantity: "100", price: "191.50", fees: "1.0000000000", executed_at: "2024-01-19T14:30:15.000Z" },
  },
  {
    name: "semicolons, a decimal comma, day-first dates and unusual names",
    csv: "When;Instrument;Operation;Volume;Rate;Cost\n19/01/2024 14:05;AAPL;Buy;100;191,50;1,00\n19/01/2024 15:30;AAPL;Sell;100;192,25;1,00\n22/01/2024 09:45;TSLA;Sell;10;208,80;0,50\n",
    delimiter: ";",
    mapping: { executedAt: "When", symbol: "Instrument", side: "Operation", quantity: "Volume", price: "Rate", fees: "Cost" },
    options: { dateFormat: "DD/MM/YYYY", numberFormat: "1.234,56" },
    first: { symbol: "AAPL", side: "buy", quantity: "100", price: "191.50", fees: "1.0000000000", executed_at: "2024-01-19T19:05:00.000Z" },
  },
  {
    name: "no side column (sells are negative), date and time apart, month-first dates",
    csv: "Date,Time,Symbol,Qty,Px,Fee\n01/19/2024,09:30:15,NVDA,50,540.10,0.25\n01/19/2024,13:12:09,NVDA,-50,545.80,0.25\n01/22/2024,10:01:00,AMD,-30,170.25,0.15\n",
    mapping: { date: "Date", time: "Time", symbol: "Symbol", quantity: "Qty", price: "Px", fees: "Fee" },
    options: { dateFormat: "MM/DD/YYYY", sideFromQuantitySign: true },
    notes: [/negative quantities are read as sells/],
    first: { symbol: "NVDA", side: "buy", quantity: "50", price: "540.10", fees: "0.2500000000", executed_at: "2024-01-19T14:30:15.000Z" },
  },
  {
    name: "snake_case names, UTC times, ids and a currency",
    csv: "exec_id,ts,sym,dir,filled,avg_px,commission,ccy\ne-9001,2024-01-19T14:30:15Z,SPY,LONG,10,478.12,0.10,USD\ne-9002,2024-01-19T15:45:00Z,SPY,SHORT,10,479.40,0.10,USD\n",
    mapping: { executionId: "exec_id", executedAt: "ts", symbol: "sym", side: "dir", quantity: "filled", price: "avg_px", fees: "commission", currency: "ccy" },
    options: { dateFormat: "iso" },
    first: { symbol: "SPY", side: "buy", quantity: "10", price: "478.12", fees: "0.1000000000", executed_at: "2024-01-19T14:30:15.000Z", execution_id: "e-9001" },
  },
  {
    name: "a trade log with its plan: Stop Loss and Take Profit columns as the trade's stop and target (docs/imports.md)",
    csv: "Date/Time,Symbol,Side,Quantity,Price,Fees,Stop Loss,Take Profit\n2024-01-19T09:30:15,AAPL,BUY,100,191.50,1.00,189.00,196.00\n2024-01-19T10:02:41,AAPL,SELL,100,192.25,1.00,,\n",
    mapping: { executedAt: "Date/Time", symbol: "Symbol", side: "Side", quantity: "Quantity", price: "Price", fees: "Fees", stopPrice: "Stop Loss", targetPrice: "Take Profit" },
    options: { dateFormat: "iso" },
    first: { symbol: "AAPL", side: "buy", quantity: "100", price: "191.50", stop_price: "189.00", target_price: "196.00" },
  },
  {
    name: "names in another language: the values alone (fees need a name)",
    csv: "Zeitpunkt,Wertpapier,Richtung,Anzahl,Preis,Provision\n2024-01-19 09:30:15,SAP,BUY,20,160.52,4.90\n2024-01-19 16:10:02,SAP,SELL,20,162.10,4.90\n",
    mapping: { executedAt: "Zeitpunkt", symbol: "Wertpapier", side: "Richtung", quantity: "Anzahl", price: "Preis" },
    options: { dateFormat: "iso" },
    first: { symbol: "SAP", side: "buy", quantity: "20", price: "160.52", fees: "0", executed_at: "2024-01-19T14:30:15.000Z" },
  },
];

describe("a suggested mapping, by rules alone", () => {
  it.each(LAYOUTS.map((l) => [l.name, l] as const))("%s", (_name, layout) => {
    const { header, rows } = headerAndRows(layout.csv, layout.delimiter);
    // What the import page sends: the header the server reads, and the rows under it.
    expect(readCsv(layout.csv, { ...(layout.delimiter ? { delimiter: layout.delimiter } : {}) }, 100).header).toEqual(header);
    const suggestion = suggestMapping(header, rows);
    expect(suggestion.mapping).toEqual(layout.mapping);
    expect(suggestion.options).toEqual(layout.options);
    for (const note of layout.notes ?? []) expect(suggestion.notes.join(" ")).toMatch(note);
    // Accepted as it is, it reads every row.
    const options = { ...suggestion.options, ...(layout.delimiter ? { delimiter: layout.delimiter } : {}) };
    const result = normalizeCsv(layout.csv, suggestion.mapping as ImportMapping, options, ACCOUNT, 100);
    expect(result.errors).toEqual([]);
    expect(result.fills).toHaveLength(rows.length);
    expect(result.fills[0]).toMatchObject(layout.first);
  });

  it("says what it could not find, and when the date order is a guess", () => {
    const { header, rows } = headerAndRows("A,B,C\n01/02/2024,foo bar baz,x\n", ",");
    const suggestion = suggestMapping(header, rows);
    expect(suggestion.mapping).toEqual({ date: "A" });
    expect(suggestion.notes).toEqual([
      "No date in the sample has a day above 12, so the dates could be day or month first: they are read as month first (MM/DD/YYYY). Check the date format.",
      "No column looks like the symbol: choose it.",
      "No column looks like the quantity: choose it.",
      "No column looks like the price: choose it.",
      "No column looks like the side (buy or sell): choose it.",
    ]);
  });
});

describe("POST /api/csv-import/suggest, and the mapping an account keeps", () => {
  const layout = LAYOUTS[1]!;
  const { header, rows } = headerAndRows(layout.csv, layout.delimiter);

  it("suggests by the rules, then offers the account's own mapping for the same header; never another's", async () => {
    const j = await journal(inject("databaseUrl"));
    const { client } = await j.signUp("suggest");
    const accountId = (await (await client.post("/api/accounts", { name: `Suggest ${crypto.randomUUID()}`, currency: "USD", timezone: "America/New_York" })).json()).id as string;
    const first = await client.post("/api/csv-import/suggest", { accountId, header, rows });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ mapping: layout.mapping, options: layout.options, notes: [], source: "rules", savedAt: null });

    // The trader corrects it (the fees are not "Cost" after all) and previews: the mapping is kept.
    const { fees: _cost, ...mine } = layout.mapping;
    const form = new FormData();
    form.set("file", new Blob([layout.csv]), "mine.csv");
    form.set("request", JSON.stringify({ accountId, mapping: mine, options: { ...layout.options, delimiter: ";", timezone: "Europe/Berlin" } }));
    const preview = await client.request("/api/csv-import/preview", { method: "POST", body: form });
    expect(preview.status, await preview.clone().text()).toBe(201);
    // The same layout again (its names in other letter case and spacing): the saved mapping, with its options.
    const again = await (await client.post("/api/csv-import/suggest", { accountId, header: header.map((h) => ` ${h.toUpperCase()} `), rows: [] })).json();
    expect(again).toMatchObject({ mapping: mine, options: { ...layout.options, delimiter: ";", timezone: "Europe/Berlin" }, source: "saved", notes: [] });
    expect(Date.parse(again.savedAt)).toBeGreaterThan(Date.now() - 60_000);
    const [kept] = await j.db.execute(sql`select count(*)::int as n from import_mappings where account_id = ${accountId}::uuid`).then((r) => r.rows as Array<{ n: number }>);
    expect(kept!.n).toBe(1);

    // Another account of the same trader has none; a preset's preview saves nothing; another trader's account is 404.
    const other = (await (await client.post("/api/accounts", { name: `Other ${crypto.randomUUID()}`, currency: "USD" })).json()).id as string;
    expect((await (await client.post("/api/csv-import/suggest", { accountId: other, header, rows })).json()).source).toBe("rules");
    const stranger = (await j.signUp("stranger")).client;
    const foreign = await stranger.post("/api/csv-import/suggest", { accountId, header, rows });
    expect(foreign.status).toBe(404);
    // Bad bodies are 400 with the field named.
    for (const body of [{ header: [], rows }, { header, rows: Array.from({ length: 51 }, () => ["x"]) }, { header, rows, extra: 1 }, { header: "Date", rows }]) {
      const res = await client.post("/api/csv-import/suggest", body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
  });
});
