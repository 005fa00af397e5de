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
export const RAISED_EXCEPTION = "P0001";
