// The one Worker adapter: configuration parsed once per isolate from the bindings and a database client
// per request over the serverless driver's HTTP transport. The jobs Worker adds its cron handler
// (jobs-worker.ts), so other Workers never bundle the jobs' code; likewise only the Workers that stage
// imports pass an object store factory, so the others never bundle its signer.
import { ConfigError, parseConfig, type Config } from "../lib/config/index.ts";
import { createNeonHttpDb } from "../lib/db/neon.ts";
import { deferWith, type Deps } from "../lib/deps.ts";
import { createAnalytics } from "../lib/analytics/index.ts";
import { createEdgeMailer } from "../lib/email/index.ts";
import { createRateLimiter, type RateLimiter } from "../lib/ratelimit/index.ts";
import type { ObjectStore } from "../lib/storage/index.ts";
import type { Scratch } from "../lib/storage/scratch.ts";
import type { ModelRunner } from "../lib/advisor/model.ts";
import type { BrokerRunner } from "../lib/ports/broker.ts";
import { AppError } from "../lib/errors.ts";
import { createLogger } from "../lib/log.ts";
import type { Group } from "../lib/http/index.ts";
import { buildApp } from "./app.ts";

export type WorkerEnv = Record<string, unknown>;
export type Ctx = { waitUntil(promise: Promise<unknown>): void };
export type WorkerOptions = {
  /** The object store for Workers that need one (createEdgeObjectStore); others have deps.storage undefined. */
  storage?: (config: Config, outbound: typeof fetch) => ObjectStore | undefined;
  /** Room for an upload read out of order (createEdgeScratch: the object store), for the Worker that needs it. */
  scratch?: (config: Config, outbound: typeof fetch) => Scratch | undefined;
  /** The advisor's model call: in this Worker (`wrangler dev`) or through the model Workers' bindings. */
  model?: (env: WorkerEnv, outbound: typeof fetch) => ModelRunner;
  /** The broker sync's calls: in this Worker (`wrangler dev`) or through the brokers Worker's binding. */
  brokers?: (env: WorkerEnv, outbound: typeof fetch) => BrokerRunner;
};

const log = createLogger();
let cached: { env: WorkerEnv; config: Config; rateLimiter: RateLimiter } | undefined;
const closers = new WeakMap<Deps, () => Promise<void>>();

/** Configuration and the rate limiter live as long as the isolate (REST store, or in-isolate counts). */
function isolateState(env: WorkerEnv) {
  if (cached?.env !== env) {
    try {
      const config = parseConfig(env);
      cached = { env, config, rateLimiter: createRateLimiter({ sharedStoreUrl: config.SHARED_STORE_URL, log }) };
    } catch (err) {
      if (err instanceof ConfigError) log.error("invalid configuration", { problems: err.problems });
      throw new AppError("SERVICE_UNAVAILABLE", "The service is misconfigured.");
    }
  }
  return cached;
}

export async function depsFor(env: WorkerEnv, ctx: Ctx, options: WorkerOptions = {}): Promise<Deps> {
  const { config, rateLimiter } = isolateState(env);
  const handle = await createNeonHttpDb(config.DATABASE_URL, { httpEndpoint: config.DB_HTTP_ENDPOINT });
  const outbound: typeof fetch = (...a) => fetch(...a);
  const defer = deferWith(log, (p) => ctx.waitUntil(p));
  // Events of this request are sent in one batch after the response (waitUntil), never before it.
  const analytics = createAnalytics(config, { fetch: outbound, log, now: () => new Date(), schedule: (flush) => defer(flush) });
  const deps: Deps = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    log,
    now: () => new Date(),
    fetch: outbound,
    rateLimiter,
    mailer: createEdgeMailer(config, outbound),
    storage: options.storage?.(config, outbound),
    ...(options.scratch ? { scratch: options.scratch(config, outbound) } : {}),
    defer,
    model: options.model?.(env, outbound),
    brokers: options.brokers?.(env, outbound),
    ...(analytics ? { analytics } : {}),
  };
  closers.set(deps, () => handle.close());
  return deps;
}

export function createWorker(groups: readonly Group[], options: WorkerOptions = {}) {
  const app = buildApp(
    {
      deps: (c) => depsFor(c.env, c.executionCtx, options),
      peerAddress: (c) => c.req.header("CF-Connecting-IP"),
      release: (deps, c) => c.executionCtx.waitUntil(closers.get(deps)?.() ?? Promise.resolve()),
    },
    groups,
  );
  return { fetch: app.fetch };
}

/** Releases what depsFor opened (the per-request database client). */
export function releaseDeps(deps: Deps): Promise<void> {
  return closers.get(deps)?.() ?? Promise.resolve();
}
