import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { createLogger, defineConfig } from "vite";

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

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  customLogger: logger,
  plugins: [react()],
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
