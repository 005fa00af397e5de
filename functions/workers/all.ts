import { groups } from "../groups.ts";
import { createWorker } from "../worker.ts";

// Worker entry (default export required by the Workers runtime) for local `wrangler dev`: every group
// in one workerd Worker, like the Node entrypoint. Deployments use one Worker per group instead.
export default createWorker(Object.values(groups));
