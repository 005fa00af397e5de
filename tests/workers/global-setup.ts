import type { TestProject } from "vitest/node";
import { join } from "node:path";
import { startDbBridge } from "../../scripts/db-bridge.ts";
import { buildWorker, ROOT } from "../../scripts/bench/worker-bundles.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startBrokerServer } from "../support/broker-server.ts";
import { startMarketServer } from "../support/market-server.ts";
import { startProviderServer } from "../support/provider-server.ts";
import { startS3Server } from "../support/s3-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    workersDatabaseUrl: string;
    dbHttpEndpoint: string;
    dbWsProxy: string;
    /** The OBJECT_STORAGE_ variables of the local S3 stand-in. */
    objectStorageEnv: Record<string, string>;
    /** The base URL seams pointing the model and market-data providers at the local stand-in. */
    providerEnv: Record<string, string>;
    /** The ticker file and quote provider seams (and the platform quote key), pointing at the local stand-in. */
    marketEnv: Record<string, string>;
    /** The Anthropic model Worker built as deployed (functions/workers/model-anthropic.ts), bound as MODEL_ANTHROPIC. */
    modelWorkerScript: string;
    /** The brokers Worker built as deployed (functions/workers/brokers.ts), bound as BROKERS. */
    brokersWorkerScript: string;
    /** The brokers' stand-in seams, and an Alpaca key pair whose account has two fills there. */
    brokerEnv: Record<string, string>;
    alpacaKey: { keyId: string; secret: string };
  }
}

/**
 * One fresh, migrated database on the real Postgres, the bridge the Worker's serverless driver reaches it
 * through (HTTP for queries, WebSocket for interactive transactions), the local S3 stand-in that object
 * storage points at, the providers' stand-in, and a model Worker for the advisor Worker's binding.
 */
export default async function setup(project: TestProject) {
  project.provide("modelWorkerScript", await buildWorker("model-anthropic", join(ROOT, "dist/test-workers/model-anthropic")));
  project.provide("brokersWorkerScript", await buildWorker("brokers", join(ROOT, "dist/test-workers/brokers")));
  const bridge = await startDbBridge();
  const db = await createMigratedDatabase("journal_workers_test").catch(async (err: unknown) => {
    await bridge.close();
    throw err;
  });
  project.provide("workersDatabaseUrl", db.url);
  project.provide("dbHttpEndpoint", bridge.httpUrl);
  project.provide("dbWsProxy", bridge.wsUrl);
  const s3 = await startS3Server();
  project.provide("objectStorageEnv", s3.env);
  const providers = await startProviderServer();
  project.provide("providerEnv", providers.env);
  const market = await startMarketServer();
  project.provide("marketEnv", market.env);
  const brokers = await startBrokerServer();
  const { SCHWAB_CLIENT_ID: _id, SCHWAB_CLIENT_SECRET: _secret, ...brokerEnv } = brokers.env;
  project.provide("brokerEnv", brokerEnv);
  project.provide("alpacaKey", brokers.alpacaKey("PAWORKERD01"));
  brokers.alpaca.fills.set("PAWORKERD01", [
    { id: "20240119093015000::workerd-1", activity_type: "FILL", transaction_time: "2024-01-19T14:30:15Z", type: "fill", price: "191.5", qty: "10", side: "buy", symbol: "AAPL", order_id: "w-1" },
    { id: "20240119100000000::workerd-2", activity_type: "FILL", transaction_time: "2024-01-19T15:00:00Z", type: "fill", price: "192.25", qty: "10", side: "sell", symbol: "AAPL", order_id: "w-2" },
  ]);
  return async () => {
    await brokers.close();
    await market.close();
    await providers.close();
    await s3.close();
    await bridge.close();
    await dropDatabase(db.name);
  };
}
