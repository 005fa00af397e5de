import { describe, expect, it } from "vitest";
import { AppError, type FieldError } from "../../lib/errors.ts";
import { FUTURES } from "../../lib/instruments/futures.ts";
import { FUTURES_MULTIPLIERS, resolveInstrument, type AssetClass, type Instrument, type InstrumentInput } from "../../lib/instruments/instruments.ts";

/** 1-digit futures years resolve into [2024, 2033] from here. */
const NOW = new Date("2026-06-15T12:00:00Z");

function fieldsOf(input: InstrumentInput, now = NOW): FieldError[] {
  try {
    resolveInstrument(input, now);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.status).toBe(400);
    return error.fields ?? [];
  }
  throw new Error(`expected VALIDATION_ERROR for ${JSON.stringify(input)}`);
}

const paths = (fields: FieldError[]) => fields.map((f) => f.path);

describe("stocks", () => {
  it.each([
    ["aapl", "AAPL"],
    ["  msft \t", "MSFT"],
    ["brk.b", "BRK.B"],
    ["BRK/B", "BRK/B"],
    ["bf-b", "BF-B"],
    ["ABCDEFGHIJ12", "ABCDEFGHIJ12"],
    // Not futures: an unknown root, a letter that is no month code, no year.
    ["FOOZ4", "FOOZ4"],
    ["ESA4", "ESA4"],
    ["CLF", "CLF"],
  ])("%j is the stock %s with multiplier 1", (symbol, normal) => {
    expect(resolveInstrument({ symbol }, NOW)).toStrictEqual({ symbol: normal, assetClass: "stock", multiplier: "1" });
  });

  it.each([["ABCDEFGHIJKLM"], [".AAPL"], ["-A"], ["AA PL"], ["AAPL$"], ["O:AAPL"]])("refuses %j", (symbol) => {
    expect(paths(fieldsOf({ symbol }))).toEqual(["symbol"]);
    expect(paths(fieldsOf({ symbol, assetClass: "stock" }))).toEqual(["symbol"]);
  });

  it("an explicit stock class keeps a futures-looking ticker a stock", () => {
    expect(resolveInstrument({ symbol: "esz4", assetClass: "stock" }, NOW)).toStrictEqual({ symbol: "ESZ4", assetClass: "stock", multiplier: "1" });
  });
});

describe("options (OCC/OSI)", () => {
  const aaplCall: Instrument = {
    symbol: "AAPL  240119C00150000",
    assetClass: "option",
    multiplier: "100",
    option: { root: "AAPL", expiry: "2024-01-19", right: "call", strike: "150" },
  };

  it.each([
    ["AAPL  240119C00150000"],
    ["AAPL240119C00150000"],
    ["aapl240119c00150000"],
    [" AAPL 240119C00150000 "],
    [".AAPL240119C00150000"],
    ["O:AAPL240119C00150000"],
    ["o:aapl  240119c00150000"],
  ])("%j normalises to the padded 21-character form", (symbol) => {
    const instrument = resolveInstrument({ symbol }, NOW);
    expect(instrument).toStrictEqual(aaplCall);
    expect(instrument.symbol).toHaveLength(21);
    expect(resolveInstrument({ symbol, assetClass: "option" }, NOW)).toStrictEqual(aaplCall);
  });

  it.each([
    ["AAPL240119P00012500", "AAPL  240119P00012500", { root: "AAPL", expiry: "2024-01-19", right: "put", strike: "12.5" }],
    ["SPXW240621P05000000", "SPXW  240621P05000000", { root: "SPXW", expiry: "2024-06-21", right: "put", strike: "5000" }],
    ["X261218C00000500", "X     261218C00000500", { root: "X", expiry: "2026-12-18", right: "call", strike: "0.5" }],
    ["AAPL1 240119C00150000", "AAPL1 240119C00150000", { root: "AAPL1", expiry: "2024-01-19", right: "call", strike: "150" }],
    ["GOOGL 240229C00141125", "GOOGL 240229C00141125", { root: "GOOGL", expiry: "2024-02-29", right: "call", strike: "141.125" }],
    ["BRKB12240119C99999999", "BRKB12240119C99999999", { root: "BRKB12", expiry: "2024-01-19", right: "call", strike: "99999.999" }],
  ])("%j -> %j", (symbol, normal, option) => {
    expect(resolveInstrument({ symbol }, NOW)).toStrictEqual({ symbol: normal, assetClass: "option", multiplier: "100", option });
  });

  it.each([
    ["AAPL230229C00150000", "not a real date (2023-02-29)"],
    ["AAPL240230C00150000", "not a real date (2024-02-30)"],
    ["AAPL240431C00150000", "not a real date (2024-04-31)"],
    ["AAPL241319C00150000", "not a real date (2024-13-19)"],
    ["AAPL240100C00150000", "not a real date (2024-01-00)"],
    ["AAPL240119C00000000", "strike must be greater than zero"],
    ["ABCDEFG240119C00150000", "root longer than 6 characters"],
    ["AAPL   240119C00150000", "root longer than 6 characters"],
  ])("refuses %j (%s)", (symbol, message) => {
    for (const assetClass of [undefined, "option"] as const) {
      const fields = fieldsOf({ symbol, assetClass });
      expect(paths(fields)).toEqual(["symbol"]);
      expect(fields[0]!.message).toContain(message);
    }
  });

  it.each([["AAPL"], ["ESZ4"], ["AAPL240119X00150000"], ["AAPL240119C0015000"], ["AAPL240119C150"], ["/AAPL240119C00150000"]])(
    "%j with assetClass option is refused",
    (symbol) => {
      const fields = fieldsOf({ symbol, assetClass: "option" });
      expect(fields).toEqual([{ path: "symbol", message: expect.stringContaining("OCC option symbol") }]);
    },
  );

  it("an OCC symbol with another explicit class is refused", () => {
    expect(paths(fieldsOf({ symbol: "AAPL240119C00150000", assetClass: "stock" }))).toEqual(["symbol"]);
    expect(paths(fieldsOf({ symbol: "AAPL240119C00150000", assetClass: "future" }))).toEqual(["symbol"]);
  });

  it("an explicit multiplier (mini options) overrides 100", () => {
    expect(resolveInstrument({ symbol: "AAPL240119C00150000", multiplier: "10" }, NOW)).toStrictEqual({ ...aaplCall, multiplier: "10" });
  });
});

describe("futures", () => {
  it.each<[string, string, string, string, number, string]>([
    ["ESZ4", "ESZ24", "ES", "Z", 2024, "50"],
    ["ESZ24", "ESZ24", "ES", "Z", 2024, "50"],
    ["/ESZ2024", "ESZ24", "ES", "Z", 2024, "50"],
    ["@ESZ2024", "ESZ24", "ES", "Z", 2024, "50"],
    [" /esz4 ", "ESZ24", "ES", "Z", 2024, "50"],
    ["ESH05", "ESH05", "ES", "H", 2005, "50"],
    ["MNQH5", "MNQH25", "MNQ", "H", 2025, "2"],
    ["ZNZ4", "ZNZ24", "ZN", "Z", 2024, "1000"],
    ["ZTU26", "ZTU26", "ZT", "U", 2026, "2000"],
    ["CLF7", "CLF27", "CL", "F", 2027, "1000"],
    ["NGG2030", "NGG30", "NG", "G", 2030, "10000"],
    ["6JM6", "6JM26", "6J", "M", 2026, "12500000"],
    ["6BJ25", "6BJ25", "6B", "J", 2025, "62500"],
    ["MYMK5", "MYMK25", "MYM", "K", 2025, "0.5"],
    ["MBTN5", "MBTN25", "MBT", "N", 2025, "0.1"],
    ["/VXQ5", "VXQ25", "VX", "Q", 2025, "1000"],
    ["HEV5", "HEV25", "HE", "V", 2025, "400"],
  ])("%j -> %j", (symbol, normal, root, month, year, multiplier) => {
    const expected: Instrument = { symbol: normal, assetClass: "future", multiplier, future: { root, month, year }, currency: "USD", tickSize: FUTURES.get(root)!.tickSize };
    expect(resolveInstrument({ symbol }, NOW)).toStrictEqual(expected);
    expect(resolveInstrument({ symbol, assetClass: "future" }, NOW)).toStrictEqual(expected);
  });

  it.each([
    // The longer root wins over the shorter root it ends with or starts with.
    ["MESZ4", "MES", "5"],
    ["ESZ4", "ES", "50"],
    ["SILH5", "SIL", "1000"],
    ["SIH5", "SI", "5000"],
    ["M2KM5", "M2K", "5"],
    ["RTYM5", "RTY", "50"],
    ["M6EU5", "M6E", "12500"],
    ["6EU5", "6E", "125000"],
    ["MNQU5", "MNQ", "2"],
    ["NQU5", "NQ", "20"],
    ["MCLU5", "MCL", "100"],
    ["MGCZ5", "MGC", "10"],
    ["GCZ5", "GC", "100"],
  ])("%j has root %s and multiplier %s", (symbol, root, multiplier) => {
    const instrument = resolveInstrument({ symbol }, NOW);
    expect(instrument.future?.root).toBe(root);
    expect(instrument.multiplier).toBe(multiplier);
  });

  it.each([
    // now = 2026: the window is [2024, 2033].
    ["2026-06-15T12:00:00Z", "4", 2024],
    ["2026-06-15T12:00:00Z", "5", 2025],
    ["2026-06-15T12:00:00Z", "6", 2026],
    ["2026-06-15T12:00:00Z", "0", 2030],
    ["2026-06-15T12:00:00Z", "3", 2033],
    // now = 2029: [2027, 2036].
    ["2029-01-01T00:00:00Z", "7", 2027],
    ["2029-01-01T00:00:00Z", "6", 2036],
    ["2029-01-01T00:00:00Z", "0", 2030],
    // now = 2031: [2029, 2038]; the decade rolls over.
    ["2031-12-31T23:59:59Z", "9", 2029],
    ["2031-12-31T23:59:59Z", "8", 2038],
    ["2031-12-31T23:59:59Z", "1", 2031],
  ])("at %s a 1-digit year %s is %i", (now, digit, year) => {
    const instrument = resolveInstrument({ symbol: `ESZ${digit}` }, new Date(now));
    expect(instrument.future?.year).toBe(year);
    expect(instrument.symbol).toBe(`ESZ${String(year % 100).padStart(2, "0")}`);
  });

  it("2- and 4-digit years do not depend on now", () => {
    for (const now of [new Date("2020-01-01T00:00:00Z"), new Date("2090-01-01T00:00:00Z")]) {
      expect(resolveInstrument({ symbol: "ESZ24" }, now).future?.year).toBe(2024);
      expect(resolveInstrument({ symbol: "ESZ2031" }, now).future?.year).toBe(2031);
    }
  });

  it("now defaults to the current date", () => {
    const year = new Date().getUTCFullYear();
    const resolved = resolveInstrument({ symbol: "ESZ0" }).future!.year;
    expect(resolved % 10).toBe(0);
    expect(resolved).toBeGreaterThanOrEqual(year - 2);
    expect(resolved).toBeLessThanOrEqual(year + 7);
  });

  it.each<[string, AssetClass | undefined, string]>([
    ["/ESA4", undefined, 'month code "A"'],
    ["ESA4", "future", 'month code "A"'],
    ["/ESI24", undefined, 'month code "I"'],
    ["ESZ1999", undefined, "outside 2000-2099"],
    ["/ESZ2100", undefined, "outside 2000-2099"],
    ["ESZ244", undefined, "not 1, 2 or 4 digits"],
    ["/ESZ244", undefined, "not 1, 2 or 4 digits"],
    ["ESZ", "future", "futures symbol"],
    ["/", undefined, "futures symbol"],
    ["/Z4", undefined, "futures symbol"],
    ["/ES", undefined, "futures symbol"],
    ["AAPL", "future", "futures symbol"],
    ["ABCDEFGZ4", "future", "root longer than 6 characters"],
    ["/FOOZ4", undefined, 'futures root "FOO", which the journal does not know'],
    ["@FOOZ24", undefined, 'futures root "FOO", which the journal does not know'],
    ["FOO DEC 25", undefined, 'futures root "FOO", which the journal does not know'],
  ])("refuses %j (class %s): %s", (symbol, assetClass, message) => {
    const fields = fieldsOf({ symbol, assetClass });
    expect(paths(fields)).toEqual(["symbol"]);
    expect(fields[0]!.message).toContain(message);
  });

  it("an unknown root is a future only when asked, and then needs a multiplier", () => {
    expect(fieldsOf({ symbol: "FOOZ4", assetClass: "future" })).toEqual([
      { path: "multiplier", message: expect.stringContaining('"FOO" is not a futures root the journal knows') },
    ]);
    expect(resolveInstrument({ symbol: "/fooz4", assetClass: "future", multiplier: "25" }, NOW)).toStrictEqual({
      symbol: "FOOZ24",
      assetClass: "future",
      multiplier: "25",
      future: { root: "FOO", month: "Z", year: 2024 },
    });
    // A bad multiplier is reported once, as bad, not also as missing.
    expect(fieldsOf({ symbol: "FOOZ4", assetClass: "future", multiplier: "0" })).toEqual([
      { path: "multiplier", message: expect.stringContaining("positive") },
    ]);
  });

  it.each([
    ["ES DEC 25", "ESZ25"],
    ["ES DEC25", "ESZ25"],
    ["es dec '25", "ESZ25"],
    ["ES Dec 2025", "ESZ25"],
    ["/ES MAR 26", "ESH26"],
    ["MES JUN 26", "MESM26"],
    ["CL JAN 27", "CLF27"],
  ])("the month spelled out: %j is %s", (symbol, normal) => {
    expect(resolveInstrument({ symbol }, NOW).symbol).toBe(normal);
    expect(resolveInstrument({ symbol, assetClass: "future" }, NOW).symbol).toBe(normal);
  });

  it("a known contract brings its currency and tick size; a yen contract settles in yen", () => {
    expect(resolveInstrument({ symbol: "ESZ5" }, NOW)).toMatchObject({ multiplier: "50", tickSize: "0.25", currency: "USD" });
    expect(resolveInstrument({ symbol: "NIYH6" }, NOW)).toMatchObject({ multiplier: "500", tickSize: "5", currency: "JPY" });
    expect(resolveInstrument({ symbol: "ZNZ5" }, NOW)).toMatchObject({ tickSize: "0.015625" });
  });

  it("an explicit multiplier overrides the table", () => {
    expect(resolveInstrument({ symbol: "ESZ4", multiplier: "5" }, NOW).multiplier).toBe("5");
    expect(resolveInstrument({ symbol: "ESZ4", assetClass: "future", multiplier: "12.5" }, NOW).multiplier).toBe("12.5");
  });
});

describe("the multiplier table", () => {
  // CME contract specifications (VX: Cboe Futures Exchange).
  const expected: Record<string, string> = {
    ES: "50", MES: "5", NQ: "20", MNQ: "2", YM: "5", MYM: "0.5", RTY: "50", M2K: "5",
    CL: "1000", MCL: "100", QM: "500", NG: "10000", QG: "2500",
    GC: "100", MGC: "10", SI: "5000", SIL: "1000", HG: "25000", PL: "50",
    ZB: "1000", UB: "1000", ZN: "1000", ZF: "1000", ZT: "2000",
    ZC: "50", ZS: "50", ZW: "50", HE: "400", LE: "400",
    "6E": "125000", M6E: "12500", "6J": "12500000", "6B": "62500", "6A": "100000", "6C": "100000", "6S": "125000",
    BTC: "5", MBT: "0.1", ETH: "50", MET: "0.1", VX: "1000",
  };

  it.each(Object.entries(expected))("%s is %s", (root, value) => {
    expect(FUTURES_MULTIPLIERS[root]).toBe(value);
    expect(resolveInstrument({ symbol: `${root}Z5` }, NOW)).toMatchObject({ assetClass: "future", multiplier: value, future: { root } });
  });

  it("holds decimal strings only and cannot be changed", () => {
    for (const value of Object.values(FUTURES_MULTIPLIERS)) expect(value).toMatch(/^\d+(\.\d+)?$/);
    expect(Object.isFrozen(FUTURES_MULTIPLIERS)).toBe(true);
  });
});

describe("multiplier and input validation", () => {
  it.each([["0"], ["0.00"], ["-5"], ["+5"], ["abc"], [""], [" 5"], ["1e3"], ["1.12345678901"], ["1,000"], [5 as unknown as string]])(
    "refuses the multiplier %j",
    (multiplier) => {
      expect(fieldsOf({ symbol: "AAPL", multiplier })).toEqual([{ path: "multiplier", message: expect.any(String) }]);
    },
  );

  it.each([["1"], ["0.5"], ["0.0000000001"], ["125000"], ["100.00"]])("accepts the multiplier %j as given", (multiplier) => {
    expect(resolveInstrument({ symbol: "AAPL", multiplier }, NOW).multiplier).toBe(multiplier);
  });

  it.each([[""], ["   "], [undefined as unknown as string]])("requires a symbol (%j)", (symbol) => {
    expect(fieldsOf({ symbol })).toEqual([{ path: "symbol", message: "is required" }]);
  });

  it("refuses an unknown asset class", () => {
    expect(fieldsOf({ symbol: "AAPL", assetClass: "crypto" as AssetClass })).toEqual([
      { path: "assetClass", message: "must be stock, option or future" },
    ]);
  });

  it("reports every bad field at once, symbol first", () => {
    expect(paths(fieldsOf({ symbol: "/ESA4", multiplier: "-1" }))).toEqual(["symbol", "multiplier"]);
    expect(paths(fieldsOf({ symbol: "AAPL", assetClass: "bond" as AssetClass, multiplier: "x" }))).toEqual(["assetClass", "multiplier"]);
    expect(paths(fieldsOf({ symbol: " ", assetClass: "bond" as AssetClass, multiplier: "0" }))).toEqual(["symbol", "assetClass", "multiplier"]);
  });
});
