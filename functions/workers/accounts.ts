import { boundBrokers } from "../../lib/sync/broker-binding.ts";
import { accountsGroup } from "../accounts.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the accounts group. The broker calls of its
// connections run in the brokers Worker behind a service binding (functions/workers/brokers.ts).
export default createWorker([accountsGroup], { brokers: (env) => boundBrokers(env) });
