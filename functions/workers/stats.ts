import { statsGroup } from "../stats.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the stats group.
export default createWorker([statsGroup]);
