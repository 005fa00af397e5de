import { seedAdmin } from "../lib/auth/users.ts";
import type { Deps } from "../lib/deps.ts";
import { jobsForCron, runJobs } from "../lib/jobs/index.ts";
import type { Group } from "../lib/http/index.ts";
import { createEdgeObjectStore } from "../lib/storage/s3-fetch.ts";
import { createWorker, depsFor, releaseDeps, type Ctx, type WorkerEnv } from "./worker.ts";

/**
 * SEED_ADMIN_EMAIL on the edge, which has no start step: every cron run does what the Node entrypoint does
 * at start (lib/auth/users.ts seedAdmin: that user becomes admin only while the instance has no admin).
 */
async function seedAdminOnEdge(deps: Deps): Promise<void> {
  const email = deps.config.SEED_ADMIN_EMAIL;
  if (!email) return;
  try {
    const promoted = await seedAdmin(deps, email);
    if (promoted) deps.log.info("SEED_ADMIN_EMAIL promoted to admin", { userId: promoted.id });
  } catch (err) {
    deps.log.error("SEED_ADMIN_EMAIL bootstrap failed", { error: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * A Worker that also runs the shared jobs on its cron triggers (wrangler.toml lists the crons). It has an
 * object store: the import jobs remove staged objects.
 */
export function createJobsWorker(groups: readonly Group[]) {
  const options = { storage: createEdgeObjectStore };
  return {
    ...createWorker(groups, options),
    async scheduled(controller: { cron: string }, env: WorkerEnv, ctx: Ctx): Promise<void> {
      const deps = await depsFor(env, ctx, options);
      const run = (async () => {
        await runJobs(deps, jobsForCron(controller.cron));
        await seedAdminOnEdge(deps);
      })().finally(() => releaseDeps(deps));
      ctx.waitUntil(run);
      await run;
    },
  };
}
