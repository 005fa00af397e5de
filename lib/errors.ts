// The one error type of the code base. Domain code throws it; the HTTP layer turns it into the
// envelope of DESIGN.md section 3 with the status from this table.

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_SIGNATURE: 400,
  INVALID_TIMEZONE: 400,
  UNKNOWN_PACK: 400,
  UNAUTHORIZED: 401,
  BILLING_NOT_AVAILABLE: 402,
  INSUFFICIENT_CREDITS: 402,
  REGISTRATION_DISABLED: 403,
  TIER_LIMIT_ACCOUNTS: 403,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PROVIDER_KEY_REQUIRED: 409,
  TURN_IN_PROGRESS: 409,
  MODEL_NOT_PRICED: 409,
  LAST_ADMIN: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MARKET_DATA_KEY_INVALID: 422,
  BARS_KEY_INVALID: 422,
  PROVIDER_KEY_INVALID: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  PAYMENT_PROVIDER_ERROR: 502,
  QUOTE_PROVIDER_REJECTED: 502,
  QUOTE_PROVIDER_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
  QUOTE_PROVIDER_BUSY: 503,
  CHANGELOG_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldError = { path: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldError[] | undefined;
  /** Extra response headers, e.g. Retry-After for RATE_LIMITED. */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, extra: { fields?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = extra.fields;
    this.headers = extra.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A zod-like issue list as the `fields` of a VALIDATION_ERROR. */
export function validationError(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string; keys?: ReadonlyArray<string> }>,
  message = "The request is invalid.",
): AppError {
  // An unknown field (a strict object's) is named itself, not its parent.
  const fields = issues.flatMap((i) =>
    i.code === "unrecognized_keys" && i.keys?.length
      ? i.keys.map((key) => ({ path: [...i.path.map(String), key].join("."), message: `"${key}" is not a known field` }))
      : [{ path: i.path.map(String).join(".") || "(root)", message: i.message }],
  );
  return new AppError("VALIDATION_ERROR", message, { fields });
}
