import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "migrations",
    include: ["tests/migrations/**/*.test.ts"],
    globalSetup: ["tests/migrations/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The tests share two databases and apply migrations in sequence.
    fileParallelism: false,
  },
});
