import { boundModel } from "../../lib/advisor/model-binding.ts";
import { boundBrokers } from "../../lib/sync/broker-binding.ts";
import { healthGroup } from "../health.ts";
import { createJobsWorker } from "../jobs-worker.ts";

// Worker entry (default export required by the Workers runtime): cron triggers run the shared jobs;
// it also answers /api/health so an operator can check it. The digest's reading runs in the model Workers.
export default createJobsWorker([healthGroup], { brokers: (env) => boundBrokers(env), model: (env) => boundModel(env) });
