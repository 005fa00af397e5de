import { advisorGroup } from "../advisor.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the advisor group.
export default createWorker([advisorGroup]);
