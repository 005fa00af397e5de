import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { buildFullApp } from "../../functions/groups.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { AppError, createApp, JSON_BODY_LIMIT_BYTES, validate, createRouter } from "../../lib/http/index.ts";
import { captureLogger, testDeps } from "../support/deps.ts";
import { testConfig } from "../support/env.ts";

let handle: DbHandle;
const logged = captureLogger();

beforeAll(async () => {
  handle = await createNodeDb(inject("databaseUrl"), { poolSize: 2, transactionPooler: false });
});
afterAll(() => handle.close());

function app() {
  const deps = testDeps(testConfig(), handle, { log: logged.log });
  const probe = createRouter()
    .post("/echo", validate("json", z.object({ name: z.string().min(1), qty: z.string().regex(/^\d+$/) })), (c) =>
      c.json({ got: c.req.valid("json") }, 201),
    )
    .get("/item/:id", validate("param", z.object({ id: z.uuid() })), (c) => c.json({ id: c.req.valid("param").id }))
    .get("/boom", () => {
      throw new Error("select secret_column from users where 1 = syntax error");
    })
    .get("/sql", async (c) => {
      await c.var.deps.db.execute(sql`select * from no_such_table_here`);
      return c.json({});
    })
    .get("/conflict", () => {
      throw new AppError("CONFLICT", "Already there.");
    });
  const a = createApp({ deps: () => deps });
  a.route("/api/probe", probe);
  return a;
}

describe("the HTTP shell", () => {
  it("answers an unknown route with the 404 envelope and a request id", async () => {
    const res = await app().request("/api/nothing-here");
    expect(res.status).toBe(404);
    const body = await res.json();
    const id = res.headers.get("X-Request-Id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String), requestId: id } });
  });

  it("keeps a well-formed incoming X-Request-Id and replaces a malformed one", async () => {
    const kept = await app().request("/api/nothing", { headers: { "X-Request-Id": "trace-123" } });
    expect(kept.headers.get("X-Request-Id")).toBe("trace-123");
    const replaced = await app().request("/api/nothing", { headers: { "X-Request-Id": "bad id\u00e9<script>" } });
    expect(replaced.headers.get("X-Request-Id")).not.toContain("script");
  });

  it("sets nosniff, no-store and the no-framing headers on API responses", async () => {
    const res = await app().request("/api/probe/conflict");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("CONFLICT");
  });

  it("never leaks a stack trace or SQL on a 500, and logs the stack instead", async () => {
    for (const path of ["/api/probe/boom", "/api/probe/sql"]) {
      const res = await app().request(path);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).not.toMatch(/select|no_such_table|secret_column|at .*\.ts/i);
      const body = JSON.parse(text);
      expect(body.error.code).toBe("INTERNAL");
      expect(body.error.requestId).toBe(res.headers.get("X-Request-Id"));
    }
    expect(logged.lines.some((l) => l.includes("unhandled error") && l.includes("stack"))).toBe(true);
  });

  it("validates JSON bodies into VALIDATION_ERROR with fields", async () => {
    const res = await app().request("/api/probe/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "", qty: "1.5" }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.fields.map((f: { path: string }) => f.path).sort()).toEqual(["name", "qty"]);
  });

  it("accepts a valid body", async () => {
    const res = await app().request("/api/probe/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ name: "AAPL", qty: "10" }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ got: { name: "AAPL", qty: "10" } });
  });

  it("answers malformed JSON with 400 VALIDATION_ERROR", async () => {
    const res = await app().request("/api/probe/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
  });

  it("refuses a non-JSON content type on a JSON route with 415", async () => {
    const res = await app().request("/api/probe/echo", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ name: "x", qty: "1" }),
    });
    expect(res.status).toBe(415);
    expect((await res.json()).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses a body over the limit with 413", async () => {
    const res = await app().request("/api/probe/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(JSON_BODY_LIMIT_BYTES), qty: "1" }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("validates path parameters (a bad uuid is a 400, not a 500)", async () => {
    const res = await app().request("/api/probe/item/not-a-uuid");
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields[0].path).toBe("id");
  });
});

describe("GET /api/config/public", () => {
  it("reports whether sign-up is open and the newsletter link", async () => {
    const open = buildFullApp({ deps: () => testDeps(testConfig(), handle) });
    expect(await (await open.request("/api/config/public")).json()).toEqual({ registrationOpen: true, newsletterUrl: null });
    const closed = buildFullApp({
      deps: () => testDeps(testConfig({ DISABLE_REGISTRATION: "true", NEWSLETTER_URL: "https://news.example.com/join" }), handle),
    });
    expect(await (await closed.request("/api/config/public")).json()).toEqual({
      registrationOpen: false,
      newsletterUrl: "https://news.example.com/join",
    });
  });
});

describe("Strict-Transport-Security", () => {
  const hsts = async (env: Record<string, string>, peer: string, headers: Record<string, string>, url = "/api/health") => {
    const deps = testDeps(testConfig(env), handle, { log: logged.log });
    const res = await buildFullApp({ deps: () => deps, peerAddress: () => peer }).request(url, { headers });
    return res.headers.get("strict-transport-security");
  };

  it("is sent only on a request that came over TLS: a trusted proxy's X-Forwarded-Proto, or an https URL", async () => {
    const env = { TRUSTED_PROXIES: "10.0.0.0/8" };
    expect(await hsts(env, "10.1.2.3", { "X-Forwarded-Proto": "https" })).toBe("max-age=31536000");
    expect(await hsts(env, "10.1.2.3", { "X-Forwarded-Proto": "https, http" })).toBe("max-age=31536000");
    // Plain HTTP, or a client that only claims TLS through an untrusted hop: no header.
    expect(await hsts(env, "10.1.2.3", { "X-Forwarded-Proto": "http" })).toBeNull();
    expect(await hsts(env, "10.1.2.3", {})).toBeNull();
    expect(await hsts(env, "203.0.113.9", { "X-Forwarded-Proto": "https" })).toBeNull();
    // At the edge the request's own URL says it (a Worker sees https:).
    expect(await hsts(env, "203.0.113.9", {}, "https://journal.example.com/api/health")).toBe("max-age=31536000");
    // HSTS_MAX_AGE sets it; 0 turns it off.
    expect(await hsts({ ...env, HSTS_MAX_AGE: "600" }, "10.1.2.3", { "X-Forwarded-Proto": "https" })).toBe("max-age=600");
    expect(await hsts({ ...env, HSTS_MAX_AGE: "0" }, "10.1.2.3", { "X-Forwarded-Proto": "https" })).toBeNull();
  });
});
