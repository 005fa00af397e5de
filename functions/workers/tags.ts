import { tagsGroup } from "../tags.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for tags and their kinds.
export default createWorker([tagsGroup]);
