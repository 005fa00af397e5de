import { playbooksGroup } from "../playbooks.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for playbooks.
export default createWorker([playbooksGroup]);
