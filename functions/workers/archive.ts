import { archiveGroup } from "../archive.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the complete archive.
export default createWorker([archiveGroup]);
