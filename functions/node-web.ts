// The browser app on the Node server (self-host and local runs; on the edge and in the Docker stack a static host
// or nginx serves it): /config.js, the built files of web/dist, and the app shell for every client-side route.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Config } from "../lib/config/index.ts";
import { ROOT } from "../lib/paths.ts";
import { browserConfigScript } from "../lib/web-config.ts";
import type { buildFullApp } from "./groups.ts";

// The built browser app (`npm run build:web`; `npm run dev` builds it when stale).
const WEB_ROOT = join(ROOT, "web/dist");

// Served for every page when web/dist has not been built, so the API still answers and the reader
// learns the one command that fixes it.
const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trading Journal</title></head>
<body><main><h1>Trading Journal</h1><p>The API is running, but the browser app has not been built.
Run <code>npm run build:web</code> (or start with <code>npm run dev</code>, which builds it).</p></main></body></html>
`;

/** Adds the browser app's routes after the API's: /api/* keeps its JSON 404. */
export function serveWebApp(app: ReturnType<typeof buildFullApp>, config: Config): void {
  app.get("/config.js", (c) => {
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(browserConfigScript(config));
  });
  if (existsSync(`${WEB_ROOT}/index.html`)) {
    // A public link's page is never indexed (docs/sharing.md), as the web container's nginx says too.
    app.use("/s/*", async (c, next) => {
      await next();
      c.header("X-Robots-Tag", "noindex, nofollow");
    });
    app.use("/*", serveStatic({ root: WEB_ROOT }));
    // Client-side routes fall back to the app shell; /api/* keeps its JSON 404.
    app.get("*", async (c, next) => (c.req.path.startsWith("/api/") ? next() : serveStatic({ root: WEB_ROOT, path: "index.html" })(c, next)));
  } else {
    app.get("*", async (c, next) => (c.req.path.startsWith("/api/") ? next() : c.html(NOT_BUILT_PAGE)));
  }
}
