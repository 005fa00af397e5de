// Prometheus metrics of the Node entrypoint (METRICS_ENABLED=true), in the text exposition format of
// prom-client, served by GET /metrics on a listener of their own (METRICS_HOST:METRICS_PORT), never on the
// application port. No user data: requests are counted by method, route template
// ("/api/ledger/:accountId", never the path with its ids) and status. Every scrape probes the database.
// Workers have no second listener; they never create this.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { ConnectionStats, DbKind } from "../db/client.ts";
import type { RequestObservation } from "../http/index.ts";
import type { Logger } from "../log.ts";

export type MetricsSources = {
  /** The database probe of GET /api/health (select 1 within its budget): run on every scrape. */
  probe: () => Promise<boolean>;
  /** The pool's connections by state, where the transport has a pool. */
  connections?: () => ConnectionStats;
  /** The release (lib/health resolveVersion); undefined when APP_VERSION is set blank. */
  version: string | undefined;
  databaseKind: DbKind;
};

type Metrics = {
  /** Counts one answered request (lib/http createApp's `observe`). */
  observe(request: RequestObservation): void;
  /** Counts one request answered busy before the app saw it (lib/http/shed.ts). */
  shed(reason: string): void;
  /** Probes the database, then renders every metric. */
  scrape(): Promise<{ contentType: string; body: string }>;
};

/** The metrics of a running server and their listener. */
export type RunningMetrics = { observe: Metrics["observe"]; shed: Metrics["shed"]; url: string; close(): Promise<void> };

/** Seconds: from a cached answer to a slow import commit. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Methods the API routes; anything else a client sends is counted as OTHER, so labels stay few. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process metrics: CPU, memory, heap, event-loop lag, open handles, start time.
  collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({ name: "journal_http_requests_total", help: "Requests answered, by method, route template and status.", labelNames, registers });
  const duration = new Histogram({
    name: "journal_http_request_duration_seconds",
    help: "Time from a request's arrival at the app to its response, by method, route template and status.",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const shed = new Counter({
    name: "journal_http_requests_shed_total",
    help: "Requests answered 503 busy before the app saw them (MAX_CONCURRENT_REQUESTS, MAX_QUEUED_REQUESTS), by reason.",
    labelNames: ["reason"] as const,
    registers,
  });
  const databaseUp = new Gauge({ name: "journal_database_up", help: "1 when this scrape's database probe (select 1) answered in time, else 0.", registers });
  const probeSeconds = new Gauge({ name: "journal_database_probe_duration_seconds", help: "How long this scrape's database probe took.", registers });
  const connections = new Gauge({
    name: "journal_database_connections",
    help: "Connections of the database pool: total (open), idle, and waiting (requests queued for one).",
    labelNames: ["state"] as const,
    registers,
  });
  new Gauge({ name: "journal_build_info", help: "Always 1; the labels name the release and the database transport.", labelNames: ["version", "database"] as const, registers }).set(
    { version: sources.version ?? "", database: sources.databaseKind },
    1,
  );

  return {
    observe({ method, route, status, seconds }) {
      const labels = { method: METHODS.has(method) ? method : "OTHER", route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    shed(reason) {
      shed.inc({ reason });
    },
    async scrape() {
      const started = performance.now();
      const up = await sources.probe();
      probeSeconds.set((performance.now() - started) / 1000);
      databaseUp.set(up ? 1 : 0);
      const stats = sources.connections?.();
      if (stats) for (const [state, count] of Object.entries(stats)) connections.set({ state }, count);
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** The metrics, and their listener: GET (or HEAD) /metrics, 404 for any other path, 405 for any other method. */
export async function startMetrics(sources: MetricsSources, { host, port, log }: { host: string; port: number; log: Logger }): Promise<RunningMetrics> {
  const metrics = createMetrics(sources);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: metrics are at /metrics.\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Only GET /metrics.\n");
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : body);
      },
      (err: unknown) => {
        log.error("metrics scrape failed", { error: err instanceof Error ? err.message : String(err) });
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("The scrape failed; see the server log.\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    observe: metrics.observe,
    shed: metrics.shed,
    url: `http://${shown}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
