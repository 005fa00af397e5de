import { adminGroup } from "../admin.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for the admin console's API.
export default createWorker([adminGroup]);
