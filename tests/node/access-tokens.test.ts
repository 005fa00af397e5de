// Personal access tokens (DESIGN.md section 10; docs/auth.md "Personal access tokens"): made in Settings (shown
// once, stored hashed), listed with lastUsedAt, revoked at once, expired after their days; `Authorization:
// Bearer` authenticates without cookie or CSRF header; every mounted route holds a token to the scope the API
// document lists for it (a generated test over the route table), and auth, token, key, billing, advisor and
// admin routes take none. On the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { TOKEN_SCOPES, type TokenScope } from "../../lib/auth/tokens.ts";
import { apiRoutes } from "../../lib/http/openapi.ts";
import { routeScope } from "../../lib/http/route-docs.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, uniqueEmail, type TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function setup(now?: () => Date) {
  const t: TestApp = await testApp(url(), {}, { peer: "per-request", ...(now ? { now } : {}) });
  const client = t.client();
  const res = await client.post("/api/auth/register", { email: uniqueEmail("tokens"), password: PASSWORD });
  expect(res.status).toBe(201);
  const userId = ((await res.json()) as { user: { id: string } }).user.id;
  const make = async (scopes: TokenScope[], extra: Record<string, unknown> = {}) => {
    const made = await client.post("/api/auth/tokens", { name: `script ${scopes.join("+")}`, scopes, ...extra });
    expect(made.status).toBe(201);
    return (await made.json()) as { id: string; token: string; scopes: string[]; expiresAt: string | null };
  };
  /** A client that sends only the token: no cookie. */
  const bearer = (token: string): TestClient => {
    const c = t.client();
    c.headers = { Authorization: `Bearer ${token}` };
    return c;
  };
  return { t, client, userId, make, bearer };
}

describe("personal access tokens", () => {
  it("made once, stored hashed, listed without the token, used (lastUsedAt), revoked at once", async () => {
    const s = await setup();
    const made = await s.make(["read"]);
    expect(made.token).toMatch(/^tj_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: "script read", scopes: ["read"], expiresAt: null });
    const stored = rowsOf<{ token_hash: string }>(await s.t.deps.db.execute(sql`select token_hash from access_tokens where user_id = ${s.userId}::uuid`));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(made.token.slice(3, 20));

    const list = async () => ((await (await s.client.get("/api/auth/tokens")).json()) as { tokens: Array<Record<string, unknown>> }).tokens;
    const [before] = await list();
    expect(before).toEqual({ id: made.id, name: "script read", scopes: ["read"], createdAt: expect.any(String), expiresAt: null, lastUsedAt: null });
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
    const bad = async (body: unknown, path: string) => {
      const res = await s.client.post("/api/auth/tokens", body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Array<{ path: string }> } }).error.fields.map((f) => f.path)).toContain(path);
    };
    await bad({ name: "", scopes: ["read"] }, "name");
    await bad({ name: "x", scopes: [] }, "scopes");
    await bad({ name: "x", scopes: ["admin"] }, "scopes.0");
    await bad({ name: "x", scopes: ["read"], expiresInDays: 0 }, "expiresInDays");
    await bad({ name: "x", scopes: ["read"], expiresInDays: 1.5 }, "expiresInDays");
    expect(rowsOf(await s.t.deps.db.execute(sql`select 1 from access_tokens where user_id = ${s.userId}::uuid`))).toHaveLength(0);
    // The same scope twice counts once.
    expect((await s.make(["read", "read"])).scopes).toEqual(["read"]);
    await Promise.all(Array.from({ length: 25 }, (_, i) => s.client.post("/api/auth/tokens", { name: `t${i}`, scopes: ["read"] })));
    expect(rowsOf(await s.t.deps.db.execute(sql`select 1 from access_tokens where user_id = ${s.userId}::uuid`))).toHaveLength(20);
    const over = await s.client.post("/api/auth/tokens", { name: "one more", scopes: ["read"] });
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
      if (route.doc!.tag === "auth" || route.doc!.tag === "passkeys" || route.doc!.tag === "advisor" || route.doc!.tag === "billing" || route.doc!.tag === "admin" || /key/.test(route.path) || route.auth === "admin") {
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
