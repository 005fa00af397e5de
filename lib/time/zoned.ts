// Wall-clock time in an IANA zone to an instant, with Intl only (no tz library): find the zone's offset
// at the guessed instant and correct twice, which settles DST edges. A wall time that does not exist
// (the spring-forward gap) resolves to the instant after the gap; a repeated one to its first occurrence.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** An instant's wall clock in an IANA zone, to the second (the zone's own date and 24-hour time). */
export function wallClock(instant: number, timeZone: string): Omit<WallTime, "millisecond"> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
}

function offsetMinutes(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** YYYY-MM-DD plus `n` days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** An instant's date in an IANA zone, YYYY-MM-DD. */
export function dayIn(instant: number, timeZone: string): string {
  const t = wallClock(instant, timeZone);
  return `${String(t.year).padStart(4, "0")}-${String(t.month).padStart(2, "0")}-${String(t.day).padStart(2, "0")}`;
}

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number; second: number; millisecond: number };

export function zonedTimeToUtc(t: WallTime, timeZone: string): Date {
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);
  let guess = wall - offsetMinutes(wall, timeZone) * 60_000;
  guess = wall - offsetMinutes(guess, timeZone) * 60_000;
  const second = wall - offsetMinutes(guess, timeZone) * 60_000;
  return new Date(Math.max(guess, second));
}
