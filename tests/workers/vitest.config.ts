import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineProject } from "vitest/config";
import { baseTestEnv } from "../support/env.ts";

// The API inside workerd (Miniflare), configured from wrangler.toml like `wrangler dev`, reaching the real
// Postgres through the serverless driver and scripts/db-bridge.ts, and object storage pointing at the local
// S3 stand-in (both started by the global setup).
export default defineProject({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          ...baseTestEnv(),
          DATABASE_URL: inject("workersDatabaseUrl"),
          DB_HTTP_ENDPOINT: inject("dbHttpEndpoint"),
          DB_WS_PROXY: inject("dbWsProxy"),
          ...inject("objectStorageEnv"),
          ...inject("providerEnv"),
        },
      },
    })),
  ],
  test: {
    name: "workers",
    include: ["tests/workers/**/*.test.ts"],
    globalSetup: ["tests/workers/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
