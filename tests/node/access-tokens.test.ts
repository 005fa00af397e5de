// Personal access tokens (DESIGN.md section 10; docs/auth.md "Personal access tokens"): made in Settings (shown
// once, stored hashed), listed with lastUsedAt, revoked at once, expired after their days; `Authorization:
// Bearer` authenticates without cookie or CSRF header; every mounted route holds a token to the scope the API
// document lists for it (a generated test over the route table), and auth, token, key, billing, advisor and
// admin routes take none, nor the archive. Making one asks for the password (and a code when the authenticator
// is on) and lives a year at most; a password change, a reset, "sign out everywhere" and an administrator's "end
// sessions" revoke every token (issue 52: a stolen session must not mint lasting access). On the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { createToken, TOKEN_SCOPES, type TokenScope } from "../../lib/auth/tokens.ts";
import { issueEmailToken } from "../../lib/auth/email-tokens.ts";
import { totpCode } from "../../lib/auth/two-factor.ts";
import { apiRoutes } from "../../lib/http/openapi.ts";
import { routeScope } from "../../lib/http/route-docs.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, uniqueEmail, type TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");

/** What no token reaches: these tags whole, and these routes of other tags (the archive holds the advisor's conversations). */
const TOKEN_FREE_TAGS = new Set(["auth", "passkeys", "advisor", "billing", "admin"]);
const TOKEN_FREE_ROUTES = new Set(["GET /api/archive", "POST /api/archive"]);

async function setup(now?: () => Date) {
  const t: TestApp = await testApp(url(), {}, { peer: "per-request", ...(now ? { now } : {}) });
  const client = t.client();
  const res = await client.post("/api/auth/register", { email: uniqueEmail("tokens"), password: PASSWORD });
  expect(res.status).toBe(201);
  const { id: userId, email } = ((await res.json()) as { user: { id: string; email: string } }).user;
  const make = async (scopes: TokenScope[], extra: Record<string, unknown> = {}) => {
    const made = await client.post("/api/auth/tokens", { name: `script ${scopes.join("+")}`, scopes, password: PASSWORD, ...extra });
    expect(made.status).toBe(201);
    return (await made.json()) as { id: string; token: string; scopes: string[]; expiresAt: string | null };
  };
  /** A client that sends only the token: no cookie. */
  const bearer = (token: string): TestClient => {
    const c = t.client();
    c.headers = { Authorization: `Bearer ${token}` };
    return c;
  };
  return { t, client, userId, email, make, bearer };
}

describe("personal access tokens", () => {
  it("made once, stored hashed, listed without the token, used (lastUsedAt), revoked at once", async () => {
    const s = await setup();
    const made = await s.make(["read"]);
    expect(made.token).toMatch(/^tj_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: "script read", scopes: ["read"], expiresAt: expect.any(String) });
    const stored = rowsOf<{ token_hash: string }>(await s.t.deps.db.execute(sql`select token_hash from access_tokens where user_id = ${s.userId}::uuid`));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(made.token.slice(3, 20));

    const list = async () => ((await (await s.client.get("/api/auth/tokens")).json()) as { tokens: Array<Record<string, unknown>> }).tokens;
    const [before] = await list();
    expect(before).toEqual({ id: made.id, name: "script read", scopes: ["read"], createdAt: expect.any(String), expiresAt: made.expiresAt, lastUsedAt: null });
    expect(JSON.stringify(await list())).not.toContain(made.token);

    const api = s.bearer(made.token);
    const accounts = await api.get("/api/accounts");
    expect(accounts.status).toBe(200);
    expect(accounts.headers.get("set-cookie")).toBeNull();
    expect((await list())[0]!.lastUsedAt).toEqual(expect.any(String));

    expect((await s.client.delete(`/api/auth/tokens/${made.id}`)).status).toBe(204);
    const revoked = await api.get("/api/accounts");
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "UNAUTHORIZED",
      message: "The access token is not valid: unknown, revoked or expired.",
    });
    expect((await s.client.delete(`/api/auth/tokens/${made.id}`)).status).toBe(404);
    // Another user's token id is not found either.
    const other = await setup();
    const theirs = await other.make(["read"]);
    expect((await s.client.delete(`/api/auth/tokens/${theirs.id}`)).status).toBe(404);
    expect((await other.bearer(theirs.token).get("/api/accounts")).status).toBe(200);
  });

  it("expires after its days; a malformed or unknown token is refused", async () => {
    let clock = Date.now();
    const s = await setup(() => new Date(clock));
    const made = await s.make(["read"], { expiresInDays: 1 });
    expect(new Date(made.expiresAt!).getTime()).toBe(clock + 86_400_000);
    expect((await s.bearer(made.token).get("/api/accounts")).status).toBe(200);
    clock += 86_400_000;
    expect((await s.bearer(made.token).get("/api/accounts")).status).toBe(401);
    expect((await s.bearer("tj_not-a-token").get("/api/accounts")).status).toBe(401);
    const blank = s.t.client();
    blank.headers = { Authorization: "Bearer" };
    expect((await blank.get("/api/accounts")).status).toBe(401);
  });

  it("bad input is named and writes nothing; twenty tokens at most", async () => {
    const s = await setup();
    const bad = async (body: Record<string, unknown>, path: string) => {
      const res = await s.client.post("/api/auth/tokens", { password: PASSWORD, ...body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Array<{ path: string }> } }).error.fields.map((f) => f.path)).toContain(path);
    };
    await bad({ name: "", scopes: ["read"] }, "name");
    await bad({ name: "x", scopes: [] }, "scopes");
    await bad({ name: "x", scopes: ["admin"] }, "scopes.0");
    await bad({ name: "x", scopes: ["read"], expiresInDays: 0 }, "expiresInDays");
    await bad({ name: "x", scopes: ["read"], expiresInDays: 1.5 }, "expiresInDays");
    await bad({ name: "x", scopes: ["read"], password: PASSWORD, expiresInDays: 366 }, "expiresInDays");
    expect(rowsOf(await s.t.deps.db.execute(sql`select 1 from access_tokens where user_id = ${s.userId}::uuid`))).toHaveLength(0);
    // The same scope twice counts once.
    expect((await s.make(["read", "read"])).scopes).toEqual(["read"]);
    // Twenty-five at once (the domain call: the route's budget of password checks, 5 a session and 10 a user in
    // 15 minutes, would stop them first): the cap holds under the lock.
    await Promise.allSettled(Array.from({ length: 25 }, (_, i) => createToken(s.t.deps, { id: s.userId, email: s.email }, { name: `t${i}`, scopes: ["read"], password: PASSWORD })));
    expect(rowsOf(await s.t.deps.db.execute(sql`select 1 from access_tokens where user_id = ${s.userId}::uuid`))).toHaveLength(20);
    const over = await s.client.post("/api/auth/tokens", { name: "one more", scopes: ["read"], password: PASSWORD });
    expect(over.status).toBe(409);
  });

  it("needs no CSRF proof and ignores a cookie beside it; writes fills with fills:write; reads the ledger page", async () => {
    const s = await setup();
    const account = await s.client.post("/api/accounts", { name: "Bot", currency: "USD", startingBalance: "1000", timezone: "America/New_York" });
    const accountId = ((await account.json()) as { id: string }).id;
    const writer = await s.make(["fills:write", "read"]);
    const api = s.bearer(writer.token);
    const fill = { accountId, symbol: "AAPL", side: "buy", quantity: "10", price: "100", fees: "1", executedAt: "2026-11-20T15:00:00Z" };
    // A request a browser would mark as cross-site: with a token it is not a forged cookie, so it passes.
    const added = await api.post("/api/fills", fill, { headers: { Origin: "https://elsewhere.example", "Sec-Fetch-Site": "cross-site" } });
    expect(added.status).toBe(201);
    const page = await api.get(`/api/ledger/${accountId}`);
    expect(page.status).toBe(200);
    expect(((await page.json()) as { entries: unknown[] }).entries.length).toBe(2);
    // A read-only token cannot write, even with a signed-in cookie beside it: the token decides.
    const reader = await s.make(["read"]);
    const both = s.client.clone();
    both.headers = { Authorization: `Bearer ${reader.token}` };
    const refused = await both.post("/api/fills", fill);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('This access token lacks the "fills:write" scope this route needs.');
    const fills = rowsOf(await s.t.deps.db.execute(sql`select 1 from fills where account_id = ${accountId}::uuid`));
    expect(fills).toHaveLength(1);
  });

  it("asks for the password, and the code while the authenticator is on: missing or wrong, 400 naming it and no token made", async () => {
    let clock = Date.now();
    const s = await setup(() => new Date(clock));
    const count = async () => rowsOf(await s.t.deps.db.execute(sql`select 1 from access_tokens where user_id = ${s.userId}::uuid`)).length;
    const refused = async (body: Record<string, unknown>, path: string, message: string) => {
      const res = await s.client.post("/api/auth/tokens", { name: "stolen", scopes: ["read", "import", "fills:write"], ...body });
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { code: string; fields: Array<{ path: string; message: string }> } }).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.fields).toContainEqual({ path, message });
    };
    await refused({}, "password", "is required");
    await refused({ password: "not the password" }, "password", "is wrong");
    expect(await count()).toBe(0);

    // A second session of the user (signed in before the authenticator is on): each session has 5 password checks in 15 minutes.
    const other = s.t.client();
    expect((await other.post("/api/auth/login", { email: s.email, password: PASSWORD })).status).toBe(200);
    // The authenticator on: the password alone is not enough.
    const { secret } = (await (await s.client.post("/api/auth/2fa/totp/setup", {})).json()) as { secret: string };
    expect((await s.client.post("/api/auth/2fa/totp/enable", { code: totpCode(secret, new Date(clock)) })).status).toBe(200);
    clock += 30_000;
    await refused({ password: PASSWORD }, "code", "is required while two-factor sign-in is on");
    await refused({ password: PASSWORD, code: "000000" === totpCode(secret, new Date(clock)) ? "111111" : "000000" }, "code", "is wrong or has been used");
    // A wrong password with the right code spends nothing: the code still works after.
    await refused({ password: "not the password", code: totpCode(secret, new Date(clock)) }, "password", "is wrong");
    expect(await count()).toBe(0);
    const made = await other.post("/api/auth/tokens", { name: "mine", scopes: ["read"], password: PASSWORD, code: totpCode(secret, new Date(clock)) });
    expect(made.status).toBe(201);
    // 90 days when no expiry is asked for.
    expect(new Date(((await made.json()) as { expiresAt: string }).expiresAt).getTime()).toBe(clock + 90 * 86_400_000);
    expect(await count()).toBe(1);
  });

  it("a password change, a completed reset, signing out everywhere and an administrator's end-sessions each revoke every token", async () => {
    const revokedBy = async (label: string, act: (s: Awaited<ReturnType<typeof setup>>) => Promise<void>) => {
      const s = await setup();
      const tokens = [await s.make(["read"]), await s.make(["read", "fills:write"])];
      for (const t of tokens) expect((await s.bearer(t.token).get("/api/accounts")).status, label).toBe(200);
      await act(s);
      for (const t of tokens) expect((await s.bearer(t.token).get("/api/accounts")).status, label).toBe(401);
      expect(rowsOf(await s.t.deps.db.execute(sql`select 1 from access_tokens where user_id = ${s.userId}::uuid`)), label).toHaveLength(0);
    };
    await revokedBy("password change", async (s) => {
      expect((await s.client.post("/api/auth/password", { currentPassword: PASSWORD, newPassword: "another good password" })).status).toBe(204);
    });
    await revokedBy("sign out everywhere", async (s) => {
      expect((await s.client.delete("/api/auth/sessions")).status).toBe(204);
      // This session stays.
      expect((await s.client.get("/api/auth/me")).status).toBe(200);
    });
    await revokedBy("reset", async (s) => {
      const token = await issueEmailToken(s.t.deps, s.userId, "reset_password");
      expect((await s.t.client().post("/api/auth/password-reset/confirm", { token, password: "another good password" })).status).toBe(204);
    });
    await revokedBy("administrator", async (s) => {
      const admin = await setup();
      await admin.t.deps.db.execute(sql`update users set is_admin = true where id = ${admin.userId}::uuid`);
      expect((await admin.client.delete(`/api/admin/users/${s.userId}/sessions`)).status).toBe(204);
    });
  });

  it("a read token cannot download the archive (403); the session can", async () => {
    const s = await setup();
    const reader = await s.make(["read", "import", "fills:write"]);
    const res = await s.bearer(reader.token).get("/api/archive");
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
    const own = await s.client.get("/api/archive");
    expect(own.status).toBe(200);
    await own.arrayBuffer();
  });

  it("every mounted route holds a token to the scope the API document lists; auth, token, key, billing, advisor and admin routes take none", async () => {
    const s = await setup();
    // An administrator's token is no more than its scopes.
    await s.t.deps.db.execute(sql`update users set is_admin = true where id = ${s.userId}::uuid`);
    const all = await s.make([...TOKEN_SCOPES]);
    const routes = apiRoutes(s.t.app).filter((r) => r.auth && !r.doc?.public);
    expect(routes.length).toBeGreaterThan(100);
    const byScope = new Map<TokenScope, string>();
    for (const scope of TOKEN_SCOPES) byScope.set(scope, (await s.make(TOKEN_SCOPES.filter((x) => x !== scope))).token);
    const seen = { read: 0, import: 0, "fills:write": 0, none: 0 };
    for (const route of routes) {
      const scope = routeScope(route.method, route.doc!);
      const path = route.path.replace(/:[A-Za-z]+/g, "00000000-0000-4000-8000-000000000000");
      const send = (token: string) => s.bearer(token).request(path, { method: route.method, ...(route.method === "GET" ? {} : { json: {} }) });
      const label = `${route.method} ${route.path}`;
      if (TOKEN_FREE_TAGS.has(route.doc!.tag) || TOKEN_FREE_ROUTES.has(label) || /key/.test(route.path) || route.auth === "admin") {
        expect(scope, label).toBeNull();
      }
      if (!scope) {
        seen.none++;
        expect((await send(all.token)).status, label).toBe(403);
        continue;
      }
      seen[scope]++;
      const without = await send(byScope.get(scope)!);
      expect(without.status, label).toBe(403);
      const withIt = await send(all.token);
      expect([401, 403], `${label} answered ${withIt.status}`).not.toContain(withIt.status);
    }
    expect(seen.read).toBeGreaterThan(40);
    expect(seen.import).toBe(4);
    expect(seen["fills:write"]).toBeGreaterThanOrEqual(3);
    expect(seen.none).toBeGreaterThan(40);
  });
});
