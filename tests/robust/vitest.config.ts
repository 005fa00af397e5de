import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// Generated bad input on every mounted route (docs/reliability.md), on a database of its own.
// ROBUST_RUNS sets the depth (default 12 requests per route; `npm run test:deep` uses 200).
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "robust",
    include: ["tests/robust/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
