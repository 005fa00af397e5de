// Money is a decimal string end to end (DESIGN.md section 3): parsed by schema as text, computed in SQL
// `numeric(28, 10)`, and formatted back as text. Never a JS number.
import * as z from "zod/mini";

/** `numeric(28, 10)`: 18 digits before the point, 10 after. */
export const MAX_INTEGER_DIGITS = 18;
export const MAX_FRACTION_DIGITS = 10;

const DECIMAL = /^[+-]?(\d+)(?:\.(\d+))?$/;
// Plain words for a person typing into a form; an API client sending a JSON number is told to send text.
const SHAPE_MESSAGE = 'must be a number like 1234.50: digits, an optional "-" and "." for decimals, no commas or spaces';
const NOT_TEXT_MESSAGE = 'must be sent as a string, such as "1234.50" (a JSON number can lose digits)';

function digits(value: string): { integer: number; fraction: number } | undefined {
  const match = DECIMAL.exec(value);
  if (!match) return undefined;
  return { integer: match[1]!.length, fraction: match[2]?.length ?? 0 };
}

/**
 * A decimal as a string: optional sign, digits, optional `.` and digits. No exponent, spaces or
 * thousands separators; at most 18 digits before the point and 10 after (what the columns hold exactly).
 */
export const DecimalStringSchema = z.string({ error: (iss) => (iss.input === undefined ? "is required" : typeof iss.input === "number" ? NOT_TEXT_MESSAGE : SHAPE_MESSAGE) }).check(
  z.regex(DECIMAL, SHAPE_MESSAGE),
  z.refine((v: string) => (digits(v)?.integer ?? 0) <= MAX_INTEGER_DIGITS, `must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`),
  z.refine((v: string) => (digits(v)?.fraction ?? 0) <= MAX_FRACTION_DIGITS, `must have at most ${MAX_FRACTION_DIGITS} digits after the decimal point`),
);

/** Already in output form: at least two decimals, the last not a zero, no leading zero, no sign but "-". */
const TIDY_DECIMAL = /^-?(?:0|[1-9]\d*)\.\d*[1-9]$/;

/**
 * The output form of a decimal (e.g. Postgres `numeric` text): trailing zeros after the point trimmed,
 * but at least 2 decimals; no leading zeros, no `+`, no negative zero. "1000.5000000000" -> "1000.50",
 * "0" -> "0.00", "12.3456000000" -> "12.3456".
 */
export function formatDecimal(value: string): string {
  // Most values read back from JSON built by Postgres (trim_scale) are already so: one test, no rewriting.
  if (TIDY_DECIMAL.test(value) && value.length - value.indexOf(".") > 2) return value;
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) throw new TypeError(`Not a decimal string: ${JSON.stringify(value)}`);
  const [, sign, rawInteger, rawFraction = ""] = match;
  const integer = rawInteger!.replace(/^0+(?=\d)/, "");
  const fraction = rawFraction.replace(/0+$/, "").padEnd(2, "0");
  const isZero = /^0+$/.test(integer) && /^0+$/.test(fraction);
  return `${sign === "-" && !isZero ? "-" : ""}${integer}.${fraction}`;
}

/** A decimal with more than 10 fraction digits (a converted amount, docs/currencies.md) rounded half away from zero to 10; others as they are. */
export function roundDecimal10(value: string): string {
  const match = /^(-?)(\d+)\.(\d{11,})$/.exec(value);
  if (!match) return value;
  const [, sign, integer, fraction] = match as unknown as [string, string, string, string];
  const units = BigInt(integer + fraction.slice(0, MAX_FRACTION_DIGITS)) + (fraction.charCodeAt(MAX_FRACTION_DIGITS) >= 53 ? 1n : 0n);
  return unitsToDecimal(sign ? -units : units);
}

/** a × b exactly, rounded half away from zero to `scale` decimals (a converted amount: an amount times its rate's factor). */
export function multiplyDecimals(a: string, b: string, scale = MAX_FRACTION_DIGITS): string {
  const parse = (v: string) => {
    const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(v.trim());
    if (!m) throw new TypeError(`Not a decimal string: ${JSON.stringify(v)}`);
    const fraction = m[3] ?? "";
    return { units: BigInt(`${m[1] === "-" ? "-" : ""}${m[2]}${fraction}`), scale: fraction.length };
  };
  const [x, y] = [parse(a), parse(b)];
  const product = x.units * y.units;
  const drop = x.scale + y.scale - scale;
  if (drop <= 0) return formatDecimal(unitsToScale(product * 10n ** BigInt(-drop), scale));
  const divisor = 10n ** BigInt(drop);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + divisor / 2n) / divisor;
  return formatDecimal(unitsToScale(negative ? -rounded : rounded, scale));
}

/** Integer units of 10^-scale as a decimal string. */
function unitsToScale(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

/** Exact decimal arithmetic in JS, where SQL is not at hand: values as integers of 10^-10 units. */
const UNIT_SCALE = 10n ** BigInt(MAX_FRACTION_DIGITS);

const FRACTION_ZEROS = "0".repeat(MAX_FRACTION_DIGITS);

export function toUnits(value: string): bigint {
  // One BigInt parse of the digits with the point moved 10 places: this runs for every cell of an import.
  // A numeric(28,10) column's text has exactly 10 fraction digits: the point taken out is all it needs.
  const point = value.length - MAX_FRACTION_DIGITS - 1;
  if (point > 0 && value.charCodeAt(point) === 46 && value.charCodeAt(0) !== 43) return BigInt(value.slice(0, point) + value.slice(point + 1)); // ".", "+"
  const sign = value.charCodeAt(0);
  const negative = sign === 45; // "-"
  const body = negative || sign === 43 ? value.slice(1) : value; // "+"
  const dot = body.indexOf(".");
  const integer = dot < 0 ? body : body.slice(0, dot);
  const fraction = dot < 0 ? "" : body.slice(dot + 1);
  const units = BigInt((integer || "0") + (fraction + FRACTION_ZEROS).slice(0, MAX_FRACTION_DIGITS));
  return negative ? -units : units;
}

/** Units back to a decimal string with all 10 fraction digits ("1.5000000000"). */
export function unitsToDecimal(units: bigint): string {
  const negative = units < 0n;
  const a = negative ? -units : units;
  return `${negative ? "-" : ""}${a / UNIT_SCALE}.${(a % UNIT_SCALE).toString().padStart(MAX_FRACTION_DIGITS, "0")}`;
}

/** Units back to a decimal string in output form (formatDecimal). */
export function fromUnits(units: bigint): string {
  // The digits once, the point put in and the fraction's trailing zeros cut to two: a year's tax lots format
  // six figures a row for 100,000 rows (docs/tax.md), so no division, regex or second pass.
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (digits.length <= MAX_FRACTION_DIGITS) digits = digits.padStart(MAX_FRACTION_DIGITS + 1, "0");
  const point = digits.length - MAX_FRACTION_DIGITS;
  let end = digits.length;
  while (end > point + 2 && digits.charCodeAt(end - 1) === 48) end--; // "0"
  return `${negative ? "-" : ""}${digits.slice(0, point)}.${digits.slice(point, end)}`;
}

/** a × b in units (truncated past 10 decimals, like numeric(28,10) storage would round). */
export function multiplyUnits(a: bigint, b: bigint): bigint {
  return (a * b) / UNIT_SCALE;
}

/** a ÷ b for non-negative units, rounded half up to 10 decimals. */
export function divideUnits(a: bigint, b: bigint): bigint {
  return (a * UNIT_SCALE * 2n + b) / (2n * b);
}
