import { eq, sql } from "drizzle-orm";
import { seedAdmin } from "../../lib/auth/users.ts";
import { totpCode } from "../../lib/auth/two-factor.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { createLogger } from "../../lib/log.ts";
import { describe, expect, inject, it } from "vitest";
import type { NodeServer } from "../../functions/node.ts";
import { users } from "../../lib/db/schema.ts";
import { requireAdmin } from "../../lib/http/auth.ts";
import { createApp, createRouter } from "../../lib/http/index.ts";
import { sharedDb, testApp } from "../support/app.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { PASSWORD, TestClient, uniqueEmail } from "../support/client.ts";
import { inOneWindow } from "../support/window.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";
import { startTestServer } from "../support/node-server.ts";

const url = () => inject("databaseUrl");

async function withServer<T>(env: Record<string, string>, fn: (server: NodeServer) => Promise<T>): Promise<T> {
  const server = await startTestServer(env);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

describe("rate limits", () => {
  it("register: 5 per 15 minutes per client, then 429 with Retry-After", async () => {
    const { statuses, last } = await inOneWindow(900, async () => {
      const t = await testApp(url());
      const seen: number[] = [];
      let res: Response | undefined;
      for (let i = 0; i < 6; i++) {
        res = await t.client().post("/api/auth/register", { email: uniqueEmail("rl"), password: PASSWORD });
        seen.push(res.status);
      }
      return { statuses: seen, last: res };
    });
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const wait = Number(last!.headers.get("Retry-After"));
    expect(wait).toBeGreaterThan(0);
    const error = (await last!.json()).error;
    expect(error.code).toBe("RATE_LIMITED");
    // The message says how long, in the words Retry-After gives in seconds.
    const minutes = Math.ceil(wait / 60);
    expect(error.message).toBe(wait < 60 ? `Too many requests. Try again in ${wait} second${wait === 1 ? "" : "s"}.` : `Too many requests. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
  });

  it("login: 10 per 15 minutes per client, wrong or right password alike", async () => {
    const statuses = await inOneWindow(900, async () => {
      const t = await testApp(url());
      const seen: number[] = [];
      for (let i = 0; i < 11; i++) {
        seen.push((await t.client().post("/api/auth/login", { email: uniqueEmail("nobody"), password: PASSWORD })).status);
      }
      return seen;
    });
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });

  it("login's 10 are not spent by the second step of a two-factor sign-in; over it, the lockout's words", async () => {
    const { statuses, last } = await inOneWindow(900, async () => {
      const t = await testApp(url());
      // Set up from another client address, so this client's count starts at zero.
      const owner = (await testApp(url(), {}, { peer: "per-request" })).client();
      const email = uniqueEmail("two-step");
      expect((await owner.post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
      const { secret } = (await (await owner.post("/api/auth/2fa/totp/setup", {})).json()) as { secret: string };
      const on = await owner.post("/api/auth/2fa/totp/enable", { code: totpCode(secret, new Date()) });
      const { backupCodes } = (await on.json()) as { backupCodes: string[] };
      const seen: number[] = [];
      let res: Response | undefined;
      for (let i = 0; i < 11; i++) {
        res = await t.client().post("/api/auth/login", { email, password: PASSWORD });
        seen.push(res.status);
        if (res.status !== 200) break;
        const { challenge } = (await res.json()) as { challenge: string };
        seen.push((await t.client().post("/api/auth/login/2fa", { challenge, code: backupCodes[i % backupCodes.length] })).status);
      }
      return { statuses: seen, last: res };
    });
    // Ten sign-ins, each in two steps, then the eleventh login refused.
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
    const wait = Number(last!.headers.get("Retry-After"));
    const minutes = Math.ceil(wait / 60);
    expect((await last!.json()).error.message).toBe(wait < 60 ? `Too many sign-in attempts. Try again in ${wait} second${wait === 1 ? "" : "s"}.` : `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
  });

  it("X-Forwarded-For from an untrusted peer cannot escape the limit", async () => {
    const statuses = await inOneWindow(900, () =>
      withServer({}, async (server) => {
        const seen: number[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await new TestClient(server.url).post(
            "/api/auth/register",
            { email: uniqueEmail("xff"), password: PASSWORD },
            { headers: { "X-Forwarded-For": `203.0.113.${i + 1}` } },
          );
          seen.push(res.status);
        }
        return seen;
      }),
    );
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it("X-Forwarded-For from a trusted proxy identifies the client behind it", async () => {
    await withServer({ TRUSTED_PROXIES: "127.0.0.1/32,::1/128" }, async (server) => {
      for (let i = 0; i < 7; i++) {
        const res = await new TestClient(server.url).post(
          "/api/auth/register",
          { email: uniqueEmail("proxied"), password: PASSWORD },
          { headers: { "X-Forwarded-For": `198.51.100.${i + 1}` } },
        );
        expect(res.status).toBe(201);
      }
      // ...and one client behind the proxy is still limited, whatever it claims further left.
      const statuses = await inOneWindow(900, async () => {
        const client = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
        const seen: number[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await new TestClient(server.url).post(
            "/api/auth/register",
            { email: uniqueEmail("same"), password: PASSWORD },
            { headers: { "X-Forwarded-For": `10.9.9.${i}, ${client}` } },
          );
          seen.push(res.status);
        }
        return seen;
      });
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    });
  });

  it("counts an IPv6 client by its /64: rotating addresses inside it does not escape the limit", async () => {
    await withServer({ TRUSTED_PROXIES: "127.0.0.1/32,::1/128" }, async (server) => {
      const statuses = await inOneWindow(900, async () => {
        // A fresh /64 per attempt, so a rerun of the burst starts from zero.
        const [a, b] = [Math.floor(Math.random() * 0x10000), Math.floor(Math.random() * 0xffff)].map((n) => n.toString(16));
        const net = `2001:db8:${a}:${b}`;
        const seen: number[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await new TestClient(server.url).post(
            "/api/auth/register",
            { email: uniqueEmail("v6"), password: PASSWORD },
            { headers: { "X-Forwarded-For": `${net}::${(i + 1).toString(16)}` } },
          );
          seen.push(res.status);
        }
        // The next /64 is another client, with a count of its own.
        const next = `2001:db8:${a}:${(parseInt(b!, 16) + 1).toString(16)}`;
        const neighbour = await new TestClient(server.url).post(
          "/api/auth/register",
          { email: uniqueEmail("v6-next"), password: PASSWORD },
          { headers: { "X-Forwarded-For": `${next}::1` } },
        );
        seen.push(neighbour.status);
        return seen;
      });
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 201]);
    });
  });

  it("switches to the stricter local limits when the shared store goes away mid-run (never open)", async () => {
    const statuses = await inOneWindow(900, async () => {
      const proxy = await startTcpProxy(6379);
      try {
        return await withServer({ SHARED_STORE_URL: `redis://127.0.0.1:${proxy.port}` }, async (server) => {
          const login = () => new TestClient(server.url).post("/api/auth/login", { email: uniqueEmail("gone"), password: PASSWORD });
          expect((await login()).status).toBe(401); // counted in Redis
          await proxy.cut();
          const seen: number[] = [];
          for (let i = 0; i < 6; i++) seen.push((await login()).status);
          return seen;
        });
      } finally {
        await proxy.close();
      }
    });
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe("password re-checks (change the password, delete the account)", () => {
  it("5 guesses per session and 10 per user in 15 minutes, then 429 with Retry-After, the right password included", async () => {
    const { perSession, perUser, retryAfter } = await inOneWindow(900, async () => {
      const t = await testApp(url(), {}, { peer: "per-request" });
      const email = uniqueEmail("guess");
      const stolen = t.client();
      await stolen.post("/api/auth/register", { email, password: PASSWORD });
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) seen.push((await stolen.post("/api/auth/password", { currentPassword: `guess ${i}`, newPassword: "taken over!" })).status);
      seen.push((await stolen.request("/api/auth/account", { method: "DELETE", json: { password: "guess 4", confirm: "delete my account" } })).status);
      // The sixth, the right password this time, from the same session: refused, on either route.
      const right = await stolen.post("/api/auth/password", { currentPassword: PASSWORD, newPassword: "taken over!" });
      seen.push(right.status);
      seen.push((await stolen.request("/api/auth/account", { method: "DELETE", json: { password: PASSWORD, confirm: "delete my account" } })).status);
      // A second session of the same user gets what is left of the user's budget (10), then 429 too.
      const second = t.client();
      await second.post("/api/auth/login", { email, password: PASSWORD });
      const more: number[] = [];
      for (let i = 0; i < 6; i++) more.push((await second.post("/api/auth/password", { currentPassword: `more ${i}`, newPassword: "taken over!" })).status);
      return { perSession: seen, perUser: more, retryAfter: Number(right.headers.get("Retry-After")) };
    });
    expect(perSession).toEqual([400, 400, 400, 400, 400, 429, 429]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(perUser).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it("the owner's own right password still works within the budget", async () => {
    const t = await testApp(url(), {}, { peer: "per-request" });
    const client = t.client();
    const email = uniqueEmail("owner");
    await client.post("/api/auth/register", { email, password: PASSWORD });
    expect((await client.post("/api/auth/password", { currentPassword: "typo", newPassword: "the next password" })).status).toBe(400);
    expect((await client.post("/api/auth/password", { currentPassword: PASSWORD, newPassword: "the next password" })).status).toBe(204);
  });
});

describe("cross-origin mode (CORS_ALLOWED_ORIGINS set)", () => {
  const origin = "https://app.example.com";
  const env = { CORS_ALLOWED_ORIGINS: origin };

  it("sets SameSite=None; Secure cookies and returns an anti-CSRF token", async () => {
    const t = await testApp(url(), env);
    const res = await t.client().post("/api/auth/register", { email: uniqueEmail("cors"), password: PASSWORD }, { headers: { Origin: origin } });
    expect(res.status).toBe(201);
    expect((await res.json()).csrfToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const cookie = res.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/^__Host-journal_session=/m);
    expect(cookie).toMatch(/SameSite=None/);
    expect(cookie).toMatch(/Secure/);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(origin);
    expect(res.headers.get("Access-Control-Allow-Credentials")).toBe("true");
  });

  it("refuses a mutating request without the session's token with 403 CSRF_FAILED", async () => {
    const t = await testApp(url(), env);
    const client = t.client();
    const { csrfToken } = await (await client.post("/api/auth/register", { email: uniqueEmail("csrf"), password: PASSWORD })).json();
    const other = t.client();
    const { csrfToken: otherToken } = await (await other.post("/api/auth/register", { email: uniqueEmail("csrf2"), password: PASSWORD })).json();

    for (const headers of [{}, { "X-CSRF-Token": "forged" }, { "X-CSRF-Token": otherToken }] as Record<string, string>[]) {
      const res = await client.post("/api/auth/logout", undefined, { headers });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("CSRF_FAILED");
    }
    expect((await client.get("/api/auth/me")).status).toBe(200); // reads need no token
    expect(await (await client.get("/api/auth/csrf")).json()).toEqual({ csrfToken });
    expect((await client.post("/api/auth/logout", undefined, { headers: { "X-CSRF-Token": csrfToken } })).status).toBe(204);
  });

  it("routes before auth: an unknown path answers 404 to a signed-in client without a token", async () => {
    const t = await testApp(url(), env);
    const client = t.client();
    expect((await client.post("/api/auth/register", { email: uniqueEmail("csrf-404"), password: PASSWORD })).status).toBe(201);
    for (const [method, path] of [["POST", "/api/no-such-route"], ["DELETE", "/api/accounts/nope/extra"], ["PUT", "/api/auth/logout"]] as const) {
      const res = await client.request(path, { method, json: {} });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await res.json()).error.code).toBe("NOT_FOUND");
    }
    // A known mutating route still wants the token.
    expect((await client.post("/api/auth/logout")).status).toBe(403);
  });

  it("answers preflights for listed origins only", async () => {
    const t = await testApp(url(), env);
    const preflight = (from: string) =>
      t.app.request("/api/auth/login", {
        method: "OPTIONS",
        headers: { Origin: from, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-csrf-token" },
      });
    const ok = await preflight(origin);
    expect(ok.headers.get("Access-Control-Allow-Origin")).toBe(origin);
    expect(ok.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("x-csrf-token");
    const evil = await preflight("https://evil.example.com");
    expect(evil.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("sends no CORS headers at all when unset, and keeps SameSite=Lax", async () => {
    const t = await testApp(url());
    const res = await t.client().post("/api/auth/register", { email: uniqueEmail("same-origin"), password: PASSWORD }, { headers: { Origin: "http://localhost" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect((await res.json()).csrfToken).toBeUndefined();
    expect(res.headers.getSetCookie().join()).toMatch(/SameSite=Lax/);
    // Another origin gets neither CORS headers nor an answer (docs/auth.md, "Same-origin mode").
    const foreign = await t.client().post("/api/auth/register", { email: uniqueEmail("foreign"), password: PASSWORD }, { headers: { Origin: origin } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect((await foreign.json()).error.code).toBe("CSRF_FAILED");
  });
});

describe("administrators", () => {
  it("SEED_ADMIN_EMAIL promotes that user at start while the instance has no admin", async () => {
    // Its own database: "no admin on the instance" must not depend on other test files.
    const db = await createMigratedDatabase("journal_seed_test");
    try {
      const t = await testApp(db.url);
      const email = uniqueEmail("seed");
      await t.client().post("/api/auth/register", { email, password: PASSWORD });
      await withServer({ DATABASE_URL: db.url, SEED_ADMIN_EMAIL: email.toUpperCase() }, async () => {});
      const [row] = await t.deps.db.select().from(users).where(eq(users.email, email));
      expect(row!.isAdmin).toBe(true);

      // With an admin present, another seed address is left alone.
      const second = uniqueEmail("seed2");
      await t.client().post("/api/auth/register", { email: second, password: PASSWORD });
      await withServer({ DATABASE_URL: db.url, SEED_ADMIN_EMAIL: second }, async () => {});
      const [other] = await t.deps.db.select().from(users).where(eq(users.email, second));
      expect(other!.isAdmin).toBe(false);
      await (await sharedDb(db.url)).close();
    } finally {
      await dropDatabase(db.name);
    }
  });

  it("with email on, SEED_ADMIN_EMAIL promotes only a confirmed address; with email off, a warning says to register it first", async () => {
    const db = await createMigratedDatabase("journal_seed_verified");
    try {
      const email = uniqueEmail("seed-verified");
      const mail = { SMTP_HOST: "127.0.0.1", SMTP_PORT: "2525", SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100/", SEED_ADMIN_EMAIL: email };
      const withEmail = await testApp(db.url, mail);
      // Someone registers the seeded address before its owner (email is on: they cannot confirm it).
      await withEmail.client().post("/api/auth/register", { email, password: PASSWORD });
      expect(await seedAdmin(withEmail.deps)).toBeUndefined();
      const [squatter] = await withEmail.deps.db.select().from(users).where(eq(users.email, email));
      expect(squatter!.isAdmin).toBe(false);
      // Once the address is confirmed (by its owner, through the mailed link), the next start promotes it, audited.
      await withEmail.deps.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
      expect(await seedAdmin(withEmail.deps)).toMatchObject({ email, isAdmin: true });
      const audit = rowsOf<{ actor_id: string | null; actor_email: string; action: string; target_email: string }>(
        await withEmail.deps.db.execute(sql`select actor_id, actor_email, action, target_email from admin_audit`),
      );
      expect(audit).toEqual([{ actor_id: null, actor_email: "operator (SEED_ADMIN_EMAIL)", action: "promote", target_email: email }]);
    } finally {
      await (await sharedDb(db.url)).close();
      await dropDatabase(db.name);
    }
    const off = await createMigratedDatabase("journal_seed_off");
    try {
      const lines: string[] = [];
      const t = await testApp(off.url, { SEED_ADMIN_EMAIL: uniqueEmail("seed-off") }, { log: createLogger({ write: (l) => lines.push(l) }) });
      expect(await seedAdmin(t.deps)).toBeUndefined();
      expect(lines.some((l) => l.includes('"level":"warn"') && l.includes("whoever registers it first becomes the administrator"))).toBe(true);
    } finally {
      await (await sharedDb(off.url)).close();
      await dropDatabase(off.name);
    }
  });

  it("requireAdmin answers 401 without a session and 403 for a non-admin", async () => {
    const t = await testApp(url());
    const probe = createApp({ deps: () => t.deps });
    probe.route("/api/admin", createRouter().get("/ping", requireAdmin, (c) => c.json({ ok: true })));
    const anon = new TestClient(probe);
    expect((await anon.get("/api/admin/ping")).status).toBe(401);
    const email = uniqueEmail("plain");
    const signedIn = t.client();
    await signedIn.post("/api/auth/register", { email, password: PASSWORD });
    const user = new TestClient(probe);
    for (const [k, v] of signedIn.cookies) user.cookies.set(k, v);
    const res = await user.get("/api/admin/ping");
    expect(res.status).toBe(403);
    await t.deps.db.update(users).set({ isAdmin: true }).where(eq(users.email, email));
    expect((await user.get("/api/admin/ping")).status).toBe(200);
  });
});
