import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { createLogger, defineConfig, type Plugin } from "vite";

// The browser app. `npm run build:web` writes web/dist (served by the Node entrypoint and the web
// container); `npm run dev:web` serves it with hot reload and forwards the API to the dev server on 3100.
// Nothing from the environment is baked in: runtime settings come from /config.js.
const API_ORIGIN = "http://localhost:3100";

// /config.js is a classic script on purpose (written per deployment, never bundled); Vite warns about
// every such script, which would read like a problem on each build.
const logger = createLogger();
const warn = logger.warn.bind(logger);
logger.warn = (message, options) => {
  if (!message.includes('<script src="/config.js">')) warn(message, options);
};

/**
 * The API reference page (GET /api/docs) loads Swagger UI's files from the instance itself, never a CDN: the
 * build copies the files swagger-ui-dist ships (its bundle, its style sheet, its licence) to dist/api-reference/,
 * beside our own start script (web/public/api-reference/start.js; functions/docs.ts).
 */
function apiReferenceFiles(): Plugin {
  return {
    name: "api-reference-files",
    apply: "build",
    writeBundle(options) {
      const target = join(options.dir!, "api-reference");
      mkdirSync(target, { recursive: true });
      for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"]) {
        copyFileSync(fileURLToPath(new URL(`../node_modules/swagger-ui-dist/${file}`, import.meta.url)), join(target, file));
      }
    },
  };
}

/**
 * The service worker (web/service-worker.js) as dist/sw.js: its app shell is this build's index.html, entry
 * script and styles, manifest and icons, and its version the hash of that list, so a new release replaces the
 * cached shell (docs/web.md, "Installable").
 */
function serviceWorker(): Plugin {
  return {
    name: "service-worker",
    apply: "build",
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).filter((f) => f.type === "chunk" && f.isEntry);
      const css = entry.flatMap((f) => (f.type === "chunk" ? [...(f.viteMetadata?.importedCss ?? [])] : []));
      const shell = ["/index.html", ...entry.map((f) => `/${f.fileName}`), ...css.map((f) => `/${f}`), "/manifest.webmanifest", "/favicon.svg", "/icons/icon-192.png", "/icons/icon-512.png"];
      const version = createHash("sha256").update(shell.join("\n")).digest("hex").slice(0, 16);
      const source = readFileSync(fileURLToPath(new URL("./service-worker.js", import.meta.url)), "utf8")
        .replace('const VERSION = "dev";', `const VERSION = ${JSON.stringify(version)};`)
        .replace("const SHELL = /* shell */ [];", `const SHELL = ${JSON.stringify(shell)};`);
      this.emitFile({ type: "asset", fileName: "sw.js", source });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  customLogger: logger,
  plugins: [react(), apiReferenceFiles(), serviceWorker()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: API_ORIGIN, changeOrigin: false },
      "/config.js": { target: API_ORIGIN, changeOrigin: false },
    },
  },
});
