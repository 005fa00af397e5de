import type { TestProject } from "vitest/node";
import { startDbBridge } from "../../scripts/db-bridge.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    workersDatabaseUrl: string;
    dbHttpEndpoint: string;
    dbWsProxy: string;
  }
}

/**
 * One fresh, migrated database on the real Postgres, and the bridge the Worker's serverless driver
 * reaches it through (HTTP for queries, WebSocket for interactive transactions).
 */
export default async function setup(project: TestProject) {
  const bridge = await startDbBridge();
  const db = await createMigratedDatabase("journal_workers_test").catch(async (err: unknown) => {
    await bridge.close();
    throw err;
  });
  project.provide("workersDatabaseUrl", db.url);
  project.provide("dbHttpEndpoint", bridge.httpUrl);
  project.provide("dbWsProxy", bridge.wsUrl);
  return async () => {
    await bridge.close();
    await dropDatabase(db.name);
  };
}
