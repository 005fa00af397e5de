/** Rows from db.execute, whose result shape differs between drivers. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * A timestamptz column as ISO-8601 UTC text ("2026-03-02T14:31:00.000Z"), formatted in SQL so every
 * driver (pg, PGlite, HTTP) answers the same string. `column` is trusted code, never user input.
 */
export function isoUtc(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
