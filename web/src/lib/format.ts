// Display formatting. Decimal strings go to Intl as strings, which formats them exactly (no float
// rounding on the way).

const LOCALE = undefined; // the reader's own locale

type NumberInput = Parameters<Intl.NumberFormat["format"]>[0];

/** "1234.5" USD -> "$1,234.50"; keeps up to 10 decimals when the value has them. */
export function formatMoney(value: string, currency: string): string {
  try {
    return new Intl.NumberFormat(LOCALE, { style: "currency", currency, maximumFractionDigits: 10 }).format(value as NumberInput);
  } catch {
    return `${value} ${currency}`;
  }
}

/** Quantities and prices: grouping, no currency, every significant decimal kept. */
export function formatNumber(value: string): string {
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 10 }).format(value as NumberInput);
}

export function formatDateTime(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone }).format(d);
  } catch {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short" }).format(d);
  }
}

export function formatDate(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone }).format(d);
  } catch {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium" }).format(d);
  }
}
