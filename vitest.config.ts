import { defineConfig } from "vitest/config";

// Four test projects: node (the API on Node against the real Postgres and Redis), workers (the same
// handlers inside workerd through the serverless driver), embedded (PGlite) and migrations.
export default defineConfig({
  test: {
    projects: ["tests/*/vitest.config.ts"],
  },
});
