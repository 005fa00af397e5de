import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { readProcessEnv } from "../../lib/config/index.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The built browser app (web/dist, built here when missing) served by the real Node entrypoint on a
 * fresh, migrated database. Every test file drives it through its own browser context.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(`${ROOT}/web/dist/index.html`)) {
    const build = spawnSync(process.execPath, ["scripts/build-web.ts"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build:web failed");
  }
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
