import { everyModelInProcess } from "../../lib/advisor/every-model.ts";
import { createEdgeScratch } from "../../lib/storage/scratch-object.ts";
import { inProcessBrokers } from "../../lib/sync/runner.ts";
import { groups } from "../groups.ts";
import { createJobsWorker } from "../jobs-worker.ts";
import { JOBS } from "../../lib/jobs/index.ts";
import { DIGEST_JOBS } from "../../lib/digest/job.ts";

// Worker entry (default export required by the Workers runtime) for local `wrangler dev`: every group
// and the cron jobs in one workerd Worker, like the Node entrypoint, the advisor's model call included.
// Deployments use one Worker per group, and model Workers for the advisor (functions/workers/model-*.ts).
export default createJobsWorker(Object.values(groups), [...JOBS, ...DIGEST_JOBS], {
  model: (_env, outbound) => everyModelInProcess(outbound),
  brokers: (_env, outbound) => inProcessBrokers(outbound),
  scratch: createEdgeScratch,
  seedAdmin: true,
});
