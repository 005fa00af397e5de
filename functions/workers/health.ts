import { healthGroup } from "../health.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the health group.
export default createWorker([healthGroup]);
