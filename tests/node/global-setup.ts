import type { TestProject } from "vitest/node";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** One fresh, migrated database per run on the real Postgres; dropped afterwards. */
export default async function setup(project: TestProject) {
  const db = await createMigratedDatabase("journal_node_test");
  project.provide("databaseUrl", db.url);
  return async () => {
    await dropDatabase(db.name);
  };
}
