import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildFullApp } from "../../functions/groups.ts";
import type { NodeServer } from "../../functions/node.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { databaseErrorForLog, isDatabaseUnavailable } from "../../lib/db/errors.ts";
import { createLogger } from "../../lib/log.ts";
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
  const lines: string[] = [];

  beforeAll(async () => {
    ({ server, proxy, close } = await startTestServerBehindProxy({}, { log: createLogger({ write: (l) => lines.push(l) }) }));
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

  it("answers a database route 503 SERVICE_UNAVAILABLE with Retry-After while it is unreachable, logging no request data", async () => {
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `outage-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }),
    });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
    const post = (name: string) =>
      fetch(`${server.url}/api/accounts`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify({ name, currency: "USD" }) });
    expect((await post("SECRET-NAME-1")).status).toBe(201);

    await proxy.cut();
    for (const res of [await fetch(`${server.url}/api/accounts`, { headers: { Cookie: cookie } }), await post("SECRET-NAME-2")]) {
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
      expect((await res.json()).error.code).toBe("SERVICE_UNAVAILABLE");
    }
    await proxy.restore();
    expect((await fetch(`${server.url}/api/accounts`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect(lines.some((l) => l.includes('"database unavailable"'))).toBe(true);
    const sessionSecret = cookie.split("=")[1]!;
    for (const line of lines) {
      expect(line).not.toContain("SECRET-NAME");
      expect(line).not.toContain(sessionSecret);
      expect(line).not.toMatch(/Failed query|params:/);
    }
  });
});

describe("a failed statement in the logs", () => {
  it("is its Postgres code and message, never the statement or its parameters", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "accounts_user_name"'), { code: "23505", detail: "Key (name)=(SECRET) already exists." });
    const err = new Error("Failed query: insert into accounts (name) values ($1)\nparams: SECRET", { cause });
    expect(databaseErrorForLog(err)).toEqual({ name: "DatabaseError", code: "23505", message: 'duplicate key value violates unique constraint "accounts_user_name"' });
    const refused = new Error("Failed query: select * from sessions where id = $1\nparams: SECRET", { cause: new Error("Connection terminated unexpectedly") });
    expect(databaseErrorForLog(refused)).toEqual({ name: "Error", cause: "Error: Connection terminated unexpectedly" });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
