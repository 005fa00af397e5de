// The New York Stock Exchange's full-day holidays, by its rules (no table to keep up to date): New Year's Day,
// Martin Luther King Jr. Day, Washington's Birthday, Good Friday, Memorial Day, Juneteenth (from 2022),
// Independence Day, Labor Day, Thanksgiving and Christmas. A holiday on a Sunday is kept on the Monday after,
// on a Saturday on the Friday before, except New Year's Day (the exchange does not close on the last trading
// day of the year for it). Early closes are trading days. Dates are New York calendar days, "YYYY-MM-DD".

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/** The nth given weekday (0 Sunday) of a month; n = -1 is the last. */
function nthWeekday(y: number, m: number, day: number, n: number): number {
  if (n > 0) return 1 + ((day - weekday(y, m, 1) + 7) % 7) + (n - 1) * 7;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return last - ((weekday(y, m, last) - day + 7) % 7);
}

/** Easter Sunday (the Gregorian computus, anonymous algorithm). */
function easter(y: number): [number, number] {
  const a = y % 19, b = Math.floor(y / 100), c = y % 100, d = Math.floor(b / 4), e = b % 4;
  const f = Math.floor((b + 8) / 25), g = Math.floor((b - f + 1) / 3), h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4), k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7, m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return [month, ((h + l - 7 * m + 114) % 31) + 1];
}

/** A fixed-date holiday moved off the weekend (Saturday to Friday, Sunday to Monday). */
function observed(y: number, m: number, d: number): string {
  const w = weekday(y, m, d);
  const at = new Date(Date.UTC(y, m - 1, d + (w === 6 ? -1 : w === 0 ? 1 : 0)));
  return iso(at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate());
}

const cache = new Map<number, Set<string>>();

/** The exchange's full-day holidays of a year. */
export function nyseHolidays(year: number): Set<string> {
  let days = cache.get(year);
  if (days) return days;
  const [em, ed] = easter(year);
  const goodFriday = new Date(Date.UTC(year, em - 1, ed - 2));
  days = new Set([
    ...(weekday(year, 1, 1) === 6 ? [] : [observed(year, 1, 1)]),
    iso(year, 1, nthWeekday(year, 1, 1, 3)),
    iso(year, 2, nthWeekday(year, 2, 1, 3)),
    iso(year, goodFriday.getUTCMonth() + 1, goodFriday.getUTCDate()),
    iso(year, 5, nthWeekday(year, 5, 1, -1)),
    ...(year >= 2022 ? [observed(year, 6, 19)] : []),
    observed(year, 7, 4),
    iso(year, 9, nthWeekday(year, 9, 1, 1)),
    iso(year, 11, nthWeekday(year, 11, 4, 4)),
    observed(year, 12, 25),
  ]);
  cache.set(year, days);
  return days;
}

/** Whether the exchange trades on a New York calendar day: a weekday that is not one of its holidays. */
export function isNyseTradingDay(date: string): boolean {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const w = weekday(y, m, d);
  return w !== 0 && w !== 6 && !nyseHolidays(y).has(date);
}
