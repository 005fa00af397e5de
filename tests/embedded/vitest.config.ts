import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// PGlite (Postgres in WASM, in-process): migrations and a smoke route. Concurrency and row-lock tests
// belong to the node project, on the real Postgres.
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "embedded",
    include: ["tests/embedded/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
