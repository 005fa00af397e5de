// The P&L calendar's month grid. Dates are plain "YYYY-MM-DD" trading days (the API already turned
// closing times into days in each account's zone), so the grid is built in UTC arithmetic where no
// time zone or DST can shift a day.

export type Month = { year: number; month: number }; // month 1..12

export type CalendarCell = { date: string; day: number } | null;

const pad = (n: number) => String(n).padStart(2, "0");

export const isoDate = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

export function daysInMonth({ year, month }: Month): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Weeks of the month, each 7 cells starting on `weekStart` (0 Sunday, 1 Monday); cells outside the month
 * are null. Only the weeks the month touches are returned (4 to 6).
 */
export function monthGrid(m: Month, weekStart: 0 | 1): CalendarCell[][] {
  const firstWeekday = new Date(Date.UTC(m.year, m.month - 1, 1)).getUTCDay();
  const lead = (firstWeekday - weekStart + 7) % 7;
  const total = daysInMonth(m);
  const cells: CalendarCell[] = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= total; day++) cells.push({ date: isoDate(m.year, m.month, day), day });
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: CalendarCell[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Column headings in grid order: full name and a short form. */
export function weekdayHeadings(weekStart: 0 | 1, locale?: string): { long: string; short: string }[] {
  const short = new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
  const long = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
  return Array.from({ length: 7 }, (_, i) => {
    const weekday = (weekStart + i) % 7;
    // 2023-01-01 was a Sunday.
    const d = new Date(Date.UTC(2023, 0, 1 + weekday));
    return { long: long.format(d) || WEEKDAY_NAMES[weekday]!, short: short.format(d) };
  });
}

export function addMonths({ year, month }: Month, delta: number): Month {
  const i = year * 12 + (month - 1) + delta;
  return { year: Math.floor(i / 12), month: (i % 12) + 1 };
}

export function monthOf(date: string): Month {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) };
}

export function monthLabel({ year, month }: Month, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(year, month - 1, 1)));
}

/** The first day of the month and of the month after, as "YYYY-MM-DD". */
export function monthBounds(m: Month): { first: string; next: string } {
  const n = addMonths(m, 1);
  return { first: isoDate(m.year, m.month, 1), next: isoDate(n.year, n.month, 1) };
}
