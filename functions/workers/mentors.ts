import { mentorsGroup } from "../sharing.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the trader's mentors.
export default createWorker([mentorsGroup]);
