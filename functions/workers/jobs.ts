import { healthGroup } from "../health.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime): cron triggers run the shared jobs;
// it also answers /api/health so an operator can check it.
export default createWorker([healthGroup]);
