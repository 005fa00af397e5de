import { resolveVersion } from "../lib/health/index.ts";
import { createRouter, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { REFERENCE_CONTENT_POLICY } from "../lib/http/csp.ts";

/** Where the reference page's files are served from: the browser app's own (web/dist, web/vite.config.ts), never a CDN. */
export const REFERENCE_FILES = "/api-reference";

/**
 * The reference page: Swagger UI (swagger-ui-dist's files) started by our own script on /api/openapi.json. No
 * inline script, no font, nothing from another host.
 */
const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trading Journal API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${REFERENCE_FILES}/swagger-ui.css">
</head>
<body>
<main id="reference"><noscript>The API reference needs JavaScript. The document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></main>
<script src="${REFERENCE_FILES}/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_FILES}/start.js"></script>
</body>
</html>
`;

let documentText: Promise<string> | undefined;

/** functions/openapi.json (npm run build:openapi) with this instance's version; read on first request. */
function openApiText(version: string): Promise<string> {
  documentText ??= import("./openapi.json", { with: { type: "json" } }).then(({ default: document }) =>
    JSON.stringify({ ...document, info: { ...document.info, version } }),
  );
  return documentText;
}

export const docs = createRouter()
  .get(
    "/openapi.json",
    describeRoute({ tag: "docs", summary: "This document (OpenAPI 3.1)", public: true, responses: { 200: { description: "The OpenAPI document." } } }),
    async (c) => {
      c.header("Content-Type", "application/json; charset=utf-8");
      c.header("Cache-Control", "public, max-age=300");
      return c.body(await openApiText(resolveVersion(c.var.deps.config.APP_VERSION) ?? "unversioned"));
    },
  )
  .get(
    "/docs",
    describeRoute({ tag: "docs", summary: "The API reference page (HTML)", public: true, responses: { 200: { description: "An HTML page.", contentType: "text/html" } } }),
    (c) => {
      // The page's own content policy (lib/http/csp.ts): its files and the inline styles its renderer sets.
      c.header("Content-Security-Policy", REFERENCE_CONTENT_POLICY);
      c.header("Cache-Control", "public, max-age=300");
      return c.html(REFERENCE_PAGE);
    },
  );

export const docsGroup = { prefix: "/api", app: docs } as const satisfies Group;
