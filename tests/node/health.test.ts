import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildFullApp } from "../../functions/groups.ts";
import type { NodeServer } from "../../functions/node.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import stamp from "../../lib/build-stamp.json" with { type: "json" };
import { testDeps } from "../support/deps.ts";
import { testConfig } from "../support/env.ts";
import { startTestServerBehindProxy } from "../support/node-server.ts";
import type { TcpProxy } from "../support/tcp-proxy.ts";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createNodeDb(inject("databaseUrl"), { poolSize: 2, transactionPooler: false });
});
afterAll(() => handle.close());

async function health(env: Record<string, string> = {}) {
  const app = buildFullApp({ deps: () => testDeps(testConfig(env), handle) });
  const res = await app.request("/api/health");
  return { status: res.status, body: await res.json() };
}

describe("GET /api/health", () => {
  it("reports ok, the stamped version and the database up", async () => {
    expect(await health()).toEqual({ status: 200, body: { status: "ok", version: stamp.version, database: "up" } });
  });

  it("reports APP_VERSION over the stamp, and drops the field when APP_VERSION is blank", async () => {
    expect((await health({ APP_VERSION: "9.9.9" })).body.version).toBe("9.9.9");
    const blank = await health({ APP_VERSION: "" });
    expect(blank.status).toBe(200);
    expect(blank.body).toEqual({ status: "ok", database: "up" });
  });
});

describe("the database going away and coming back", () => {
  let proxy: TcpProxy;
  let server: NodeServer;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ server, proxy, close } = await startTestServerBehindProxy());
  });
  afterAll(() => close?.());

  it("answers 503 degraded while the database is unreachable and recovers without a restart", async () => {
    const get = async () => {
      const res = await fetch(`${server.url}/api/health`);
      return { status: res.status, body: await res.json() };
    };
    expect(await get()).toMatchObject({ status: 200, body: { status: "ok", database: "up" } });

    await proxy.cut();
    const down = await get();
    expect(down).toMatchObject({ status: 503, body: { status: "degraded", database: "down" } });
    expect(down.body.version).toBe(stamp.version);

    await proxy.restore();
    expect(await get()).toMatchObject({ status: 200, body: { status: "ok", database: "up" } });
  });
});
