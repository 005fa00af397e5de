import { symbolsGroup } from "../market.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for symbol search.
export default createWorker([symbolsGroup]);
