// Content-Security-Policy (docs/web.md, "Content policy"): one strict policy for the browser app, served the
// same by the Node entrypoint and the web container's nginx (19-journal-config.envsh renders the same string
// from the same variables; tests/node/deploy-files.test.ts holds them equal), a stricter one for the API's
// JSON, and one for the API reference page.

/** The browser app: its own scripts, styles, images and fonts only; data:/blob: images (pasted screenshots, the QR code's fallback), the API and the analytics host (when set) to talk to. */
export function webContentPolicy(analyticsHost: string | null | undefined): string {
  const connect = ["'self'"];
  if (analyticsHost) {
    try {
      connect.push(new URL(analyticsHost).origin);
    } catch {
      // Not a URL: the browser app does not use it either (lib/web-config.ts).
    }
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** JSON, CSV and images answered by the API: nothing may run or load, and nothing may frame them. */
export const API_CONTENT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The API reference page (functions/docs.ts): its own files only, no inline script; the inline styles its
 * renderer (Swagger UI) sets; data: images and fonts from its style sheet. Only this page: it shows the API
 * document, no trader's data.
 */
export const REFERENCE_CONTENT_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");
