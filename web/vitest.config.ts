import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

// Component and logic tests of the browser app, in happy-dom (no server, no database): fetch is stubbed
// per test.
export default defineProject({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react()],
  test: {
    name: "web",
    environment: "happy-dom",
    environmentOptions: { happyDOM: { url: "http://localhost:3100/" } },
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test/setup.ts"],
    // user-event flows through the whole app take a few seconds each when the machine's two cores are
    // shared with the other projects.
    testTimeout: 20_000,
  },
});
