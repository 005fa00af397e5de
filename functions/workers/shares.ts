import { sharesGroup } from "../sharing.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the public links the trader makes.
export default createWorker([sharesGroup]);
