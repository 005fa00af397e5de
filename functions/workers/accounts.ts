import { accountsGroup } from "../accounts.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the accounts group.
export default createWorker([accountsGroup]);
