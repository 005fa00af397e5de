import { billingGroup } from "../billing.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the billing group (and its webhook).
export default createWorker([billingGroup]);
