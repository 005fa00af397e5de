// The dashboard's period as the stats API takes it: `from`/`to` instants on the trades' closing time, `to`
// exclusive. A period is whole days in one zone: the account's (its trading day), or the browser's when
// all accounts are shown together.
import { zonedTimeToUtc } from "../../../../lib/time/zoned.ts";
import { addMonths, isoDate } from "./calendar.ts";

export type Period = "all" | "month" | "30d" | "ytd" | "custom";

export const PERIODS: { value: Period; label: string }[] = [
  { value: "all", label: "All time" },
  { value: "month", label: "This month" },
  { value: "30d", label: "Last 30 days" },
  { value: "ytd", label: "Year to date" },
  { value: "custom", label: "Custom dates" },
];

/** Today's date ("YYYY-MM-DD") in a zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(now).map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Midnight at the start of a day in a zone, as an ISO instant. */
export function startOfDay(date: string, timeZone: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return zonedTimeToUtc({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }, timeZone).toISOString();
}

/** First and last day (inclusive) of a period, or null for all time. */
export function periodDays(period: Period, today: string, custom: { from: string; to: string }): { from: string; to: string } | null {
  switch (period) {
    case "all":
      return null;
    case "month":
      return { from: `${today.slice(0, 8)}01`, to: today };
    case "30d":
      return { from: addDays(today, -29), to: today };
    case "ytd":
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case "custom":
      return { from: custom.from, to: custom.to };
  }
}

/** The API's query for whole days in a zone; an empty bound is left open. */
export function rangeQuery(days: { from: string; to: string } | null, timeZone: string): { from?: string; to?: string } {
  if (!days) return {};
  const out: { from?: string; to?: string } = {};
  if (days.from) out.from = startOfDay(days.from, timeZone);
  if (days.to) out.to = startOfDay(addDays(days.to, 1), timeZone);
  return out;
}

/**
 * A query that surely covers one calendar month in every account's zone (UTC+14 to UTC-12): the calendar
 * then keeps only the days of the month, which the API already dates in each account's zone.
 */
export function monthQuery(m: { year: number; month: number }): { from: string; to: string } {
  const next = addMonths(m, 1);
  const from = new Date(Date.UTC(m.year, m.month - 1, 1) - 14 * 3600_000).toISOString();
  const to = new Date(Date.parse(`${isoDate(next.year, next.month, 1)}T00:00:00Z`) + 12 * 3600_000).toISOString();
  return { from, to };
}
