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
          ...inject("marketEnv"),
          ...inject("brokerEnv"),
        },
        // The advisor Worker's model call goes over this binding to a model Worker as deployed (built by the global setup).
        // The broker sync's adapters go over BROKERS to the brokers Worker as deployed (built by the global setup).
        serviceBindings: { MODEL_ANTHROPIC: { name: "journal-model-anthropic", entrypoint: "Model" }, BROKERS: { name: "journal-brokers", entrypoint: "Brokers" } },
        workers: [
          {
            name: "journal-brokers",
            modules: true,
            scriptPath: inject("brokersWorkerScript"),
            compatibilityDate: "2026-10-01",
            compatibilityFlags: ["nodejs_compat"],
          },
          {
            name: "journal-model-anthropic",
            modules: true,
            scriptPath: inject("modelWorkerScript"),
            compatibilityDate: "2026-10-01",
            compatibilityFlags: ["nodejs_compat"],
          },
        ],
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
