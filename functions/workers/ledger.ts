import { ledgerGroup } from "../ledger.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the ledger group.
export default createWorker([ledgerGroup]);
