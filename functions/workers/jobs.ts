import { boundBrokers } from "../../lib/sync/broker-binding.ts";
import { healthGroup } from "../health.ts";
import { createJobsWorker } from "../jobs-worker.ts";
import { JOBS } from "../../lib/jobs/index.ts";

// Worker entry (default export required by the Workers runtime): cron triggers run the shared jobs;
// it also answers /api/health so an operator can check it.
export default createJobsWorker([healthGroup], JOBS, { brokers: (env) => boundBrokers(env), seedAdmin: true });
