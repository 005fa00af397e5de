// Running jobs (lib/jobs): the type of a job, a run of some of them, and the Node scheduler. Apart from the list of
// the shared jobs (index.ts), so a Worker that runs only its own jobs (the digest Worker) does not carry them all.
import type { Deps } from "../deps.ts";

/**
 * A periodic job shared by both runtimes: the Node scheduler runs it every `everyMinutes`, the jobs
 * Worker on the cron expression `cron` (wrangler.toml declares the same expressions).
 */
export type Job = {
  name: string;
  cron: string;
  everyMinutes: number;
  run(deps: Deps): Promise<{ affected: number }>;
};

/** Runs jobs one after another; a failing job is logged and does not stop the others. */
export async function runJobs(deps: Deps, jobs: readonly Job[]): Promise<Record<string, number | "failed">> {
  const outcome: Record<string, number | "failed"> = {};
  for (const job of jobs) {
    const started = Date.now();
    try {
      const { affected } = await job.run(deps);
      outcome[job.name] = affected;
      deps.log.info("job finished", { job: job.name, affected, ms: Date.now() - started });
    } catch (err) {
      outcome[job.name] = "failed";
      deps.log.error("job failed", { job: job.name, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return outcome;
}

export function jobsForCron(cron: string, jobs: readonly Job[]): Job[] {
  return jobs.filter((j) => j.cron === cron);
}

/** Node: an in-process scheduler. Each job runs once shortly after start, then on its interval, never overlapping itself. */
export function startScheduler(deps: Deps, jobs: readonly Job[], firstRunDelayMs = 5000): { stop(): void } {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let stopped = false;
  for (const job of jobs) {
    const tick = async () => {
      if (stopped) return;
      await runJobs(deps, [job]);
      if (!stopped) timers.push(setTimeout(tick, job.everyMinutes * 60_000).unref());
    };
    timers.push(setTimeout(tick, firstRunDelayMs).unref());
  }
  return {
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
    },
  };
}
