// Exact decimal arithmetic for money, prices and quantities, which the API sends as decimal strings.
// Never parsed into floats: the shared helpers in lib/money.ts (the server's own) work in BigInt units of
// 10^-10, the precision of the numeric(28, 10) columns.
import { formatDecimal, fromUnits, toUnits } from "../../../lib/money.ts";

const DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;

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
