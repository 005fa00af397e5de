// Child process for the crash test: claims an import (the first step of a commit), says so, then waits
// to be killed before it can apply it, as a process dying mid-commit would.
import { parseConfig, readProcessEnv } from "../../lib/config/index.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { claimImport } from "../../lib/imports/imports.ts";

const [userId, importId] = process.argv.slice(2);
const config = parseConfig(await readProcessEnv({ dotenvPath: false }));
const handle = await createNodeDb(config.DATABASE_URL, { poolSize: 1, transactionPooler: false });
await claimImport({ db: handle.db, now: () => new Date() }, { id: userId!, email: "", emailVerified: false, isAdmin: false, plan: "free" }, importId!);
process.stdout.write("claimed\n");
setInterval(() => {}, 60_000);
