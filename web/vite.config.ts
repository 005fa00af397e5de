import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The browser app. `npm run build:web` writes web/dist (served by the Node entrypoint and the web
// container); `npm run dev:web` serves it with hot reload and forwards the API to the dev server on 3100.
// Nothing from the environment is baked in: runtime settings come from /config.js.
const API_ORIGIN = "http://localhost:3100";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
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
