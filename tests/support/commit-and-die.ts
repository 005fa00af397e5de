// Child process for the crash test: commits an import (one statement, import_commit) and says so as it
// sends it; the test holds a lock the statement waits behind and kills this process meanwhile, as a process
// dying mid-commit would.
import { parseConfig, readProcessEnv } from "../../lib/config/index.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { commitImport } from "../../lib/imports/imports.ts";
import { createLogger } from "../../lib/log.ts";

const [userId, importId] = process.argv.slice(2);
const config = parseConfig(await readProcessEnv({ dotenvPath: false }));
const handle = await createNodeDb(config.DATABASE_URL, { poolSize: 1, transactionPooler: false });
process.stdout.write("committing\n");
await commitImport(
  { db: handle.db, now: () => new Date(), storage: undefined, log: createLogger({ silent: true }), analytics: undefined },
  { id: userId!, email: "", emailVerified: false, isAdmin: false, plan: "free" },
  importId!,
);
process.stdout.write("committed\n");
setInterval(() => {}, 60_000);
