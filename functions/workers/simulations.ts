import { simulationsGroup } from "../simulations.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the simulations.
export default createWorker([simulationsGroup]);
