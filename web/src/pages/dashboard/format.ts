// Figures of the dashboard that are not money (money: lib/format.ts).

/** "0.5833" -> "58.3%". */
export function formatRate(value: string | null | undefined, locale?: string): string {
  if (value === null || value === undefined) return "—";
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(value as Parameters<Intl.NumberFormat["format"]>[0]);
}

/** Profit factor "2.5000" -> "2.50"; null (no trade, or no losing trade: the caller says which) reads as "—". */
export function formatFactor(value: string | null | undefined, locale?: string): string {
  if (value === null || value === undefined) return "—";
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as Parameters<Intl.NumberFormat["format"]>[0]);
}
