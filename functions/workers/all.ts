import { groups } from "../groups.ts";
import { createJobsWorker } from "../jobs-worker.ts";

// Worker entry (default export required by the Workers runtime) for local `wrangler dev`: every group
// and the cron jobs in one workerd Worker, like the Node entrypoint. Deployments use one Worker per group.
export default createJobsWorker(Object.values(groups));
