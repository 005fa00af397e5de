import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../functions/workers/all.ts";

// The same Worker `wrangler dev` runs (functions/workers/all.ts), inside workerd, with its database
// reached through the serverless driver over HTTP and the local bridge.

async function callWorker(bindings: Record<string, unknown>, path: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://journal.test${path}`), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("GET /api/health in workerd", () => {
  it("answers 200 ok with the database up", async () => {
    const res = await exports.default.fetch("http://journal.test/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = await res.json<Record<string, unknown>>();
    expect(body).toEqual({ status: "ok", database: "up", version: expect.any(String) });
  });

  it("answers 503 degraded when the SQL endpoint is unreachable", async () => {
    const res = await callWorker({ ...env, DB_HTTP_ENDPOINT: "http://127.0.0.1:9/sql" }, "/api/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "degraded", database: "down" });
  });

  it("answers 503 degraded when Postgres refuses the database named in DATABASE_URL", async () => {
    // The bridge is up but Postgres has no such database: proves the probe reaches the real server.
    const missing = env.DATABASE_URL.replace(/\/[^/?]+(\?|$)/, `/journal_missing_${crypto.randomUUID().slice(0, 8)}$1`);
    const res = await callWorker({ ...env, DATABASE_URL: missing }, "/api/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "degraded", database: "down" });
  });
});

describe("unknown routes in workerd", () => {
  it("answer 404 with the error envelope and a request id", async () => {
    const res = await exports.default.fetch("http://journal.test/api/no-such-route");
    expect(res.status).toBe(404);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    expect(await res.json()).toEqual({
      error: { code: "NOT_FOUND", message: expect.any(String), requestId },
    });
  });
});
