// Display formatting. Decimal strings go to Intl as strings, which formats them exactly (no float rounding
// on the way, even past 2^53) and rounds half away from zero on the decimal digits. Money is shown in its
// currency's minor unit ("$1,234.50", "¥1,235", "BHD 1.235"); the API and the database keep the exact values.
import { durationWords } from "../../../lib/time/duration.ts";
import { signOf } from "./decimal.ts";

const LOCALE = undefined; // the reader's own locale

type NumberInput = Parameters<Intl.NumberFormat["format"]>[0];

export type Tone = "positive" | "negative" | "zero";

export function toneOf(value: string): Tone {
  const s = signOf(value);
  return s > 0 ? "positive" : s < 0 ? "negative" : "zero";
}

/**
 * A currency format (its own minor unit unless `options` says otherwise), or a plain number with two decimals
 * when there is no currency (several currencies summed) or Intl does not know the code.
 */
function moneyFormat(locale: string | undefined, options: Intl.NumberFormatOptions, currency: string | null): Intl.NumberFormat {
  if (currency) {
    try {
      return new Intl.NumberFormat(locale, { ...options, style: "currency", currency });
    } catch {
      // An unknown currency code falls through to a plain number (the code is appended by the caller).
    }
  }
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, ...options });
}

/**
 * Privacy mode (Settings, or the header's "Hide amounts"; docs/sharing.md): every amount of money on screen is
 * written as MASK, its sign kept where the figure is signed, so a screen can be shared or streamed; R and
 * percentages still show. Set by the app shell from the settings, which remounts the page when it changes.
 */
export const MASK = "•••";
let masked = false;

export function setMoneyMasked(on: boolean): void {
  masked = on;
}

export function moneyMasked(): boolean {
  return masked;
}

function maskedMoney(value: string, signed: boolean): string {
  if (!signed) return MASK;
  const s = signOf(value);
  return s > 0 ? `+${MASK}` : s < 0 ? `-${MASK}` : MASK;
}

function money(value: string, currency: string | null, options: Intl.NumberFormatOptions, locale: string | undefined): string {
  if (masked) return maskedMoney(value, options.signDisplay === "exceptZero");
  const f = moneyFormat(locale, options, currency);
  const text = f.format(value as NumberInput);
  return currency && f.resolvedOptions().style !== "currency" ? `${text} ${currency}` : text;
}

/** "1234.5" USD -> "$1,234.50"; "-126150.0536445" -> "-$126,150.05". */
export function formatMoney(value: string, currency: string | null, locale: string | undefined = LOCALE): string {
  return money(value, currency, {}, locale);
}

/** "+$1,234.50", "-$12.00", "$0.00": the sign always written, so gains and losses read without the colours. */
export function formatPnl(value: string, currency: string | null, locale: string | undefined = LOCALE): string {
  return money(value, currency, { signDisplay: "exceptZero" }, locale);
}

/**
 * Short form for calendar cells on a phone: "+$1.3K", "-$346" (not "-$345.9", which a narrow cell cuts to
 * "-345."), "+$4.6": at most 3 significant digits and 1 decimal, whichever keeps fewer.
 */
export function formatPnlCompact(value: string, currency: string | null, locale: string | undefined = LOCALE): string {
  if (masked) return maskedMoney(value, true);
  const f = moneyFormat(
    locale,
    { signDisplay: "exceptZero", notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1, maximumSignificantDigits: 3, roundingPriority: "lessPrecision" },
    currency,
  );
  return f.format(value as NumberInput);
}

/** Quantities: grouping, no currency, every significant decimal kept (0.512468 shares). */
export function formatNumber(value: string, locale: string | undefined = LOCALE): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 10 }).format(value as NumberInput);
}

const MAX_PRICE_DECIMALS = 6;

/**
 * The decimals a column of quantities is shown with: as many as its most precise value needs (0 for whole
 * shares and contracts, up to 10 for crypto), one count for the whole column so its figures line up.
 */
export function quantityDecimals(values: ReadonlyArray<string | null | undefined>): number {
  let decimals = 0;
  for (const v of values) decimals = Math.max(decimals, Math.min(v?.split(".")[1]?.replace(/0+$/, "").length ?? 0, 10));
  return decimals;
}

/** A quantity at a column's decimals (quantityDecimals): "100", "0.50", "2.25". */
export function formatQuantity(value: string, decimals: number, locale: string | undefined = LOCALE): string {
  if (masked) return MASK; // a position size tells the account's size as well as its P&L does
  return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value as NumberInput);
}

/**
 * The decimals an instrument's prices are shown with: as many as the most precise of them needs, at least
 * 2 and at most 6, so one instrument's prices line up ("191.50" beside "192.25", "1.0885" beside "1.0900").
 */
export function priceDecimals(prices: ReadonlyArray<string | null | undefined>, max = MAX_PRICE_DECIMALS): number {
  let decimals = 2;
  for (const p of prices) {
    const fraction = p?.split(".")[1]?.replace(/0+$/, "") ?? "";
    decimals = Math.max(decimals, Math.min(fraction.length, max));
  }
  return decimals;
}

/**
 * Average prices (of several fills: up to 10 decimals from the API) are shown with at most 4 decimals, the
 * same for a trade's entry and exit, in the trades list (one count for the page's two average columns), on the
 * trade page and in the trades CSV export.
 */
export const AVERAGE_PRICE_DECIMALS = 4;
export function averageDecimals(...averages: Array<string | null>): number {
  return priceDecimals(averages, AVERAGE_PRICE_DECIMALS);
}

/** A price at a fixed number of decimals (priceDecimals), rounded half away from zero: "4,812.25", "191.50". */
export function formatPrice(value: string, decimals: number, locale: string | undefined = LOCALE): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value as NumberInput);
}

/** An instant in `timeZone` (the browser's own when that zone is unknown here), or the text as it came when it is not a time. */
function formatInstant(iso: string, style: Pick<Intl.DateTimeFormatOptions, "dateStyle" | "timeStyle">, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(LOCALE, { ...style, timeZone }).format(d);
  } catch {
    return new Intl.DateTimeFormat(LOCALE, style).format(d);
  }
}

export function formatDateTime(iso: string, timeZone?: string): string {
  return formatInstant(iso, { dateStyle: "medium", timeStyle: "short" }, timeZone);
}

/** The time of day alone ("11:46 AM"), for a table that shows the date beside it (formatDate). */
export function formatTime(iso: string, timeZone?: string): string {
  return formatInstant(iso, { timeStyle: "short" }, timeZone);
}

export function formatDate(iso: string, timeZone?: string): string {
  return formatInstant(iso, { dateStyle: "medium" }, timeZone);
}

/** How long a trade was held, from two instants: "45s", "15m", "1h 30m", "2d 3h" (the two largest units). */
export function formatDuration(fromIso: string, toIso: string): string {
  return durationWords((Date.parse(toIso) - Date.parse(fromIso)) / 1000);
}

/** What a figure counts in: money in a currency (null: several, shown as plain numbers), or R (multiples of the planned risk). */
export type Unit = { kind: "money"; currency: string | null } | { kind: "r" };

const R_FORMAT = new Intl.NumberFormat(LOCALE, { signDisplay: "exceptZero", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const R_COMPACT = new Intl.NumberFormat(LOCALE, { signDisplay: "exceptZero", minimumFractionDigits: 0, maximumFractionDigits: 1 });

/** "1.49" -> "+1.49 R", "-0.5" -> "-0.50 R": an R-multiple, signed like P&L. */
export function formatR(value: string): string {
  return `${R_FORMAT.format(value as NumberInput)} R`;
}

/** A signed figure in its unit: "+$1,234.50" or "+1.49 R". */
export function formatSigned(value: string, unit: Unit): string {
  return unit.kind === "r" ? formatR(value) : formatPnl(value, unit.currency);
}

/** The short form for a phone's calendar cell: "+1.2K" or "+1.5R". */
export function formatSignedCompact(value: string, unit: Unit): string {
  return unit.kind === "r" ? `${R_COMPACT.format(value as NumberInput)}R` : formatPnlCompact(value, null);
}

/** A chart axis label: "$1,200.00" or "1.50 R". */
export function formatAxis(value: string, unit: Unit): string {
  return unit.kind === "r" ? `${new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as NumberInput)} R` : formatMoney(value, unit.currency);
}

const OCC_SYMBOL = /^([A-Z0-9.]{1,6}) *(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A symbol as a trader reads it: an OCC option ("AAPL  261016C00230000") as "AAPL 16 Oct 26 230 Call"; a stock or
 * a futures contract as it is. The stored symbol stays the OCC one (imports, exports, the API).
 */
export function symbolLabel(symbol: string): string {
  const m = OCC_SYMBOL.exec(symbol);
  if (!m) return symbol;
  const [, root, yy, mm, dd, right, digits] = m as unknown as [string, string, string, string, string, "C" | "P", string];
  const month = MONTHS[Number(mm) - 1];
  if (!month) return symbol;
  const integer = digits.slice(0, 5).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(5).replace(/0+$/, "");
  return `${root} ${Number(dd)} ${month} ${yy} ${fraction ? `${integer}.${fraction}` : integer} ${right === "C" ? "Call" : "Put"}`;
}
