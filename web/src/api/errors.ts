// One client-side error type for every failed request: the API's envelope
// `{error: {code, message, requestId, fields?}}`, or a stand-in when the answer is not one (network down,
// a proxy's HTML error page).

export type FieldError = { path: string; message: string };

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly fields: FieldError[];

  constructor(status: number, code: string, message: string, requestId: string | null = null, fields: FieldError[] = []) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.fields = fields;
  }

  /** Field messages keyed by the first segment of their path ("amount", "name"), first message wins. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const f of this.fields) {
      const key = f.path.split(".")[0] ?? f.path;
      out[key] ??= f.message;
    }
    return out;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

function parseFields(raw: unknown): FieldError[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((f) =>
    isRecord(f) && typeof f.message === "string" ? [{ path: typeof f.path === "string" ? f.path : "", message: f.message }] : [],
  );
}

const FALLBACK_MESSAGES: Record<number, string> = {
  401: "Your session has ended. Sign in again.",
  404: "Not found.",
  413: "The request is too large.",
  429: "Too many attempts. Wait a moment and try again.",
  502: "The server is not reachable right now. Try again in a moment.",
  503: "The server is not reachable right now. Try again in a moment.",
};

/** The error a non-2xx response stands for. Never throws. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const requestId = res.headers.get("X-Request-Id");
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const e = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (e && typeof e.code === "string" && typeof e.message === "string") {
    return new ApiError(res.status, e.code, e.message, typeof e.requestId === "string" ? e.requestId : requestId, parseFields(e.fields));
  }
  const message = FALLBACK_MESSAGES[res.status] ?? `The server answered with an unexpected error (HTTP ${res.status}).`;
  return new ApiError(res.status, res.status >= 500 ? "INTERNAL" : "HTTP_ERROR", message, requestId);
}

export function networkError(): ApiError {
  return new ApiError(0, "NETWORK_ERROR", "Could not reach the server. Check your connection and try again.");
}

/** Any thrown value as an ApiError (a bug in our own code still gets a readable message). */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(0, "CLIENT_ERROR", "Something went wrong in the app. Reload the page and try again.");
}
