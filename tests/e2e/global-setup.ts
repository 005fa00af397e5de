import type { TestProject } from "vitest/node";
import { readProcessEnv } from "../../lib/config/index.ts";
import { buildWebIfStale } from "../../scripts/build-web.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/**
 * The built browser app (web/dist, rebuilt here when older than its sources) served by the real Node entrypoint on a
 * fresh, migrated database. Every test file drives it through its own browser context.
 */
export default async function setup(project: TestProject) {
  await buildWebIfStale();
  const db = await createMigratedDatabase("journal_e2e_test");
  const { PATH } = await readProcessEnv({ dotenvPath: false });
  const server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: db.url }).catch(async (err) => {
    await dropDatabase(db.name);
    throw err;
  });
  project.provide("baseUrl", server.url);
  return async () => {
    await server.stop();
    await dropDatabase(db.name);
  };
}
