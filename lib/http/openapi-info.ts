// The fixed parts of the OpenAPI document's info (lib/http/openapi.ts); the version is the instance's own.
export const OPENAPI_INFO = {
  title: "Trading Journal API",
  description:
    "The HTTP API of this Trading Journal instance. Bodies are JSON unless a route says otherwise; money, prices and quantities are decimal strings. Every error has one shape (Error), with a stable code.",
  cookieName: "journal_session",
  version: "see GET /api/health",
} as const;
