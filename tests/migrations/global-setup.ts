import type { TestProject } from "vitest/node";
import { readProcessEnv } from "../../lib/config/index.ts";
import { adminQuery, createDatabase, dropDatabase, uniqueName } from "../support/database.ts";
import { databaseUrl } from "../support/env.ts";

declare module "vitest" {
  export interface ProvidedContext {
    migrateUrl: string;
    migrateUserUrl: string;
  }
}

/**
 * MIGRATE_TEST_DATABASE_URL (a superuser-owned empty database) and MIGRATE_TEST_USER_DATABASE_URL
 * (an empty database owned by a role without superuser) when the environment sets them; otherwise
 * both are created fresh on the local Postgres for this run and dropped afterwards.
 */
export default async function setup(project: TestProject) {
  const env = await readProcessEnv({ dotenvPath: false });
  const cleanups: Array<() => Promise<unknown>> = [];

  let migrateUrl = env.MIGRATE_TEST_DATABASE_URL;
  if (!migrateUrl) {
    const db = await createDatabase("journal_migrate_test");
    cleanups.push(() => dropDatabase(db.name));
    migrateUrl = db.url;
  }
  let migrateUserUrl = env.MIGRATE_TEST_USER_DATABASE_URL;
  if (!migrateUserUrl) {
    const role = uniqueName("journal_migrator");
    await adminQuery(`create role "${role}" login nosuperuser nocreatedb nocreaterole`);
    const db = await createDatabase("journal_migrate_user_test", role);
    cleanups.push(async () => {
      await dropDatabase(db.name);
      await adminQuery(`drop role if exists "${role}"`);
    });
    migrateUserUrl = databaseUrl(db.name, role);
  }
  project.provide("migrateUrl", migrateUrl);
  project.provide("migrateUserUrl", migrateUserUrl);
  return async () => {
    for (const cleanup of cleanups) await cleanup();
  };
}
