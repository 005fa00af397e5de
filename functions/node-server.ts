// The Node server (self-host and local runs): every endpoint group in one process, started by
// startNodeServer (migrate, bootstrap, listen). functions/node-main.ts is the command around it.
import { createFileScratch } from "../lib/storage/scratch-file.ts";
import { inProcessModel } from "../lib/advisor/language-model.ts";
import { lazyBrokers } from "../lib/sync/lazy-brokers.ts";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Config } from "../lib/config/index.ts";
import type { DbHandle } from "../lib/db/client.ts";
import { createNodeDb } from "../lib/db/node.ts";
import { migrateUrl } from "../lib/db/migrate.ts";
import { checkStoredKeys } from "../lib/keys/keys.ts";
import { seedAdmin } from "../lib/auth/users.ts";
import { openSetupLink, type SetupLink } from "../lib/admin/setup.ts";
import { deferWith, type Deps } from "../lib/deps.ts";
import { CLOSE_TIMEOUT_MS, createAnalytics } from "../lib/analytics/index.ts";
import { createNodeMailer } from "../lib/email/index.ts";
import { createRateLimiter } from "../lib/ratelimit/index.ts";
import { createRedisTcpStore } from "../lib/ratelimit/redis-tcp.ts";
import { createNodeObjectStore } from "../lib/storage/node.ts";
import { shippedChangelogReader } from "../lib/changelog/node.ts";
import { JOBS, startScheduler } from "../lib/jobs/index.ts";
import { DIGEST_JOBS } from "../lib/digest/job.ts";
import { chromiumPrinter } from "../lib/report/chromium.ts";
import { createLogger, type Logger } from "../lib/log.ts";
import { probeDatabase, resolveVersion } from "../lib/health/index.ts";
import type { RunningMetrics } from "../lib/metrics/index.ts";
import { buildFullApp } from "./groups.ts";
import { serveWebApp } from "./node-web.ts";
import { closeWhenBodyUnread } from "../lib/http/keep-alive.ts";
import { shedLoad } from "../lib/http/shed.ts";

export type NodeServer = {
  url: string;
  /** The metrics listener's base URL when METRICS_ENABLED is true. */
  metricsUrl?: string;
  deps: Deps;
  handle: DbHandle;
  /** The one-time setup link's token when this start opened one (no administrator yet): printed once by main. */
  setupToken: string | null;
  close(): Promise<void>;
};

export type StartOptions = {
  log?: Logger;
  /** 0 picks a free port (tests). Defaults to PORT. */
  port?: number;
  /** 0 picks a free port for the metrics listener (tests). Defaults to METRICS_PORT. */
  metricsPort?: number;
  hostname?: string;
  scheduler?: boolean;
  /** Client-side statement timeout (tests shorten it); lib/db/node.ts DEFAULT_QUERY_TIMEOUT_MS otherwise. */
  queryTimeoutMs?: number;
  /**
   * Open a setup link when there is no administrator (lib/admin/setup.ts). By default on the embedded database
   * only, where the operator CLI cannot run beside the server; on Postgres the CLI can.
   */
  setupLink?: boolean;
};

export async function startNodeServer(config: Config, options: StartOptions = {}): Promise<NodeServer> {
  const log = options.log ?? createLogger();
  const handle = await createNodeDb(config.DATABASE_URL, {
    poolSize: config.DB_POOL_SIZE,
    transactionPooler: config.DB_TRANSACTION_POOLER,
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    onError: (err) => log.warn("database connection lost", { error: err.message }),
  });
  try {
    const report = await migrateUrl(
      config.migrationDatabaseUrl,
      {
        skipPost: config.SKIP_POST_MIGRATIONS,
        onFunctions: (r) => log.info("function files applied", { applied: r.applied.length, dropped: r.dropped.length }),
      },
      handle,
    );
    log.info("migrations applied", { postApplied: report.postApplied.length, postSkipped: report.postSkipped });
    // A fresh embedded database, just migrated and not yet written to: the template for the next fresh start.
    await handle.saveTemplate?.();
  } catch (err) {
    await handle.close();
    throw err;
  }

  const rateLimiter = createRateLimiter({ sharedStoreUrl: config.SHARED_STORE_URL, log, redisTcp: createRedisTcpStore });
  const analytics = createAnalytics(config, { fetch: globalThis.fetch, log, now: () => new Date() });
  const setupLink: SetupLink = { digest: null };
  const deps: Deps = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    log,
    now: () => new Date(),
    fetch: globalThis.fetch,
    rateLimiter,
    mailer: await createNodeMailer(config),
    storage: await createNodeObjectStore(config),
    scratch: createFileScratch(),
    defer: deferWith(log),
    model: inProcessModel(globalThis.fetch),
    brokers: lazyBrokers(globalThis.fetch),
    ...(analytics ? { analytics } : {}),
    shippedChangelog: shippedChangelogReader(config.APP_VERSION),
    setupLink,
    printPdf: chromiumPrinter(),
  };
  // The canary: stored keys must open with the configured ENCRYPTION_KEY (or ENCRYPTION_KEY_PREVIOUS), or the
  // process stops here, naming the problem, instead of failing every advisor request later.
  const keyProblems = await checkStoredKeys(deps);
  if (keyProblems.length) {
    await handle.close();
    throw new Error(`ENCRYPTION_KEY: ${keyProblems.join("; ")}. Load the key they were sealed with (or keep it as ENCRYPTION_KEY_PREVIOUS).`);
  }
  await seedAdmin(deps);
  const setupToken = (options.setupLink ?? handle.kind === "pglite") ? await openSetupLink(deps, setupLink) : null;
  // METRICS_ENABLED: GET /metrics on a listener of its own (METRICS_HOST:METRICS_PORT), not on PORT.
  // prom-client is loaded only then.
  let metrics: RunningMetrics | undefined;
  if (config.features.metrics) {
    const { startMetrics } = await import("../lib/metrics/index.ts");
    const sources = { probe: () => probeDatabase(deps), connections: handle.connections, version: resolveVersion(config.APP_VERSION), databaseKind: handle.kind };
    try {
      metrics = await startMetrics(sources, { host: config.METRICS_HOST, port: options.metricsPort ?? config.METRICS_PORT, log });
    } catch (err) {
      await handle.close();
      throw err;
    }
    log.info("metrics listening", { url: metrics.url });
  }
  const app = buildFullApp({
    deps: () => deps,
    peerAddress: (c) => (c.env as { incoming?: { socket?: { remoteAddress?: string } } }).incoming?.socket?.remoteAddress,
    ...(metrics ? { observe: metrics.observe } : {}),
  });
  serveWebApp(app, config);

  const server = await new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        // Past the knee, busy answers at once instead of every request timing out (docs/operations.md, "Under load").
        fetch: closeWhenBodyUnread(
          shedLoad(app.fetch, {
            concurrent: config.MAX_CONCURRENT_REQUESTS,
            queued: config.MAX_QUEUED_REQUESTS,
            waitMs: config.QUEUE_TIMEOUT_MS,
            onShed: (reason) => metrics?.shed(reason),
          }),
        ),
        port: options.port ?? config.PORT,
        hostname: options.hostname ?? "0.0.0.0",
      },
      () => resolve(s),
    );
  });
  const address = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${address.port}`;
  const scheduler = options.scheduler === false ? undefined : startScheduler(deps, [...JOBS, ...DIGEST_JOBS]);
  log.info("listening", { port: address.port, database: handle.kind });

  return {
    url,
    metricsUrl: metrics?.url,
    deps,
    handle,
    setupToken,
    async close() {
      scheduler?.stop();
      await metrics?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Events still queued get at most 3 s (SPEC.md: ANALYTICS_API_KEY), so a stop is never held up by them.
      await analytics?.close(CLOSE_TIMEOUT_MS);
      await rateLimiter.close();
      deps.storage?.close();
      await handle.close();
    },
  };
}
