// The daily journal's week: plain "YYYY-MM-DD" trading days (the account's calendar), built in UTC
// arithmetic where no time zone or DST can shift a day.
import { addDays } from "../dashboard/range.ts";

/** The first day of the week holding `day`, weeks starting on `weekStart` (0 Sunday … 6 Saturday). */
export function weekStartOf(day: string, weekStart: number): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday - weekStart + 7) % 7));
}

/** The seven days of the week starting on `first`. */
export function weekDays(first: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(first, i));
}

/** "Monday, November 23" */
export function dayLabel(day: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
}

/** "Nov 23 – Nov 29, 2026" */
export function weekLabel(first: string, locale?: string): string {
  const f = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  return f.formatRange(new Date(`${first}T00:00:00Z`), new Date(`${addDays(first, 6)}T00:00:00Z`));
}

export const isDay = (v: string | null): v is string => v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
