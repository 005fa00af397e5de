import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// End-to-end: the built browser app in Debian's Chromium (driven by playwright-core) against the real
// Node entrypoint, spawned as a process on a fresh, migrated database on the real Postgres.
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    name: "e2e",
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    // One browser flow at a time: the machines have two cores and the flows are long.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // A poll waits on a request and a render in a browser on two cores: vitest's default second is too short
    // for the dashboard's first figures on a loaded machine (seen failing at the session's start commit too).
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
