import { defineConfig } from "vitest/config";

// Five test projects: node (the API on Node against the real Postgres and Redis), workers (the same
// handlers inside workerd through the serverless driver), embedded (PGlite), migrations, and web (the
// browser app's components and logic in happy-dom).
export default defineConfig({
  test: {
    projects: ["tests/*/vitest.config.ts", "web/vitest.config.ts"],
  },
});
