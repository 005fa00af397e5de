import { daysGroup } from "../days.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the daily journal.
export default createWorker([daysGroup]);
