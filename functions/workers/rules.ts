import { rulesGroup } from "../rules.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for trading rules and compliance.
export default createWorker([rulesGroup]);
