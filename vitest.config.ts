import { defineConfig } from "vitest/config";

// The test projects (tests/*/vitest.config.ts): node (the API on Node against the real Postgres and Redis),
// workers (the same handlers inside workerd through the serverless driver), embedded (PGlite), migrations,
// robust (generated bad input on every route), e2e (the built app in Chromium), and web (the browser app's
// components and logic in happy-dom).
export default defineConfig({
  test: {
    projects: ["tests/*/vitest.config.ts", "web/vitest.config.ts"],
  },
});
