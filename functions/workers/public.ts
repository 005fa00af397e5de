import { publicGroup } from "../sharing.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for what a public link shows (no session).
export default createWorker([publicGroup]);
