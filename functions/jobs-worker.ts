import { seedAdmin } from "../lib/auth/users.ts";
import { jobsForCron, runJobs, type Job } from "../lib/jobs/run.ts";
import type { Group } from "../lib/http/index.ts";
import { createEdgeObjectStore } from "../lib/storage/s3-fetch.ts";
import { createWorker, depsFor, releaseDeps, type Ctx, type WorkerEnv, type WorkerOptions } from "./worker.ts";

/**
 * A Worker that also runs `jobs` on its cron triggers (wrangler.toml lists the crons): the shared jobs (the jobs
 * Worker, lib/jobs), or its own (the digest Worker's). `seedAdmin`: the Worker that does at every cron what Node
 * does at start. It has an object store: the import jobs remove staged objects.
 */
export function createJobsWorker(groups: readonly Group[], jobs: readonly Job[], extra: Pick<WorkerOptions, "model" | "scratch" | "brokers"> & { seedAdmin?: boolean } = {}) {
  const { seedAdmin: _seed, ...workerExtra } = extra;
  const options: WorkerOptions = { storage: createEdgeObjectStore, ...workerExtra };
  return {
    ...createWorker(groups, options),
    async scheduled(controller: { cron: string }, env: WorkerEnv, ctx: Ctx): Promise<void> {
      const deps = await depsFor(env, ctx, options);
      const run = (async () => {
        await runJobs(deps, jobsForCron(controller.cron, jobs));
        // SEED_ADMIN_EMAIL: the edge has no start step, so every cron run of the jobs Worker does what Node does at start.
        if (extra.seedAdmin) await seedAdmin(deps).catch((err: unknown) =>
          deps.log.error("SEED_ADMIN_EMAIL bootstrap failed", { error: err instanceof Error ? err.message : String(err) }),
        );
      })().finally(() => releaseDeps(deps));
      ctx.waitUntil(run);
      await run;
    },
  };
}
