// What a fill's symbol denotes: a stock, an OCC option or a futures contract, with its symbol in one
// normal form and the multiplier that turns price x quantity into money. Pure: no I/O, no clock of its own
// (`now` is a parameter), so the same input always resolves the same way.
import { AppError, type FieldError } from "../errors.ts";
import { DecimalStringSchema } from "../money.ts";
import { FUTURES } from "./futures.ts";

export type AssetClass = "stock" | "option" | "future";

export type Instrument = {
  /** Normal form: stock as given (uppercased), option as the padded 21-character OSI symbol, future as ROOT + month + 2-digit year. */
  symbol: string;
  assetClass: AssetClass;
  /** Decimal string: contract units (or currency per point) per 1 of quantity. */
  multiplier: string;
  option?: { root: string; /** YYYY-MM-DD */ expiry: string; right: "call" | "put"; strike: string };
  future?: { root: string; /** Month code, e.g. "Z" */ month: string; /** 4-digit year */ year: number };
  /** The currency a known futures contract settles in (lib/instruments/futures.ts); absent: the account's. */
  currency?: string;
  /** A known futures contract's price step. */
  tickSize?: string;
};

export type InstrumentInput = { symbol: string; assetClass?: AssetClass; multiplier?: string };

export { FUTURES_MULTIPLIERS } from "./futures.ts";

const OPTION_MULTIPLIER = "100";
const STOCK_MULTIPLIER = "1";
const MONTH_CODES = "FGHJKMNQUVXZ";

const STOCK = /^[A-Z0-9][A-Z0-9./-]{0,11}$/;
/** OCC/OSI: root, optional padding, YYMMDD, C|P, strike x 1000 in 8 digits. Root length is checked after. */
const OCC = /^([A-Z0-9]+)( *)(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;
/** Root, then the last letter is the month code and the digits after it the year. */
const FUTURE = /^([A-Z0-9]*?)([A-Z])(\d+)$/;
const POSITIVE_DECIMAL = /^\d+(?:\.\d+)?$/;

const MESSAGE = {
  required: "is required",
  stock: 'must be a stock ticker: 1 to 12 characters of A-Z, 0-9, ".", "-" and "/"',
  option: 'must be an OCC option symbol: root, YYMMDD, C or P and the strike x 1000 in 8 digits, such as "AAPL  240119C00150000"',
  future: 'must be a futures symbol: root, month code (F G H J K M N Q U V X Z) and a 1, 2 or 4-digit year, such as "ESZ4"',
  any: 'must be a stock ticker such as "AAPL", an OCC option symbol such as "AAPL  240119C00150000" or a futures symbol such as "ESZ4"',
  assetClass: "must be stock, option or future",
  multiplier: 'must be a positive decimal string such as "100" or "0.5"',
} as const;

/** One parse attempt: the symbol is not of this shape, is of this shape but wrong, or parsed. */
type Attempt<T> = { kind: "no-match" } | { kind: "invalid"; message: string } | { kind: "ok"; value: T };
const NO_MATCH = { kind: "no-match" } as const;
const invalid = (message: string) => ({ kind: "invalid", message }) as const;

type OptionParts = { symbol: string; option: NonNullable<Instrument["option"]> };
type FutureParts = { symbol: string; future: NonNullable<Instrument["future"]>; known: boolean };

/**
 * Resolves a symbol (and optional asset class and multiplier) to an instrument, or throws VALIDATION_ERROR
 * with `fields` on symbol, assetClass or multiplier.
 *
 * Without an asset class: an OCC symbol is an option; a known futures root + month code + year is a future;
 * anything else is a stock. A stock ticker such as "ESZ4" does not exist in practice, so futures inference
 * wins for the roots in FUTURES_MULTIPLIERS; pass assetClass "stock" to force a stock. An unknown root is a
 * future only with assetClass "future", and then needs an explicit multiplier.
 *
 * `now` anchors 1-digit futures years (see resolveFuturesYear).
 */
export function resolveInstrument(input: InstrumentInput, now: Date = new Date()): Instrument {
  const fields: FieldError[] = [];
  const assetClass = input.assetClass;
  const classIsValid = assetClass === undefined || assetClass === "stock" || assetClass === "option" || assetClass === "future";

  const symbol = typeof input.symbol === "string" ? input.symbol.trim().toUpperCase() : "";
  let resolved: Instrument | undefined;
  if (symbol === "") fields.push({ path: "symbol", message: MESSAGE.required });
  else if (classIsValid) {
    const result = classify(symbol, assetClass, now);
    if (typeof result === "string") fields.push({ path: "symbol", message: result });
    else resolved = result;
  }
  if (!classIsValid) fields.push({ path: "assetClass", message: MESSAGE.assetClass });

  const multiplier = checkMultiplier(input.multiplier, fields);
  if (resolved?.multiplier === "" && input.multiplier === undefined) {
    fields.push({
      path: "multiplier",
      message: `is required: "${resolved.future!.root}" is not a futures root the journal knows (GET /api/instruments/futures lists them), so give the contract's multiplier`,
    });
  }

  if (fields.length > 0 || !resolved) throw new AppError("VALIDATION_ERROR", "The instrument is invalid.", { fields });
  return multiplier === undefined ? resolved : { ...resolved, multiplier };
}

/** The instrument with its default multiplier ("" for an unknown futures root), or the symbol's error message. */
function classify(symbol: string, assetClass: AssetClass | undefined, now: Date): Instrument | string {
  switch (assetClass) {
    case "stock":
      return STOCK.test(symbol) ? stock(symbol) : MESSAGE.stock;
    case "option": {
      const option = parseOption(symbol);
      return option.kind === "ok" ? optionInstrument(option.value) : option.kind === "invalid" ? option.message : MESSAGE.option;
    }
    case "future": {
      const future = parseFuture(stripFuturesPrefix(symbol).body, now);
      return future.kind === "ok" ? futureInstrument(future.value) : future.kind === "invalid" ? future.message : MESSAGE.future;
    }
    case undefined:
      return infer(symbol, now);
  }
}

function infer(symbol: string, now: Date): Instrument | string {
  const option = parseOption(symbol);
  if (option.kind === "ok") return optionInstrument(option.value);
  if (option.kind === "invalid") return option.message;

  const { body, prefixed } = stripFuturesPrefix(symbol);
  const shape = FUTURE.exec(body);
  const futureLike = shape !== null && isKnownRoot(shape[1]!) && MONTH_CODES.includes(shape[2]!);
  if (prefixed || futureLike) {
    const future = parseFuture(body, now);
    if (future.kind === "no-match") return MESSAGE.future;
    if (future.kind === "invalid") return future.message;
    if (!future.value.known) {
      return `has futures root "${future.value.future.root}", which the journal does not know (GET /api/instruments/futures lists them): give the asset class future and the contract's multiplier`;
    }
    return futureInstrument(future.value);
  }

  return STOCK.test(symbol) ? stock(symbol) : MESSAGE.any;
}

function stock(symbol: string): Instrument {
  return { symbol, assetClass: "stock", multiplier: STOCK_MULTIPLIER };
}

function optionInstrument(parts: OptionParts): Instrument {
  return { symbol: parts.symbol, assetClass: "option", multiplier: OPTION_MULTIPLIER, option: parts.option };
}

function futureInstrument(parts: FutureParts): Instrument {
  const contract = FUTURES.get(parts.future.root);
  if (!contract) return { symbol: parts.symbol, assetClass: "future", multiplier: "", future: parts.future };
  return { symbol: parts.symbol, assetClass: "future", multiplier: contract.multiplier, future: parts.future, currency: contract.currency, tickSize: contract.tickSize };
}

/** Accepts the OSI form with or without the root's space padding, and the "." or "O:" prefix some brokers and data vendors add. */
function parseOption(symbol: string): Attempt<OptionParts> {
  const body = symbol.startsWith("O:") ? symbol.slice(2) : symbol.startsWith(".") ? symbol.slice(1) : symbol;
  const match = OCC.exec(body);
  if (!match) return NO_MATCH;
  const [, root, padding, yy, mm, dd, right, strikeDigits] = match as unknown as [string, string, string, string, string, string, "C" | "P", string];
  if (root.length > 6 || root.length + padding.length > 6) return invalid("has an option root longer than 6 characters");
  const year = 2000 + Number(yy);
  if (!isRealDate(year, Number(mm), Number(dd))) return invalid(`has an expiry that is not a real date (${year}-${mm}-${dd})`);
  if (/^0+$/.test(strikeDigits)) return invalid("has a strike of zero: the strike must be greater than zero");
  return {
    kind: "ok",
    value: {
      symbol: `${root.padEnd(6, " ")}${yy}${mm}${dd}${right}${strikeDigits}`,
      option: { root, expiry: `${year}-${mm}-${dd}`, right: right === "C" ? "call" : "put", strike: strikeFromOcc(strikeDigits) },
    },
  };
}

/** "00150000" -> "150", "00012500" -> "12.5", "00000500" -> "0.5": 5 integer and 3 fraction digits, as text. */
function strikeFromOcc(digits: string): string {
  const integer = digits.slice(0, 5).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(5).replace(/0+$/, "");
  return fraction === "" ? integer : `${integer}.${fraction}`;
}

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

const MONTH_NAMES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
/** "ES DEC 25", "ES DEC25", "ES Dec '25", "ES DEC 2025": a root, a month's name and a year. */
const NAMED_MONTH = /^([A-Z0-9]{1,6}) +(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC) *'?(\d{2}|\d{4})$/;

/**
 * What marks a symbol as a futures contract, and its body in the ROOT + month code + year form: "/ES"
 * (thinkorswim, TradeStation) and "@ES" (some data vendors) prefixes, and the month spelled out ("ES DEC 25",
 * IBKR and several statements), which becomes "ESZ25".
 */
function stripFuturesPrefix(symbol: string): { body: string; prefixed: boolean } {
  const body = symbol.startsWith("/") || symbol.startsWith("@") ? symbol.slice(1) : symbol;
  const named = NAMED_MONTH.exec(body);
  if (named) return { body: `${named[1]}${MONTH_CODES[MONTH_NAMES.indexOf(named[2]!)]}${named[3]}`, prefixed: true };
  return { body, prefixed: body !== symbol };
}

/**
 * The root is everything before the month code (the last letter), so it is looked up whole: "MESZ4" can only
 * be MES (never ES), "SILH5" only SIL (never SI), which is the longest-root match by construction.
 */
function parseFuture(body: string, now: Date): Attempt<FutureParts> {
  const match = FUTURE.exec(body);
  if (!match || match[1] === "") return NO_MATCH;
  const [, root, month, yearDigits] = match as unknown as [string, string, string, string];
  if (root.length > 6) return invalid("has a futures root longer than 6 characters");
  if (!MONTH_CODES.includes(month)) return invalid(`has month code "${month}", which is not one of F G H J K M N Q U V X Z`);
  const year = resolveFuturesYear(yearDigits, now);
  if (typeof year === "string") return invalid(year);
  return {
    kind: "ok",
    value: { symbol: `${root}${month}${String(year % 100).padStart(2, "0")}`, future: { root, month, year }, known: isKnownRoot(root) },
  };
}

/**
 * 4 digits: that year (2000-2099, so the 2-digit normal form reads back the same). 2 digits: 20YY.
 * 1 digit: the one year ending in that digit in [now - 2, now + 7], so in 2026 "ESZ4" is 2024 (a contract
 * that expired lately is still being imported) while "ESZ3" is 2033.
 */
function resolveFuturesYear(digits: string, now: Date): number | string {
  if (digits.length === 4) {
    const year = Number(digits);
    return year >= 2000 && year <= 2099 ? year : "has a year outside 2000-2099";
  }
  if (digits.length === 2) return 2000 + Number(digits);
  if (digits.length === 1) {
    const start = now.getUTCFullYear() - 2;
    return start + ((Number(digits) - (start % 10) + 10) % 10);
  }
  return "has a year that is not 1, 2 or 4 digits";
}

function isKnownRoot(root: string): boolean {
  return FUTURES.has(root);
}

/** The explicit multiplier, or undefined when none was given; a bad one is added to `fields`. */
function checkMultiplier(value: unknown, fields: FieldError[]): string | undefined {
  if (value === undefined) return undefined;
  const parsed = DecimalStringSchema.safeParse(value);
  if (!parsed.success) {
    fields.push({ path: "multiplier", message: parsed.error.issues[0]?.message ?? MESSAGE.multiplier });
    return undefined;
  }
  if (!POSITIVE_DECIMAL.test(parsed.data) || /^0+(?:\.0+)?$/.test(parsed.data)) {
    fields.push({ path: "multiplier", message: MESSAGE.multiplier });
    return undefined;
  }
  return parsed.data;
}
