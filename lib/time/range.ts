// The instants the journal stores: 1900-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. Outside it, a date-time
// that parses (year 0, or 9999-12-31 at -14:00, which is year 10000 in UTC) cannot be written as Postgres
// reads it; every date field of the API and of a CSV row is held to this one range (docs/architecture.md).
import * as z from "zod/mini";

export const EARLIEST_INSTANT = Date.UTC(1900, 0, 1);
export const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const RANGE_MESSAGE = "must be between 1900-01-01 and 9999-12-31 (UTC)";

export function inStoredRange(ms: number): boolean {
  return ms >= EARLIEST_INSTANT && ms <= LATEST_INSTANT;
}

/** An ISO-8601 date-time with Z or an offset, within the stored range. */
export const dateTimeSchema = () =>
  z.iso
    .datetime({ offset: true, error: "must be an ISO-8601 date-time with Z or an offset" })
    .check(z.refine((v: string) => inStoredRange(Date.parse(v)), RANGE_MESSAGE));
