// The one Worker adapter: configuration parsed once per isolate from the bindings, a database client
// per request over the serverless driver's HTTP transport, and the cron handler of the jobs Worker.
import { ConfigError, parseConfig, type Config } from "../lib/config/index.ts";
import { createNeonHttpDb } from "../lib/db/neon.ts";
import type { Deps } from "../lib/deps.ts";
import { AppError } from "../lib/errors.ts";
import { jobsForCron, runJobs } from "../lib/jobs/index.ts";
import { createLogger } from "../lib/log.ts";
import { buildApp } from "./app.ts";
import type { GroupName } from "./groups.ts";

type WorkerEnv = Record<string, unknown>;
type Ctx = { waitUntil(promise: Promise<unknown>): void };

const log = createLogger();
let cached: { env: WorkerEnv; config: Config } | undefined;
const closers = new WeakMap<Deps, () => Promise<void>>();

function configFor(env: WorkerEnv): Config {
  if (cached?.env !== env) {
    try {
      cached = { env, config: parseConfig(env) };
    } catch (err) {
      if (err instanceof ConfigError) log.error("invalid configuration", { problems: err.problems });
      throw new AppError("SERVICE_UNAVAILABLE", "The service is misconfigured.");
    }
  }
  return cached.config;
}

async function depsFor(env: WorkerEnv): Promise<Deps> {
  const config = configFor(env);
  const handle = await createNeonHttpDb(config.DATABASE_URL, { httpEndpoint: config.DB_HTTP_ENDPOINT });
  const deps: Deps = { config, db: handle.db, dbKind: handle.kind, log, now: () => new Date(), fetch: (...a) => fetch(...a) };
  closers.set(deps, () => handle.close());
  return deps;
}

export function createWorker(names: readonly GroupName[]) {
  const app = buildApp(
    {
      deps: (c) => depsFor(c.env),
      release: (deps, c) => c.executionCtx.waitUntil(closers.get(deps)?.() ?? Promise.resolve()),
    },
    names,
  );
  return {
    fetch: app.fetch,
    async scheduled(controller: { cron: string }, env: WorkerEnv, ctx: Ctx): Promise<void> {
      const deps = await depsFor(env);
      const run = runJobs(deps, jobsForCron(controller.cron)).finally(() => closers.get(deps)?.());
      ctx.waitUntil(run);
      await run;
    },
  };
}
