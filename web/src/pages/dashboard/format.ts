// Figures of the dashboard that are not money (money: lib/format.ts).

/**
 * A win rate from its counts, rounded once, here: 6 of 11 -> "54.5%" (the API's 4-decimal winRate, "0.5455",
 * would round again to 54.6%). "—" when nothing closed.
 */
export function formatWinRate(wins: number, closed: number, locale?: string): string {
  if (closed === 0) return "—";
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(wins / closed);
}

/** Profit factor "2.5000" -> "2.50"; null (no trade, or no losing trade: the caller says which) reads as "—". */
export function formatFactor(value: string | null | undefined, locale?: string): string {
  if (value === null || value === undefined) return "—";
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as Parameters<Intl.NumberFormat["format"]>[0]);
}
