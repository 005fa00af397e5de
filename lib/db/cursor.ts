// Keyset paging cursors: the (timestamp, id) of a page's last row, opaque to the client.
import { AppError } from "../errors.ts";

export type Cursor = { at: string; id: string };

export const encodeCursor = (c: Cursor) => btoa(JSON.stringify(c)).replace(/=+$/, "");

// What lists write as `at`: an ISO instant ("2026-03-02T14:30:00.123Z") or Postgres' own text of a
// timestamptz ("2026-03-02 14:30:00.123456+00"), exact to the microsecond.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2}))?)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The widest offset a real zone has (UTC+14, Kiribati; UTC-12): Postgres refuses offsets past 15:59 (22009). */
const MAX_OFFSET_HOURS = 14;

/**
 * A real time of a real day from 1900 on, at a real offset: what Date.parse lets through ("1", February 30th,
 * "+99:99") Postgres refuses.
 */
function realInstant(at: unknown): at is string {
  const m = typeof at === "string" ? INSTANT.exec(at) : null;
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const [offsetHours, offsetMinutes] = [Number(m[7] ?? 0), Number(m[8] ?? 0)];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1900 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHours <= MAX_OFFSET_HOURS &&
    offsetMinutes < 60
  );
}

/**
 * The cursor a list gave, or 400 VALIDATION_ERROR on `cursor`. Only what a list writes passes (a real
 * instant, a uuid): anything looser would reach Postgres and fail there.
 */
export function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(atob(raw)) as Partial<Cursor> | null;
    if (realInstant(c?.at) && typeof c!.id === "string" && UUID.test(c!.id)) return { at: c!.at, id: c!.id };
  } catch {
    // falls through
  }
  throw new AppError("VALIDATION_ERROR", "The cursor is not one this list gave.", { fields: [{ path: "cursor", message: "is not a valid cursor" }] });
}
