import { fillsGroup } from "../fills.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the fills group.
export default createWorker([fillsGroup]);
