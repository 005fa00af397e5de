import { barsGroup } from "../bars.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for price bars.
export default createWorker([barsGroup]);
