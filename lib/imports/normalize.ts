// From CSV text to normalised fills: papaparse reads the file, the mapping picks the columns, and every
// cell is checked with its row number so a bad row never stops the good ones.
import Papa from "papaparse";
import { AppError } from "../errors.ts";
import { MAX_FRACTION_DIGITS, MAX_INTEGER_DIGITS, divideUnits, fromUnits, multiplyUnits, toUnits, unitsToDecimal } from "../money.ts";
import { CANONICAL_TIME_ZONES } from "../time/zones.ts";
import { inStoredRange, RANGE_MESSAGE } from "../time/range.ts";
import { dayIn, zonedTimeToUtc } from "../time/zoned.ts";
import type { CashFill } from "../trades/cash.ts";
import { resolveInstrument, type AssetClass } from "../instruments/instruments.ts";
import { quoteOfPair } from "../trades/pairs.ts";
import { estimateFee, type FeeSchedule } from "../accounts/fees.ts";
import type { ImportMapping, ImportOptions } from "./schema.ts";

/** A fill as staged for the commit: what its cash effect needs (lib/trades/cash.ts), and where it came from. */
export type StagedFill = CashFill & {
  row: number;
  execution_id: string | null;
  /** The broker's order (mapping.orderId, or a multi-leg order's first row: options.multiLegRows), when known. */
  order_id?: string;
  duplicate?: boolean;
  /** The row carried no fee: `fees` is the account's fee schedule's estimate (lib/accounts/fees.ts). */
  fees_estimated?: boolean;
  /** The plan the row gives its trade (mapping.stopPrice / targetPrice), when it gives one. */
  stop_price?: string;
  target_price?: string;
  /** When the trader deleted this very execution by hand (fill_tombstones): importing it brings it back. */
  deleted_at?: string;
  /** What another journal's row said of its trade (mapping.notes / tags), on the row's opening fill. */
  notes?: string;
  tags?: string[];
  /** The file's own P&L of the row (mapping.pnl), on its opening fill: the preview's reconciliation. */
  file_pnl?: string;
};

export type RowError = { row: number; column?: string; message: string };

/** A broker's own rate (mapping.fxRateToBase): 1 of the account's currency is `k` of `base` on `day`, in the account's zone. */
export type BrokerRate = { day: string; base: string; k: string };


const BUY_WORDS = ["BUY", "BOT", "B", "BOUGHT", "BTO", "BTC", "BUY TO OPEN", "BUY TO CLOSE", "BUY TO COVER", "COVER", "LONG"];
const SELL_WORDS = ["SELL", "SLD", "S", "SOLD", "SS", "SHORT", "SELL SHORT", "STO", "STC", "SELL TO OPEN", "SELL TO CLOSE", "SSHRT"];

/** Decodes the upload as UTF-8 (a BOM is dropped); anything else is refused with a clear message. */
export function decodeCsv(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new AppError("VALIDATION_ERROR", "The file is not UTF-8 text. Export it as CSV (UTF-8) and try again.", {
      fields: [{ path: "file", message: "is not UTF-8 text" }],
    });
  }
  // NUL characters: a UTF-16 export or a binary file, and nothing Postgres can store.
  if (text.includes("\u0000")) {
    throw new AppError("VALIDATION_ERROR", "The file contains NUL characters: it is not CSV text. Export it as CSV (UTF-8) and try again.", {
      fields: [{ path: "file", message: "contains NUL characters" }],
    });
  }
  return text;
}

/** What reading a file found besides its rows: the header, where it was, how many data rows followed. */
export type CsvShape = {
  header: string[] | null;
  /** Row number (1-based, blank lines not counted) of the header when rows above it were skipped (headerRowContains). */
  headerRow?: number;
  rowCount: number;
};

/** A row the format leaves out on purpose, and why. */
export type RowSkip = { row: number; reason: string };

const isBlankRow = (row: string[]) => row.every((c) => c.trim() === "");

/**
 * Reads the file row by row (papaparse's step mode): each data row is handed to `onRow` with its row number
 * (1-based, blank lines not counted, the header being row 1 or `headerRow`) and then let go, so only one
 * row's cells are alive at a time, whatever the file's size. Stops at the first row past `maxRows` (413).
 * The header (options.headerRowContains finds it below other rows) and the end of the section
 * (options.endAtBlankRow) follow the options.
 */
export function readCsv(
  text: string,
  options: ImportOptions,
  maxRows: number,
  onRow: (cells: string[], row: number, header: string[] | null) => void = () => {},
): CsvShape {
  const hasHeader = options.hasHeader ?? true;
  const wanted = options.headerRowContains?.map(normalText);
  let seeking = wanted !== undefined;
  let nonBlankAbove = 0;
  let headerRow: number | undefined;
  let header: string[] | null = null;
  let headerSeen = !hasHeader;
  let started = false;
  let rowCount = 0;
  let tooMany = false;
  let anyRow = false;
  let fatal: { row?: number; message: string } | undefined;
  Papa.parse<string[]>(text, {
    delimiter: options.delimiter ?? "",
    // endAtBlankRow needs to see the blank rows; they are dropped below instead.
    skipEmptyLines: options.endAtBlankRow ? false : "greedy",
    step: (result, parser) => {
      fatal ??= result.errors.find((e) => e.type === "Quotes" || e.code === "UndetectableDelimiter");
      const cells = result.data;
      anyRow = true;
      const blank = isBlankRow(cells);
      if (seeking) {
        const have = new Set(cells.map(normalText));
        if (!wanted!.every((w) => have.has(w))) {
          if (!blank) nonBlankAbove += 1;
          return;
        }
        seeking = false;
        headerRow = nonBlankAbove + 1;
      }
      if (options.endAtBlankRow && blank) {
        // Blank rows before the section are skipped; the first one after it ends it.
        if (started) parser.abort();
        return;
      }
      started = true;
      if (!headerSeen) {
        header = cells.map((h) => h.trim());
        headerSeen = true;
        return;
      }
      if (rowCount === maxRows) {
        tooMany = true;
        parser.abort();
        return;
      }
      rowCount += 1;
      onRow(cells, rowCount + (hasHeader ? (headerRow ?? 1) : 0), header);
    },
  });
  if (fatal && !anyRow) {
    throw new AppError("VALIDATION_ERROR", `The file could not be read as CSV (row ${(fatal.row ?? 0) + 1}: ${fatal.message}).`, {
      fields: [{ path: "file", message: fatal.message }],
    });
  }
  if (seeking) {
    throw new AppError("VALIDATION_ERROR", `No header row with ${options.headerRowContains!.map((h) => `"${h}"`).join(", ")} was found.`, {
      fields: [{ path: "file", message: "has no matching header row" }],
    });
  }
  if (tooMany) {
    throw new AppError("PAYLOAD_TOO_LARGE", `The file has more than ${maxRows} data rows; the limit is ${maxRows} (CSV_IMPORT_MAX_ROWS).`);
  }
  const headerList = header as string[] | null;
  if ((hasHeader && !headerList?.length) || rowCount === 0) {
    throw new AppError("VALIDATION_ERROR", hasHeader && headerList?.length ? "The file has a header row but no data rows." : "The file is empty.", {
      fields: [{ path: "file", message: "has no data rows" }],
    });
  }
  return { header: headerList, ...(headerRow === undefined ? {} : { headerRow }), rowCount };
}

/**
 * options.feeSection: the fees of each row of that section, by the second they were charged (UTC ISO to the
 * second), in file order. A section that is missing adds nothing. Read in a pass of its own that keeps
 * only that section's rows.
 */
function feesBySecond(text: string, options: ImportOptions, timeZone: string): Map<string, bigint[]> {
  const section = options.feeSection;
  const out = new Map<string, bigint[]>();
  if (!section) return out;
  const wanted = section.headerRowContains.map(normalText);
  let header: string[] | null = null;
  const rows: string[][] = [];
  Papa.parse<string[]>(text, {
    delimiter: options.delimiter ?? "",
    skipEmptyLines: options.endAtBlankRow ? false : "greedy",
    step: ({ data: row }, parser) => {
      if (!header) {
        const have = new Set(row.map(normalText));
        if (wanted.every((w) => have.has(w))) header = row.map(normalText);
        return;
      }
      if (isBlankRow(row)) parser.abort();
      else rows.push(row);
    },
  });
  if (!header) return out;
  const names: string[] = header;
  const index = (name: string) => names.indexOf(normalText(name));
  const date = index(section.date);
  const time = section.time ? index(section.time) : -1;
  const fees = section.fees.map(index).filter((i) => i >= 0);
  if (date < 0) return out;
  for (const row of rows) {
    const when = parseTimestamp(`${row[date] ?? ""} ${time >= 0 ? (row[time] ?? "") : ""}`.trim(), options.dateFormat, timeZone);
    if (!when) continue;
    let total = 0n;
    for (const i of fees) {
      const n = parseNumber(row[i] ?? "", options.numberFormat);
      if (n !== null) total += toUnits(n.replace(/^-/, ""));
    }
    if (total === 0n) continue;
    const key = when.toISOString().slice(0, 19);
    out.set(key, [...(out.get(key) ?? []), total]);
  }
  return out;
}

/** Where each mapped field (and filter column) sits in a row; a column the header lacks is one clear error. */
function columnIndexes(header: string[] | null, mapping: ImportMapping, options: ImportOptions): Record<string, number> {
  const indexes: Record<string, number> = {};
  const missing: string[] = [];
  // A column by its name, or by its number (1 = the first) when no column has that name: files without a
  // header, and unnamed columns of files with one (DEGIRO's currency after each amount).
  const find = (name: string) => {
    const i = header ? header.findIndex((h) => h.toLowerCase() === name.trim().toLowerCase()) : -1;
    if (i >= 0 || !/^\d+$/.test(name)) return i;
    const n = Number(name) - 1;
    return header && n >= header.length ? -1 : n;
  };
  for (const [field, value] of Object.entries(mapping)) {
    if (field === "extraFees" || field === "extraTags" || value === undefined) continue;
    const i = find(value as string);
    if (i < 0) missing.push(`${field} → "${value}"`);
    else indexes[field] = i;
  }
  (mapping.extraFees ?? []).forEach((name, n) => {
    const i = find(name);
    if (i < 0) missing.push(`extraFees → "${name}"`);
    else indexes[`extraFees.${n}`] = i;
  });
  (mapping.extraTags ?? []).forEach((name, n) => {
    const i = find(name);
    if (i < 0) missing.push(`extraTags → "${name}"`);
    else indexes[`extraTags.${n}`] = i;
  });
  (options.rowFilters ?? []).forEach((filter, n) => {
    const i = find(filter.column);
    if (i < 0) missing.push(`rowFilters → "${filter.column}"`);
    else indexes[`rowFilters.${n}`] = i;
  });
  if (options.multiLegRows) {
    const i = find(options.multiLegRows.blankIn);
    if (i < 0) missing.push(`multiLegRows → "${options.multiLegRows.blankIn}"`);
    else indexes.multiLegRows = i;
  }
  if (!mapping.executedAt && !mapping.date && !(mapping.time && options.tradeDate)) {
    missing.push("executedAt (or date and time, or time with options.tradeDate)");
  }
  if (!mapping.side && !options.sideFromQuantitySign) missing.push("side (or options.sideFromQuantitySign)");
  if (missing.length) {
    throw new AppError("VALIDATION_ERROR", `These mapped columns are not in the file: ${missing.join(", ")}.`, {
      fields: missing.map((m) => ({ path: "mapping", message: `column not found: ${m}` })),
    });
  }
  return indexes;
}

/** "1,234.56" / "1.234,56", with $ and spaces, (1.5) or trailing minus as negatives; null when not a number. */
export function parseNumber(raw: string, format: ImportOptions["numberFormat"]): string | null {
  // Most cells are already plain decimals ("170.50"): nothing to rewrite, and the digit limits are in the pattern.
  if (format !== "1.234,56" && PLAIN_DECIMAL.test(raw)) return raw;
  let v = raw.trim().replace(/[$€£¥\s]/g, "");
  if (v === "") return null;
  let negative = false;
  if (/^\(.*\)$/.test(v)) {
    negative = true;
    v = v.slice(1, -1);
  }
  if (v.endsWith("-")) {
    negative = true;
    v = v.slice(0, -1);
  }
  if (v.startsWith("-")) {
    negative = !negative;
    v = v.slice(1);
  } else if (v.startsWith("+")) v = v.slice(1);
  v = format === "1.234,56" ? v.replace(/\./g, "").replace(",", ".") : v.replace(/,/g, "");
  if (!/^\d+(\.\d+)?$/.test(v) && !/^\.\d+$/.test(v)) return null;
  if (v.startsWith(".")) v = `0${v}`;
  // What DecimalStringSchema allows (v is digits with at most one point here).
  const dot = v.indexOf(".");
  if ((dot < 0 ? v.length : dot) > MAX_INTEGER_DIGITS || (dot < 0 ? 0 : v.length - dot - 1) > MAX_FRACTION_DIGITS) return null;
  return negative ? `-${v}` : v;
}

const PLAIN_DECIMAL = new RegExp(`^\\d{1,${MAX_INTEGER_DIGITS}}(?:\\.\\d{1,${MAX_FRACTION_DIGITS}})?$`);

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?\s*([AaPp][Mm])?$/;

/**
 * US zone abbreviations some brokers append ("01/19/2024 09:30:15 EST", Webull). Each names the zone whose wall
 * clock the time is read in, so a file that writes "EST" all year still reads right in summer.
 */
const ZONE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ET: "America/New_York",
  EST: "America/New_York",
  EDT: "America/New_York",
  CT: "America/Chicago",
  CST: "America/Chicago",
  CDT: "America/Chicago",
  MT: "America/Denver",
  MST: "America/Denver",
  MDT: "America/Denver",
  PT: "America/Los_Angeles",
  PST: "America/Los_Angeles",
  PDT: "America/Los_Angeles",
  UTC: "Etc/UTC",
  GMT: "Etc/UTC",
};

/**
 * A timestamp in the chosen format; naive ones are wall-clock time in `timeZone`, or in the zone of a trailing
 * abbreviation (see ZONE_ABBREVIATIONS). ISO dates may be separated from the time by ", " (IBKR statements).
 */
export function parseTimestamp(raw: string, format: ImportOptions["dateFormat"], timeZone: string): Date | null {
  return readTimestamp(raw, format, timeZone)?.at ?? null;
}

/** parseTimestamp, and whether the text had a time of day (a date alone reads as its midnight). */
function readTimestamp(raw: string, format: ImportOptions["dateFormat"], timeZone: string): { at: Date; timed: boolean } | null {
  // "01/18/2024 as of 01/17/2024" (Schwab): posted on the first date for a trade made on the second.
  let v = raw.trim().replace(/\s+/g, " ").replace(/^.* as of (.+)$/i, "$1");
  const abbreviation = / ([A-Za-z]{2,3})$/.exec(v);
  const named = abbreviation ? ZONE_ABBREVIATIONS[abbreviation[1]!.toUpperCase()] : undefined;
  if (named) {
    v = v.slice(0, -abbreviation![0].length);
    timeZone = named;
  }
  if (v === "") return null;
  if ((format ?? "iso") === "iso") {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:(?:[T ]|, ?)(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(v);
    if (!m) return null;
    const [, y, mo, d, h, mi = "0", s = "0", frac = "0", zone] = m;
    const wall = { year: +y!, month: +mo!, day: +d!, hour: +(h ?? "0"), minute: +mi, second: +s, millisecond: Math.floor(Number(`0.${frac}`) * 1000) };
    if (!validWall(wall)) return null;
    const timed = h !== undefined;
    if (zone) {
      const offset = zone.toUpperCase() === "Z" ? 0 : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
      return { at: new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond) - offset * 60_000), timed };
    }
    return { at: zonedTimeToUtc(wall, timeZone), timed };
  }
  const [datePart = "", ...rest] = v.split(/[ T,;]+/).filter(Boolean);
  const timePart = rest.join(" ");
  let y: number, mo: number, d: number;
  if (format === "YYYYMMDD") {
    const m = /^(\d{4})(\d{2})(\d{2})$/.exec(datePart);
    if (!m) return null;
    [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  } else {
    const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(datePart);
    if (!m) return null;
    const [a, b] = [+m[1]!, +m[2]!];
    y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    [mo, d] = format === "MM/DD/YYYY" ? [a, b] : [b, a];
  }
  let hour = 0, minute = 0, second = 0, millisecond = 0;
  if (timePart) {
    const compact = /^(\d{2})(\d{2})(\d{2})$/.exec(timePart);
    const t = compact ? [timePart, compact[1], compact[2], compact[3], undefined, undefined] : TIME.exec(timePart);
    if (!t) return null;
    hour = Number(t[1]);
    minute = Number(t[2]);
    second = Number(t[3] ?? 0);
    millisecond = t[4] ? Math.floor(Number(`0.${t[4]}`) * 1000) : 0;
    const ampm = t[5]?.toUpperCase();
    if (ampm) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (ampm === "PM" ? 12 : 0);
    }
  }
  const wall = { year: y, month: mo, day: d, hour, minute, second, millisecond };
  return validWall(wall) ? { at: zonedTimeToUtc(wall, timeZone), timed: timePart !== "" } : null;
}

function validWall(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }): boolean {
  const probe = new Date(Date.UTC(w.year, w.month - 1, w.day));
  return (
    probe.getUTCFullYear() === w.year &&
    probe.getUTCMonth() === w.month - 1 &&
    probe.getUTCDate() === w.day &&
    w.hour < 24 &&
    w.minute < 60 &&
    w.second < 60
  );
}

/** Cell text as compared with words and filters: trimmed, upper case, single spaces. */
function normalText(raw: string): string {
  return raw.trim().toUpperCase().replace(/\s+/g, " ");
}

/** `pattern` equals the cell, or ends in "*" and the cell starts with the rest ("YOU BOUGHT*"). */
function matchesText(cell: string, pattern: string): boolean {
  const p = normalText(pattern);
  return p.endsWith("*") ? cell.startsWith(p.slice(0, -1)) : cell === p;
}

/** Built-in words match exactly; extra words from options.sides also as prefixes when they end in "*". */
export function sideOf(raw: string, options: ImportOptions): "buy" | "sell" | null {
  const v = normalText(raw);
  if (BUY_WORDS.includes(v) || (options.sides?.buy ?? []).some((w) => matchesText(v, w))) return "buy";
  if (SELL_WORDS.includes(v) || (options.sides?.sell ?? []).some((w) => matchesText(v, w))) return "sell";
  return null;
}

/**
 * Every data row of the file to a staged fill, or to errors naming the row (1-based, counting the header as
 * row 1 when there is one, like a spreadsheet) and the column, as the file is read (readCsv: one row's cells
 * at a time). Rows left out by options.rowFilters are counted in `skipped` with the reason, neither fills
 * nor errors.
 */
export function normalizeCsv(
  text: string,
  mapping: ImportMapping,
  options: ImportOptions,
  account: { timezone: string; currency: string; feeSchedule?: FeeSchedule | null },
  maxRows: number,
): { fills: StagedFill[]; errors: RowError[]; skipped: RowSkip[]; rowCount: number; header: string[] | null; brokerRates: BrokerRate[] } {
  const timeZone = options.timezone ?? account.timezone;
  if (!CANONICAL_TIME_ZONES.has(timeZone)) {
    throw new AppError("INVALID_TIMEZONE", `Unknown time zone "${timeZone}" in options.timezone: use a canonical IANA name.`);
  }
  const fills: StagedFill[] = [];
  const errors: RowError[] = [];
  const skipped: RowSkip[] = [];
  const sectionFees = feesBySecond(text, options, timeZone);
  const instruments = new Map<string, ReturnType<typeof resolveInstrument>>();
  // Quantities, prices and fees repeat across a file's rows: each value is kept once (a 165,000-row file's
  // fills are ~12 MB smaller), up to a bound so a file of all-different values costs nothing extra.
  const values = new Map<string, string>();
  const once = (v: string) => {
    const known = values.get(v);
    if (known !== undefined) return known;
    if (values.size < 20_000) values.set(v, v);
    return v;
  };
  const filters = (options.rowFilters ?? []).map((f, n) => ({ ...f, field: `rowFilters.${n}` }));
  /** The broker's rate to its base per date of the account's zone and base (the last row of a date wins). */
  const brokerRates = new Map<string, BrokerRate>();
  const timeOnly = !mapping.executedAt && !mapping.date && options.tradeDate !== undefined;
  /** The fills whose row gave a date and no time of day, by their place in `fills`. */
  const untimed: number[] = [];
  // The columns are looked up at the first data row (a file with a header and no rows says that first).
  let columns: Record<string, number> | undefined;
  let feeFields: string[] = [];
  /** The multi-leg order the last rows belong to (options.multiLegRows): its first row's time. */
  let legOrder: { when: string } | null = null;
  const { rowCount, header } = readCsv(text, options, maxRows, (cells, row, header) => {
    if (!columns) {
      columns = columnIndexes(header, mapping, options);
      feeFields = ["fees", ...(mapping.extraFees ?? []).map((_, n) => `extraFees.${n}`)].filter((f) => columns![f] !== undefined);
    }
    const at = columns;
    const cell = (field: string) => (at[field] === undefined ? "" : (cells[at[field]!] ?? "").trim());
    const unwanted = filters.find((f) => {
      const v = normalText(cell(f.field));
      return !((!f.keep || f.keep.some((k) => matchesText(v, k))) && !(f.drop ?? []).some((d) => matchesText(v, d)));
    });
    if (unwanted) {
      const value = cell(unwanted.field).replace(/\s+/g, " ");
      skipped.push({
        row,
        reason: unwanted.reason ?? (value === "" ? `${unwanted.column} is empty` : `${unwanted.column} "${value.slice(0, 60)}" is not a trade this format reads`),
      });
      return;
    }
    const rowErrors: RowError[] = [];
    const fail = (field: string, message: string) => rowErrors.push({ row, column: (mapping as Record<string, unknown>)[field] as string ?? field, message });

    // A multi-leg order's continuation row: the time (and the order) of the row that opened it.
    const continues = options.multiLegRows !== undefined && cell("multiLegRows") === "" && legOrder !== null;
    if (options.multiLegRows && !continues) legOrder = null;
    const when = continues ? legOrder!.when : mapping.executedAt ? cell("executedAt") : timeOnly ? `${options.tradeDate} ${cell("time")}` : `${cell("date")} ${cell("time")}`.trim();
    if (options.multiLegRows && !continues) legOrder = { when };
    // A given trade date is YYYY-MM-DD whatever dateFormat says about the file's own dates.
    const read = timeOnly ? readTimestamp(when.replace(/-/g, ""), "YYYYMMDD", timeZone) : readTimestamp(when, options.dateFormat, timeZone);
    const executedAt = read?.at ?? null;
    if (executedAt && !inStoredRange(executedAt.getTime())) {
      fail(mapping.executedAt ? "executedAt" : "date", `"${when}" ${RANGE_MESSAGE}`);
    } else if (!executedAt) {
      fail(mapping.executedAt ? "executedAt" : timeOnly ? "time" : "date", `"${when}" is not a ${timeOnly ? "time" : `${options.dateFormat ?? "iso"} date-time`}`);
    }
    const currency = cell("currency").toUpperCase();
    if (currency !== "" && currency !== account.currency) {
      fail("currency", `"${currency}" is not this account's currency (${account.currency}): the journal does not convert currencies, so import this row into an account in ${currency}`);
    }
    // The broker's own rate to its account's base (IBKR's fxRateToBase): kept for the date, once the row is read.
    let brokerRate: { base: string; k: string } | null = null;
    const rateCell = cell("fxRateToBase");
    if (rateCell !== "" && cell("baseCurrency") !== "") {
      const k = parseNumber(rateCell, options.numberFormat);
      const base = cell("baseCurrency").toUpperCase();
      if (k === null || k.startsWith("-") || /^0+(\.0+)?$/.test(k)) fail("fxRateToBase", `"${rateCell}" is not a rate above 0`);
      else if (!/^[A-Z]{3}$/.test(base)) fail("baseCurrency", `"${cell("baseCurrency")}" is not a 3-letter currency code`);
      else if (base !== account.currency) brokerRate = { base, k };
    }
    let quantity = parseNumber(cell("quantity"), options.numberFormat);
    let side: "buy" | "sell" | null;
    if (mapping.side) {
      side = sideOf(cell("side"), options);
      if (!side) fail("side", `"${cell("side")}" is not a buy or sell word`);
    } else side = quantity?.startsWith("-") ? "sell" : "buy"; // options.sideFromQuantitySign
    if (quantity === null || /^-?0+(\.0+)?$/.test(quantity)) fail("quantity", `"${cell("quantity")}" is not a non-zero number`);
    else if (quantity.startsWith("-")) quantity = quantity.slice(1); // some brokers sign the quantity of sells
    let price = parseNumber(cell("price"), options.numberFormat);
    if (price !== null && options.signedPrice) price = price.replace(/^-/, "");
    if (price === null || price.startsWith("-")) fail("price", `"${cell("price")}" is not a price`);
    let fees = "0";
    const feeParts: string[] = [];
    for (const f of feeFields) {
      const raw = cell(f);
      if (raw === "" || /^-+$/.test(raw)) continue; // "--" is how some brokers (E*TRADE, tastytrade) write "none"
      const n = parseNumber(raw, options.numberFormat);
      if (n === null) fail(f, `"${raw}" is not a number`);
      else feeParts.push(options.feeRebates ? n : n.replace(/^-/, "")); // by default brokers write fees as negative cash; a fee always costs
    }
    if (feeParts.length) fees = sumDecimals(feeParts);
    // The plan: an empty cell (or "--") says nothing; anything else must be a price.
    const plan: { stop_price?: string; target_price?: string } = {};
    for (const field of ["stopPrice", "targetPrice"] as const) {
      const raw = cell(field);
      if (raw === "" || /^-+$/.test(raw)) continue;
      const n = parseNumber(raw, options.numberFormat);
      if (n === null || n.startsWith("-")) fail(field, `"${raw}" is not a price`);
      else plan[field === "stopPrice" ? "stop_price" : "target_price"] = n;
    }
    // Another journal's row: the trade's close (its exit price and time), and what the trader wrote on it.
    let closing: { price: string; at: string; timed: boolean } | null = null;
    if (mapping.exitPrice) {
      let exit = parseNumber(cell("exitPrice"), options.numberFormat);
      if (exit !== null && options.signedPrice) exit = exit.replace(/^-/, "");
      const closeWhen = mapping.closedAt ? cell("closedAt") : `${cell("closeDate")} ${cell("closeTime")}`.trim();
      const closeRead = readTimestamp(closeWhen, options.dateFormat, timeZone);
      if (exit === null || exit.startsWith("-")) fail("exitPrice", `"${cell("exitPrice")}" is not a price`);
      else if (!closeRead || !inStoredRange(closeRead.at.getTime())) fail(mapping.closedAt ? "closedAt" : "closeDate", `"${closeWhen}" is not a ${options.dateFormat ?? "iso"} date-time`);
      else if (executedAt && closeRead.at < executedAt) fail(mapping.closedAt ? "closedAt" : "closeDate", `"${closeWhen}" is before the trade's open`);
      else closing = { price: exit, at: closeRead.at.toISOString(), timed: closeRead.timed };
    }
    const written: Pick<StagedFill, "notes" | "tags" | "file_pnl"> = {};
    const noteText = cell("notes").slice(0, 20_000);
    if (noteText) written.notes = noteText;
    const tagCells = [cell("tags"), ...(mapping.extraTags ?? []).map((_, n) => cell(`extraTags.${n}`))];
    const tagList = [...new Set(tagCells.flatMap((c) => c.split(",")).map((t) => t.trim().slice(0, 50)).filter(Boolean))].slice(0, 20);
    if (tagList.length) written.tags = tagList;
    if (mapping.pnl && cell("pnl") !== "") {
      const pnl = parseNumber(cell("pnl").replace(/^\((.*)\)$/, "-$1").replace(/^\$|(?<=-)\$/g, ""), options.numberFormat);
      if (pnl === null) fail("pnl", `"${cell("pnl")}" is not a number`);
      else written.file_pnl = pnl;
    }
    let instrument;
    try {
      // Files repeat a handful of symbols thousands of times: resolve each once. A 1-digit futures year is
      // read near the fill's own date (ESH4 traded in 2024 is 2024 whenever the file is imported), so the
      // year is part of the key.
      const anchor = executedAt ?? new Date();
      const symbolText = optionFromColumns(cell("symbol"), cell("optionExpiry"), cell("optionStrike"), cell("optionRight")) ?? contractSymbol(cell("contract")) ?? cell("symbol");
      const key = `${symbolText}\u0000${cell("assetClass")}\u0000${cell("multiplier")}\u0000${anchor.getUTCFullYear()}`;
      instrument = instruments.get(key);
      if (!instrument) {
        instrument = resolveInstrument(
          {
            symbol: normalizeBrokerSymbol(symbolText),
            assetClass: (cell("assetClass").toLowerCase() || undefined) as AssetClass | undefined,
            multiplier: cell("multiplier") || undefined,
          },
          anchor,
        );
        instruments.set(key, instrument);
      }
    } catch (err) {
      const message = err instanceof AppError ? (err.fields?.map((f) => `${f.path} ${f.message}`).join("; ") ?? err.message) : "is invalid";
      fail("symbol", `"${cell("symbol")}": ${message}`);
    }
    // A row whose currency cell says otherwise has its error already (above).
    if (instrument?.currency && instrument.currency !== account.currency && currency === "") {
      fail("symbol", `"${cell("symbol")}" settles in ${instrument.currency}, not this account's currency (${account.currency}): import this row into an account in ${instrument.currency}`);
    }
    // A pair quoted in another currency (ETH/BTC in a USD account): its amounts are in that one.
    const quote = instrument?.assetClass === "stock" && currency === "" ? quoteOfPair(instrument.symbol) : null;
    if (quote && quote !== account.currency) {
      fail("symbol", `"${cell("symbol")}" is quoted in ${quote}, not this account's currency (${account.currency}): import this row into an account in ${quote}`);
    }
    if (rowErrors.length || !instrument || !executedAt || !side || !quantity || !price) {
      errors.push(...rowErrors);
      return;
    }
    if (options.priceIncludesMultiplier && instrument.multiplier !== "1") price = divideDecimal(price, instrument.multiplier);
    const amount = cell("netAmount") === "" ? null : parseNumber(cell("netAmount"), options.numberFormat);
    if (amount !== null) fees = feesFromNetAmount(side, quantity, price, instrument.multiplier, amount);
    // A multi-leg order's charge is one line of the fees section, taken by its first row: its other legs were
    // charged with it (0), not left to the fee schedule's estimate.
    const charged = sectionFees.size ? (sectionFees.get(executedAt.toISOString().slice(0, 19))?.shift() ?? (continues ? 0n : undefined)) : undefined;
    if (charged !== undefined) fees = unitsToDecimal(toUnits(fees) + charged);
    // A row that says nothing of its fees (no fee cell filled in, no net amount, no charge from a fees
    // section) gets the account's fee schedule's, marked estimated. A fee of 0 written in the file is a fee.
    const estimate = feeParts.length === 0 && amount === null && charged === undefined && account.feeSchedule
      ? estimateFee(account.feeSchedule, { assetClass: instrument.assetClass, quantity, price, multiplier: instrument.multiplier })
      : null;
    if (estimate !== null) fees = estimate;
    if (brokerRate) {
      const day = dayIn(executedAt.getTime(), account.timezone);
      brokerRates.set(`${day} ${brokerRate.base}`, { day, ...brokerRate });
    }
    const executionId = cell("executionId");
    const orderId = (cell("orderId") || (options.multiLegRows ? when : "")).slice(0, 100);
    if (!timeOnly && !read!.timed) untimed.push(fills.length);
    fills.push({
      row,
      symbol: instrument.symbol,
      asset_class: instrument.assetClass,
      multiplier: instrument.multiplier,
      side,
      quantity: once(quantity),
      price: once(price),
      fees: once(fees),
      executed_at: executedAt.toISOString(),
      execution_id: executionId === "" ? null : executionId.slice(0, 100),
      ...(orderId !== "" ? { order_id: orderId } : {}),
      // Set here, not first by markDuplicates: a property added later costs every fill an allocation.
      duplicate: false,
      ...(estimate !== null ? { fees_estimated: true } : {}),
      ...plan,
      ...written,
    });
    if (closing) {
      // The trade's closing fill: the other side, at its exit and its close. The row's fees go on it (the
      // opening fill then has none); without fees in the file each fill has the fee schedule's estimate.
      const opening = fills[fills.length - 1]!;
      const { notes: _notes, tags: _tags, file_pnl: _pnl, ...base } = opening;
      const closeEstimate = estimate !== null ? estimateFee(account.feeSchedule!, { assetClass: instrument.assetClass, quantity, price: closing.price, multiplier: instrument.multiplier }) : null;
      if (estimate === null) opening.fees = once("0");
      fills.push({ ...base, side: side === "buy" ? "sell" : "buy", price: once(closing.price), executed_at: closing.at, fees: once(closeEstimate ?? fees), execution_id: base.execution_id ? `${base.execution_id}-close`.slice(0, 100) : null });
      if (!timeOnly && !closing.timed) untimed.push(fills.length - 1);
    }
  });
  orderUntimed(fills, untimed, options.rowOrder);
  return { fills, errors, skipped, rowCount, header, brokerRates: [...brokerRates.values()] };
}

/**
 * Rows that give a date and no time of day all read as that date's midnight, and fills of one instant would be
 * taken in no particular order: a sell listed before its buy on the same day would open a short that never was.
 * So the untimed fills of one date are spread a millisecond apart, oldest first: in file order when the file
 * lists its rows oldest first, reversed when it lists them newest first (Schwab's transaction history does).
 * The order is read from the file's own dates (more steps back in time than forward: newest first); a file
 * whose dates cannot tell (one day) follows the layout's `rowOrder`, else file order. A millisecond keeps the
 * fill on its date and its second, so duplicates are recognised as before (time to the second).
 */
function orderUntimed(fills: StagedFill[], untimed: number[], rowOrder: ImportOptions["rowOrder"]): void {
  if (untimed.length < 2) return;
  let forward = 0;
  let back = 0;
  for (let i = 1; i < fills.length; i++) {
    const [a, b] = [fills[i - 1]!.executed_at, fills[i]!.executed_at];
    if (a < b) forward++;
    else if (a > b) back++;
  }
  const newestFirst = back > forward || (back === forward && rowOrder === "newest-first");
  const byInstant = new Map<string, number[]>();
  for (const i of untimed) {
    const at = fills[i]!.executed_at;
    const group = byInstant.get(at);
    if (group) group.push(i);
    else byInstant.set(at, [i]);
  }
  for (const [at, group] of byInstant) {
    if (group.length < 2) continue;
    const base = Date.parse(at);
    const oldestFirst = newestFirst ? group.reverse() : group;
    oldestFirst.forEach((i, k) => (fills[i]!.executed_at = new Date(base + k).toISOString()));
  }
}

/**
 * The fees an amount nets in: what separates the row's net cash from its notional (a buy pays notional +
 * fees, a sell receives notional - fees). A difference in the trader's favour is no fee.
 */
function feesFromNetAmount(side: "buy" | "sell", quantity: string, price: string, multiplier: string, amount: string): string {
  const notional = multiplyUnits(multiplyUnits(toUnits(quantity), toUnits(price)), toUnits(multiplier));
  const fees = side === "buy" ? -toUnits(amount) - notional : notional - toUnits(amount);
  return unitsToDecimal(fees < 0n ? 0n : fees);
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** An option expiry as brokers write it ("16 FEB 24", "16FEB24", "FEB 16 24", "2/16/24", "2024-02-16", "20240216") as YYMMDD. */
function expiryYymmdd(raw: string): string | null {
  const v = raw.trim().toUpperCase().replace(/\s+/g, " ");
  const yy = (y: string) => (y.length === 4 ? y.slice(2) : y.padStart(2, "0"));
  const two = (n: string | number) => String(n).padStart(2, "0");
  let m = /^(\d{1,2}) ?([A-Z]{3}) ?(\d{2}|\d{4})$/.exec(v);
  if (m && MONTHS.includes(m[2]!)) return `${yy(m[3]!)}${two(MONTHS.indexOf(m[2]!) + 1)}${two(m[1]!)}`;
  m = /^([A-Z]{3}) (\d{1,2}),? (\d{2}|\d{4})$/.exec(v);
  if (m && MONTHS.includes(m[1]!)) return `${yy(m[3]!)}${two(MONTHS.indexOf(m[1]!) + 1)}${two(m[2]!)}`;
  m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  if (m) return `${m[1]!.slice(2)}${m[2]}${m[3]}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(v);
  if (m) return `${yy(m[3]!)}${two(m[1]!)}${two(m[2]!)}`;
  return null;
}

/** The OCC symbol of root, YYMMDD, C or P and a strike such as "480", "412.500" or "$1,480.00"; null when it cannot be one. */
function occSymbol(root: string, yymmdd: string | null, right: string, strike: string): string | null {
  const r = right.trim().toUpperCase();
  const cp = r === "C" || r === "CALL" ? "C" : r === "P" || r === "PUT" ? "P" : null;
  const k = /^(\d{1,5})(?:\.(\d{1,3})0*)?$/.exec(strike.trim().replace(/[$,]/g, ""));
  const underlying = root.trim().toUpperCase();
  if (!cp || !k || !yymmdd || !/^[A-Z][A-Z0-9.]{0,5}$/.test(underlying)) return null;
  return `${underlying.padEnd(6, " ")}${yymmdd}${cp}${k[1]!.padStart(5, "0")}${(k[2] ?? "").padEnd(3, "0")}`;
}

/** mapping.optionExpiry/optionStrike/optionRight: the option the row's columns name, when all three are filled. */
function optionFromColumns(underlying: string, expiry: string, strike: string, right: string): string | null {
  if (!expiry || !strike || !right) return null;
  return occSymbol(underlying, expiryYymmdd(expiry), right, strike);
}

/**
 * Option contracts as brokers describe them, to OCC: IBKR "AAPL 16FEB24 195 C", Robinhood "SPY 2/16/2024
 * Call $480.00", E*TRADE "CALL SPY 02/16/24 480.000" (its Description), Schwab "SPY 02/16/2024 480.00 C";
 * null for anything else.
 */
export function contractSymbol(raw: string): string | null {
  const v = raw.trim().toUpperCase().replace(/\s+/g, " ");
  if (!v) return null;
  let m = /^([A-Z][A-Z0-9.]{0,5}) (\d{1,2}[A-Z]{3}\d{2}) ([\d.]+) ([CP])$/.exec(v);
  if (m) return occSymbol(m[1]!, expiryYymmdd(m[2]!), m[4]!, m[3]!);
  m = /^([A-Z][A-Z0-9.]{0,5}) (\d{1,2}\/\d{1,2}\/\d{2,4}) (CALL|PUT) (\$?[\d,.]+)$/.exec(v);
  if (m) return occSymbol(m[1]!, expiryYymmdd(m[2]!), m[3]!, m[4]!);
  m = /^(CALL|PUT) ([A-Z][A-Z0-9.]{0,5}) (\d{1,2}\/\d{1,2}\/\d{2,4}) ([\d.]+)$/.exec(v);
  if (m) return occSymbol(m[2]!, expiryYymmdd(m[3]!), m[1]!, m[4]!);
  m = /^([A-Z][A-Z0-9.]{0,5}) (\d{1,2}\/\d{1,2}\/\d{2,4}) ([\d.]+) ([CP])$/.exec(v);
  if (m) return occSymbol(m[1]!, expiryYymmdd(m[2]!), m[4]!, m[3]!);
  return null;
}

/**
 * Broker spellings the instrument parser does not read, rewritten to ones it does; anything else is returned
 * as given. NinjaTrader futures "ES 03-24" (root, MM-YY) become "ESH24". Option symbols with the strike as a
 * plain decimal, "AAPL 240119C190" (TradeStation), "-SPY240216C480" / "-SPY240216P472.5" (Fidelity) or
 * ".AAPL240119C190" (older thinkorswim), become the OCC form "AAPL  240119C00190000", as do the contract
 * descriptions contractSymbol reads ("AAPL 16FEB24 195 C", IBKR statements). No stock ticker has any of
 * these shapes.
 */
export function normalizeBrokerSymbol(raw: string): string {
  const contract = contractSymbol(raw);
  if (contract) return contract;
  const v = raw.trim().toUpperCase();
  const future = /^([A-Z0-9]{1,6}) (\d{2})-(\d{2})$/.exec(v);
  if (future) {
    const month = Number(future[2]);
    return month >= 1 && month <= 12 ? `${future[1]}${FUTURES_MONTH_CODES[month - 1]}${future[3]}` : v;
  }
  const option = /^[-.]?([A-Z][A-Z0-9]{0,5}) ?(\d{6})([CP])(\d{1,5})(?:\.(\d{1,3}))?$/.exec(v);
  if (option) {
    const [, root, date, right, whole, fraction = ""] = option;
    return `${root!.padEnd(6, " ")}${date}${right}${whole!.padStart(5, "0")}${fraction.padEnd(3, "0")}`;
  }
  return v;
}

const FUTURES_MONTH_CODES = "FGHJKMNQUVXZ";

/** value / divisor for non-negative decimal strings, rounded half up to 10 decimals, in output form. */
function divideDecimal(value: string, divisor: string): string {
  return fromUnits(divideUnits(toUnits(value), toUnits(divisor)));
}

/**
 * Exact sum of decimal strings. Negative parts are rebates (options.feeRebates); a negative total is 0,
 * since a fill's fees cannot be negative.
 */
function sumDecimals(values: string[]): string {
  const total = values.reduce((sum, v) => sum + toUnits(v), 0n);
  return unitsToDecimal(total < 0n ? 0n : total);
}
