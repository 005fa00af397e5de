// Exact decimal arithmetic for money, prices and quantities, which the API sends as decimal strings.
// Never parsed into floats: the shared helpers in lib/money.ts (the server's own) work in BigInt units of
// 10^-10, the precision of the numeric(28, 10) columns.
import { formatDecimal, fromUnits, toUnits } from "../../../lib/money.ts";

const DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * An amount as a trader types it, as the API takes it: thousands separators in groups of three dropped
 * ("50,000.00" -> "50000.00", "-1,234" -> "-1234"), surrounding spaces trimmed. Anything else is left as typed,
 * for the form's own check to name ("5,0" is not read as 50).
 */
export function typedAmount(value: string): string {
  const v = value.trim();
  return /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(v) ? v.replace(/,/g, "") : v;
}

export function isDecimal(value: string): boolean {
  return DECIMAL.test(value.trim());
}

export function addDecimals(a: string, b: string): string {
  return fromUnits(toUnits(a) + toUnits(b));
}

export function subtractDecimals(a: string, b: string): string {
  return fromUnits(toUnits(a) - toUnits(b));
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const d = toUnits(a) - toUnits(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export function signOf(value: string): -1 | 0 | 1 {
  return compareDecimals(value, "0");
}

export function normalizeDecimal(value: string): string {
  return formatDecimal(value);
}

/**
 * The balance after each row of a ledger page (newest first): row 0 has the page's
 * runningBalanceAtFirstRow, and each next row is the previous balance minus the previous row's amount.
 */
export function runningBalances(balanceAtFirstRow: string, amounts: readonly string[]): string[] {
  const out: string[] = [];
  let balance = toUnits(balanceAtFirstRow);
  for (const amount of amounts) {
    out.push(fromUnits(balance));
    balance -= toUnits(amount);
  }
  return out;
}
