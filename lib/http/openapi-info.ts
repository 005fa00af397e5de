// The fixed parts of the OpenAPI document's info (lib/http/openapi.ts); the version is the instance's own.
export const OPENAPI_INFO = {
  title: "Trading Journal API",
  description:
    "The HTTP API of this Trading Journal instance. Bodies are JSON unless a route says otherwise; money, prices and quantities are decimal strings. Every error has one shape (Error), with a stable code. Instants are ISO 8601 with an offset or Z (2026-03-02T09:35:00-05:00); a time without one is refused. A mutating request a browser sends from another origin (Sec-Fetch-Site other than same-origin or none, or without it an Origin that is not the instance's) is 403 CSRF_FAILED: SameSite cookies keep other sites out, not other origins of the same site.",
  cookieName: "journal_session",
  version: "see GET /api/health",
} as const;
