import { Scalar } from "@scalar/hono-api-reference";
import { resolveVersion } from "../lib/health/index.ts";
import { createRouter, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { inlineScriptPolicy } from "../lib/http/csp.ts";

/** Where the reference page's script is served from: the browser app's own files (web/dist), never a CDN. */
export const REFERENCE_SCRIPT = "/api-reference/scalar.js";

let documentText: Promise<string> | undefined;
/** The reference page is the same for every request, and so is its policy. */
let referencePolicy: Promise<string> | undefined;

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
    // The page's own content policy: its inline scripts allowed by their hashes (lib/http/csp.ts).
    async (c, next) => {
      await next();
      referencePolicy ??= c.res.clone().text().then(inlineScriptPolicy);
      c.res.headers.set("Content-Security-Policy", await referencePolicy);
    },
    Scalar({
      url: "/api/openapi.json",
      pageTitle: "Trading Journal API reference",
      cdn: REFERENCE_SCRIPT,
      // Nothing from outside the instance: no web fonts, no telemetry, no proxy.
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
    }),
  );

export const docsGroup = { prefix: "/api", app: docs } as const satisfies Group;
