import { seedAdmin } from "../lib/auth/users.ts";
import { JOBS, jobsForCron, runJobs, type Job } from "../lib/jobs/index.ts";
import type { Group } from "../lib/http/index.ts";
import { createEdgeObjectStore } from "../lib/storage/s3-fetch.ts";
import { createWorker, depsFor, releaseDeps, type Ctx, type WorkerEnv, type WorkerOptions } from "./worker.ts";

/**
 * A Worker that also runs jobs on its cron triggers (wrangler.toml lists the crons): the shared jobs by default
 * (the jobs Worker), or those given (the digest Worker's). It has an object store: the import jobs remove staged
 * objects.
 */
export function createJobsWorker(groups: readonly Group[], extra: Pick<WorkerOptions, "model" | "scratch" | "brokers"> = {}, jobs: readonly Job[] = JOBS) {
  const options: WorkerOptions = { storage: createEdgeObjectStore, ...extra };
  return {
    ...createWorker(groups, options),
    async scheduled(controller: { cron: string }, env: WorkerEnv, ctx: Ctx): Promise<void> {
      const deps = await depsFor(env, ctx, options);
      const run = (async () => {
        await runJobs(deps, jobsForCron(controller.cron, jobs));
        // SEED_ADMIN_EMAIL: the edge has no start step, so every cron run of the jobs Worker does what Node does at start.
        if (jobs.some((j) => JOBS.includes(j))) await seedAdmin(deps).catch((err: unknown) =>
          deps.log.error("SEED_ADMIN_EMAIL bootstrap failed", { error: err instanceof Error ? err.message : String(err) }),
        );
      })().finally(() => releaseDeps(deps));
      ctx.waitUntil(run);
      await run;
    },
  };
}
