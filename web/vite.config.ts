import { copyFileSync, mkdirSync } from "node:fs";
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

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  customLogger: logger,
  plugins: [react(), apiReferenceFiles()],
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
