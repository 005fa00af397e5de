import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PRESETS } from "../../../../lib/imports/presets.ts";
import {
  buildMapping,
  detectDelimiter,
  detectPreset,
  emptySelection,
  guessSelection,
  numberedColumns,
  parseCsvRows,
  selectionFromMapping,
} from "./detect.ts";

// happy-dom gives import.meta.url a page URL, so the path comes from the file's folder.
const FIXTURES = resolve(import.meta.dirname, "../../../../tests/fixtures/brokers") + "/";
const rowsOf = (text: string, partial = false) => parseCsvRows(text, detectDelimiter(text), partial);

describe("reading the start of a CSV file", () => {
  it("splits quoted cells, doubled quotes, newlines inside quotes, CRLF and a BOM", () => {
    const text = '\uFEFFDate,"Desc, with comma","Say ""hi"""\r\n2024-01-19,"two\nlines",x\r\n';
    expect(parseCsvRows(text, ",")).toEqual([
      ["Date", "Desc, with comma", 'Say "hi"'],
      ["2024-01-19", "two\nlines", "x"],
    ]);
  });

  it("drops the cut-off last row of a partial read, keeps it for a whole file", () => {
    expect(parseCsvRows("a,b\n1,2\n3,", ",", true)).toEqual([["a", "b"], ["1", "2"]]);
    expect(parseCsvRows("a,b\n1,2\n3,", ",")).toEqual([["a", "b"], ["1", "2"], ["3", ""]]);
  });

  it("detects the delimiter from the first non-blank line, ignoring quoted ones", () => {
    expect(detectDelimiter("\nA;B;C\n1;2;3")).toBe(";");
    expect(detectDelimiter('"a,b";"c,d";e')).toBe(";");
    expect(detectDelimiter("a\tb\tc")).toBe("\t");
    expect(detectDelimiter("a,b|c")).toBe(","); // a tie keeps the first candidate
  });
});

describe("preset detection from the header row", () => {
  const presets = PRESETS.map((p) => ({ ...p }));

  it.each(readdirSync(FIXTURES).filter((f) => f.endsWith(".csv")))("recognises the %s fixture as its own preset", (file) => {
    const match = detectPreset(rowsOf(readFileSync(FIXTURES + file, "utf8")), presets);
    expect(match?.preset.id).toBe(file.replace(/\.csv$/, ""));
  });

  it("finds a header below title lines (headerRowContains) and reports the matched header", () => {
    const text = "\nBrokerage\n\nRun Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Cash Balance ($),Settlement Date\n";
    const match = detectPreset(rowsOf(text), presets);
    expect(match?.preset.id).toBe("fidelity");
    expect(match?.score).toBe(1);
    expect(match?.header[0]).toBe("Run Date");
  });

  it("matches case and spacing loosely, and prefers the preset whose whole header fits", () => {
    const text = "date/time, symbol ,SIDE,Quantity,Price,Fees,Execution  ID\n2024-01-19T09:30:15,AAPL,BUY,1,1,0,x\n";
    expect(detectPreset(rowsOf(text), presets)?.preset.id).toBe("generic");
  });

  it("fits no preset when a column it reads is missing, whatever else matches", () => {
    const text = "Date/Time,Symbol,Side,Quantity,Price\n2024-01-19T09:30:15,AAPL,BUY,1,1\n";
    expect(detectPreset(rowsOf(text), presets)).toBeNull();
    expect(detectPreset(rowsOf("When,Ticker,Dir,Size,Px\n"), presets)).toBeNull();
    expect(detectPreset([], presets)).toBeNull();
  });
});

describe("manual mapping", () => {
  it("guesses the columns of a common header, one column per field", () => {
    const g = guessSelection(["Trade Date", "Time", "Ticker", "Action", "Qty", "Avg Price", "Commission", "Exec ID", "Currency"]);
    expect(g).toMatchObject({ date: "Trade Date", time: "Time", symbol: "Ticker", side: "Action", quantity: "Qty", price: "Avg Price", fees: "Commission", executionId: "Exec ID", currency: "Currency" });
    expect(g.executedAt).toBe("");
    const one = guessSelection(["Date/Time", "Symbol", "Side", "Quantity", "Price"]);
    expect(one).toMatchObject({ executedAt: "Date/Time", date: "", time: "", stopPrice: "", targetPrice: "" });
    // A trade log with its plan: the stop and target columns found too.
    expect(guessSelection(["Date/Time", "Symbol", "Side", "Quantity", "Price", "Stop Loss", "Take Profit"])).toMatchObject({ stopPrice: "Stop Loss", targetPrice: "Take Profit" });
  });

  it("builds the API's mapping from the chosen columns, leaving unchosen fields out", () => {
    const selection = { ...emptySelection(), executedAt: "When", symbol: "Ticker", side: "Dir", quantity: "Size", price: "Px" };
    expect(buildMapping(selection)).toEqual({
      mapping: { executedAt: "When", symbol: "Ticker", side: "Dir", quantity: "Size", price: "Px" },
      problems: [],
    });
    const fromPreset = selectionFromMapping(PRESETS.find((p) => p.id === "tradezero")!.mapping);
    const built = buildMapping(fromPreset, { extraFees: ["SEC", "TAF"] });
    expect(built.mapping).toMatchObject({ date: "T/D", time: "Exec Time", fees: "Comm", extraFees: ["SEC", "TAF"], currency: "Currency" });
  });

  it("names what is missing or mapped twice", () => {
    const r = buildMapping({ ...emptySelection(), symbol: "A", quantity: "A" });
    expect(r.mapping).toBeNull();
    expect(r.problems.map((p) => p.field).sort()).toEqual(["executedAt", "price", "quantity", "side"].sort());
    expect(r.problems.find((p) => p.field === "quantity")?.message).toMatch(/already mapped/);
  });

  it("accepts no side column with the quantity-sign option, and times only with a trade date", () => {
    const base = { ...emptySelection(), time: "Time", symbol: "S", quantity: "Q", price: "P" };
    expect(buildMapping(base, { sideFromQuantitySign: true }).problems.map((p) => p.field)).toEqual(["executedAt"]);
    expect(buildMapping(base, { sideFromQuantitySign: true, tradeDate: "2024-01-19" }).problems).toEqual([]);
  });

  it("offers numbered columns for a file without a header", () => {
    expect(numberedColumns(["2024-01-19", "AAPL", ""])).toEqual([
      { value: "1", label: "Column 1 (e.g. “2024-01-19”)" },
      { value: "2", label: "Column 2 (e.g. “AAPL”)" },
      { value: "3", label: "Column 3" },
    ]);
  });
});
