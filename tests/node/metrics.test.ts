// METRICS_ENABLED: GET /metrics on the separate metrics listener of the real Node server, against the real
// database (through a TCP proxy that can be cut, to see a scrape find it down).
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServer } from "../../functions/node.ts";
import stamp from "../../lib/build-stamp.json" with { type: "json" };
import { PASSWORD, TestClient, uniqueEmail } from "../support/client.ts";
import { freePort } from "../support/entrypoint.ts";
import { startTestServer, startTestServerBehindProxy } from "../support/node-server.ts";
import type { TcpProxy } from "../support/tcp-proxy.ts";

const start = (env: Record<string, string>) => startTestServer({ METRICS_HOST: "127.0.0.1", ...env }, { metricsPort: 0 });

/** The value of one sample line (`name{labels} value`), or undefined when the scrape has no such line. */
function sample(body: string, series: string): number | undefined {
  const line = body.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics with METRICS_ENABLED=true", () => {
  let server: NodeServer;
  beforeAll(async () => {
    server = await start({ METRICS_ENABLED: "true" });
  });
  afterAll(() => server?.close());

  it("serves the text exposition format on its own listener: requests by route template, database, process, build", async () => {
    const client = new TestClient(server.url);
    const email = uniqueEmail("metrics");
    expect((await client.post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
    const accountId = "5b0e8c5e-3f7e-4a43-9a52-3b0b8f0e2c11";
    for (let i = 0; i < 3; i++) expect((await client.get(`/api/ledger/${accountId}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/no-such-route`)).status).toBe(404);

    const res = await fetch(`${server.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await res.text();

    expect(sample(body, 'journal_http_requests_total{method="POST",route="/api/auth/register",status="201"}')).toBe(1);
    expect(sample(body, 'journal_http_requests_total{method="GET",route="/api/ledger/:accountId",status="404"}')).toBe(3);
    expect(sample(body, 'journal_http_requests_total{method="GET",route="/api/health",status="200"}')).toBe(1);
    expect(sample(body, 'journal_http_request_duration_seconds_count{method="GET",route="/api/ledger/:accountId",status="404"}')).toBe(3);
    expect(body).toMatch(/journal_http_requests_total\{method="GET",route="[^"]*",status="404"\} 1/);
    expect(sample(body, "journal_database_up")).toBe(1);
    expect(sample(body, "journal_database_probe_duration_seconds")).toBeGreaterThan(0);
    expect(sample(body, 'journal_database_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'journal_database_connections{state="waiting"}')).toBe(0);
    expect(sample(body, `journal_build_info{version="${stamp.version}",database="pg"}`)).toBe(1);
    expect(sample(body, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(body).toContain("nodejs_eventloop_lag_seconds");

    // No user data: neither the account id of a path nor the email of a body reaches a label.
    expect(body).not.toContain(accountId);
    expect(body).not.toContain(email);
  });

  it("answers only GET /metrics there, and serves no metrics on the application port", async () => {
    expect((await fetch(`${server.metricsUrl}/`)).status).toBe(404);
    expect((await fetch(`${server.metricsUrl}/api/health`)).status).toBe(404);
    const post = await fetch(`${server.metricsUrl}/metrics`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const head = await fetch(`${server.metricsUrl}/metrics`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const onApp = await fetch(`${server.url}/metrics`);
    expect(await onApp.text()).not.toContain("journal_http_requests_total");
  });
});

describe("a scrape probes the database", () => {
  let proxy: TcpProxy;
  let server: NodeServer;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ server, proxy, close } = await startTestServerBehindProxy({ METRICS_ENABLED: "true", METRICS_HOST: "127.0.0.1", APP_VERSION: "" }, { metricsPort: 0 }));
  });
  afterAll(() => close?.());

  it("reports the database down while it is unreachable, still answering 200, and up again after", async () => {
    const scrape = async () => {
      const res = await fetch(`${server.metricsUrl}/metrics`);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(sample(await scrape(), "journal_database_up")).toBe(1);
    await proxy.cut();
    const down = await scrape();
    expect(sample(down, "journal_database_up")).toBe(0);
    expect(sample(down, 'journal_build_info{version="",database="pg"}')).toBe(1);
    await proxy.restore();
    expect(sample(await scrape(), "journal_database_up")).toBe(1);
  });
});

describe("METRICS_ENABLED=false (the default)", () => {
  it("opens no metrics listener", async () => {
    const port = await freePort();
    const server = await startTestServer({ METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1" });
    try {
      expect(server.metricsUrl).toBeUndefined();
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect(port, "127.0.0.1");
        socket.once("connect", () => {
          socket.destroy();
          resolve(false);
        });
        socket.once("error", () => resolve(true));
      });
      expect(refused).toBe(true);
    } finally {
      await server.close();
    }
  });
});
