/** The Postgres error (SQLSTATE code, constraint, message) behind a driver or drizzle error, if any. */
export function pgError(err: unknown): { code: string; constraint?: string; message: string; detail?: string } | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) {
      return {
        code: e.code,
        ...(typeof e.constraint === "string" ? { constraint: e.constraint } : {}),
        ...(typeof (e as { detail?: unknown }).detail === "string" ? { detail: (e as { detail: string }).detail } : {}),
        message: typeof e.message === "string" ? e.message : "",
      };
    }
    current = e.cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = "23505";

/** Whether an error is a unique violation of that constraint (or index). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const pg = pgError(err);
  return pg?.code === UNIQUE_VIOLATION && pg.constraint === constraint;
}
export const RAISED_EXCEPTION = "P0001";
export const NUMERIC_OUT_OF_RANGE = "22003";

const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * True when an error means the database could not be reached or went away (not that a statement failed):
 * a socket error, a connect or query timeout, Postgres shutting down (57P01-57P03) or a connection exception
 * (class 08). Such a request is answered 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === "string" && (UNREACHABLE.has(e.code) || /^08|^57P0[123]$/.test(e.code))) return true;
    if (typeof e.message === "string" && /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection (is )?closed/i.test(e.message)) return true;
    current = e.cause;
  }
  return false;
}

/**
 * What a log line may say of a failed statement: Postgres's code and message, never the statement or its
 * parameters (the driver's "Failed query: ... params: ..." carries names, notes and session hashes).
 */
export function databaseErrorForLog(err: unknown): Record<string, string> | null {
  const pg = pgError(err);
  if (pg) return { name: "DatabaseError", code: pg.code, message: pg.message };
  if (err instanceof Error && err.message.startsWith("Failed query:")) {
    const cause = err.cause instanceof Error ? err.cause : null;
    return { name: err.name, ...(cause ? { cause: `${cause.name}: ${cause.message}` } : {}) };
  }
  return null;
}
