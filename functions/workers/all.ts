import { createWorker } from "../worker.ts";
import { groups, type GroupName } from "../groups.ts";

// Worker entry (default export required by the Workers runtime) for local `wrangler dev`: every group
// in one workerd Worker, like the Node entrypoint. Deployments use one Worker per group instead.
export default createWorker(Object.keys(groups) as GroupName[]);
