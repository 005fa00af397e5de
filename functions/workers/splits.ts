import { splitsGroup } from "../splits.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for stock splits.
export default createWorker([splitsGroup]);
