// A process that places a credit hold and then waits to be killed (kill -9), as an advisor turn whose process
// dies between hold and settle: run by tests/node/credits.test.ts. Arguments: database URL, user id, hold id.
import { placeHold } from "../../lib/billing/wallet.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { testConfig } from "./env.ts";

const [databaseUrl, userId, holdId] = process.argv.slice(2) as [string, string, string];
const handle = await createNodeDb(databaseUrl, { poolSize: 1, transactionPooler: false });
const hold = await placeHold({ db: handle.db, config: testConfig(), now: () => new Date() }, userId, holdId, 40);
process.stdout.write(`held ${hold.amount}\n`);
setInterval(() => {}, 60_000);
