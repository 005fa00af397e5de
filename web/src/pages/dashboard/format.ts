// P&L display. Values stay decimal strings all the way to Intl, which formats a string exactly (no float
// rounding, even past 2^53). Every figure carries its sign as text (+ or −), so gains and losses read the
// same without the green and red. (Intl writes the minus as the locale does: "-" in en-US.)
import { signOf } from "../../lib/decimal.ts";

type NumberInput = Parameters<Intl.NumberFormat["format"]>[0];

export type Tone = "positive" | "negative" | "zero";

export function toneOf(value: string): Tone {
  const s = signOf(value);
  return s > 0 ? "positive" : s < 0 ? "negative" : "zero";
}

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions, currency: string | null): Intl.NumberFormat {
  if (currency) {
    try {
      return new Intl.NumberFormat(locale, { ...options, style: "currency", currency });
    } catch {
      // An unknown currency code falls through to a plain number (the code is appended by the caller).
    }
  }
  return new Intl.NumberFormat(locale, options);
}

/**
 * "+$1,234.50", "−$12.00", "$0.00": two decimals, the sign always written. `currency` null (accounts in
 * several currencies summed together) gives a plain signed number.
 */
export function formatPnl(value: string, currency: string | null, locale?: string): string {
  const f = numberFormat(locale, { signDisplay: "exceptZero", minimumFractionDigits: 2, maximumFractionDigits: 2 }, currency);
  const text = f.format(value as NumberInput);
  return currency && f.resolvedOptions().style !== "currency" ? `${text} ${currency}` : text;
}

/** Money without a forced sign (fees, average loss as a magnitude is not wanted: the API's sign is kept). */
export function formatAmount(value: string, currency: string | null, locale?: string): string {
  const f = numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }, currency);
  const text = f.format(value as NumberInput);
  return currency && f.resolvedOptions().style !== "currency" ? `${text} ${currency}` : text;
}

/** Short form for calendar cells on a phone: "+$1.2K". */
export function formatPnlCompact(value: string, currency: string | null, locale?: string): string {
  const f = numberFormat(locale, { signDisplay: "exceptZero", notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 }, currency);
  return f.format(value as NumberInput);
}

/** "0.5833" -> "58.3%". */
export function formatRate(value: string | null | undefined, locale?: string): string {
  if (value === null || value === undefined) return "—";
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(value as NumberInput);
}

/** Profit factor "2.5000" -> "2.50"; null (no trade, or no losing trade: the caller says which) reads as "—". */
export function formatFactor(value: string | null | undefined, locale?: string): string {
  if (value === null || value === undefined) return "—";
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as NumberInput);
}
