import { strategiesGroup } from "../strategies.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for option strategies.
export default createWorker([strategiesGroup]);
