import { tradesGroup } from "../trades.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the trades group.
export default createWorker([tradesGroup]);
