// Times a trader types are read in the account's time zone, not the browser's (a New York account's "09:35"
// is 09:35 in New York whatever computer it is typed on), and form fields are filled the same way.
import { wallClock, zonedTimeToUtc } from "../../../lib/time/zoned.ts";

const WALL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** A datetime-local ("2026-03-02T09:35") or date ("2026-03-02") value in `zone`, as an ISO instant. */
export function wallToIso(value: string, zone: string): string | undefined {
  const m = WALL.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  try {
    return zonedTimeToUtc({ year, month, day, hour, minute, second, millisecond: 0 }, zone).toISOString();
  } catch {
    return undefined;
  }
}

/** The day after a date value ("2026-03-31" -> "2026-04-01"), for an end of range that includes the day. */
export function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** An instant as a datetime-local value on `zone`'s clock ("2026-03-02T09:35", seconds when they are not 0). */
export function isoToWall(iso: string | Date, zone: string): string {
  const w = wallClock((typeof iso === "string" ? new Date(iso) : iso).getTime(), zone);
  const two = (n: number) => String(n).padStart(2, "0");
  const wall = `${String(w.year).padStart(4, "0")}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
  return w.second === 0 ? wall : `${wall}:${two(w.second)}`;
}

/**
 * The one zone a page shows its times in, said once on the page: "Times in New York time (America/New_York).",
 * or, without one (accounts in several zones), "Times on your computer's clock (Europe/Berlin)."
 */
export function zoneNote(zone: string | undefined): string {
  return zone ? `Times in ${zoneLabel(zone)}.` : `Times on your computer's clock (${Intl.DateTimeFormat().resolvedOptions().timeZone}).`;
}

/** "America/New_York" -> "New York time (America/New_York)": how a field names the zone it reads. */
export function zoneLabel(zone: string): string {
  const city = zone.split("/").pop()!.replaceAll("_", " ");
  return zone === "UTC" || zone === "Etc/UTC" ? "UTC" : `${city} time (${zone})`;
}
