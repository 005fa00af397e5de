import { insightsGroup } from "../insights.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for behaviour findings.
export default createWorker([insightsGroup]);
