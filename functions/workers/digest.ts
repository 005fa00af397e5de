import { boundModel } from "../../lib/advisor/model-binding.ts";
import { digestGroup } from "../digest.ts";
import { DIGEST_JOBS } from "../../lib/digest/job.ts";
import { createJobsWorker } from "../jobs-worker.ts";

// Worker entry (default export required by the Workers runtime) for the digest's unsubscribe and preview, and
// the digest's job on its own cron trigger (lib/digest/job.ts). The reading runs in the model Workers, over
// Workers RPC.
export default createJobsWorker([digestGroup], DIGEST_JOBS, { model: (env) => boundModel(env) });
