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
 * The API reference page (GET /api/docs) loads Scalar's standalone script from the instance itself, never a
 * CDN: the build copies it to dist/api-reference/scalar.js (functions/docs.ts, REFERENCE_SCRIPT).
 */
function apiReferenceScript(): Plugin {
  return {
    name: "api-reference-script",
    apply: "build",
    writeBundle(options) {
      const source = fileURLToPath(new URL("../node_modules/@scalar/api-reference/dist/browser/standalone.js", import.meta.url));
      const target = join(options.dir!, "api-reference");
      mkdirSync(target, { recursive: true });
      copyFileSync(source, join(target, "scalar.js"));
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  customLogger: logger,
  plugins: [react(), apiReferenceScript()],
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
