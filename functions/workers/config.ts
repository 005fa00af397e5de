import { configGroup } from "../config.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the config group.
export default createWorker([configGroup]);
