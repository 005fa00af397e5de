// The admin console's API (DESIGN.md section 9, "Admin"), on the real Postgres: a database of this file's own,
// since "the last admin" is instance-wide.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { runCliProcess } from "../support/cli.ts";
import type { TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";

let db: { name: string; url: string };
let t: TestApp;

beforeAll(async () => {
  db = await createMigratedDatabase("journal_admin_test");
  t = await testApp(db.url, {}, { peer: "per-request" });
});
afterAll(async () => {
  if (db) await dropDatabase(db.name);
});

async function makeAdmin(userId: string) {
  await t.deps.db.execute(sql`update users set is_admin = true where id = ${userId}`);
}
async function adminCount(): Promise<number> {
  return rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from users where is_admin`))[0]!.n;
}
async function auditOf(targetUserId: string) {
  return rowsOf<{ action: string; actor_id: string; reason: string | null; details: unknown }>(
    await t.deps.db.execute(sql`select action, actor_id::text as actor_id, reason, details from admin_audit where target_user_id = ${targetUserId} order by at, id`),
  );
}
async function anAdmin(tag = "admin"): Promise<{ client: TestClient; userId: string }> {
  const a = await signUp(t, tag);
  await makeAdmin(a.userId);
  return a;
}
const patch = (client: TestClient, id: string, json: unknown) => client.request(`/api/admin/users/${id}`, { method: "PATCH", json });

describe("who may use /api/admin", () => {
  it("every admin route: 401 without a session, 403 FORBIDDEN for a signed-in non-admin", async () => {
    // The setup link's claim makes the first admin: any signed-in user may try it (tests/node/setup-link.test.ts).
    const routes = t.app.routes.filter((r) => r.path.startsWith("/api/admin/") && r.method !== "ALL" && r.path !== "/api/admin/setup").map((r) => [r.method, r.path] as const);
    const unique = [...new Map(routes.map((r) => [r.join(" "), r])).values()];
    expect(unique.length).toBe(7);
    const { client: trader } = await signUp(t, "not-admin");
    const anonymous = t.client();
    const id = crypto.randomUUID();
    for (const [method, path] of unique) {
      const url = path.replace(":id", id);
      const init = { method, ...(method === "GET" || method === "DELETE" ? {} : { json: { isAdmin: true, amount: 5, reason: "x" } }) };
      const a = await anonymous.request(url, init);
      expect([`${method} ${path}`, a.status]).toEqual([`${method} ${path}`, 401]);
      const b = await trader.request(url, init);
      expect([`${method} ${path}`, b.status, (await b.json()).error.code]).toEqual([`${method} ${path}`, 403, "FORBIDDEN"]);
    }
  });
});

describe("users", () => {
  it("lists newest first with plan, admin flag, last seen, account and fill counts; searches an email prefix; pages by cursor", async () => {
    const { client: admin } = await anAdmin();
    const tag = `lst${Date.now().toString(36)}`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await signUp(t, `${tag}-${i}`)).userId);
    // The newest one trades.
    const trader = await signUp(t, `${tag}-5`);
    made.push(trader.userId);
    const account = await (await trader.client.post("/api/accounts", { name: "A", currency: "USD", startingBalance: "100" })).json();
    await trader.client.post("/api/fills", { accountId: account.id, symbol: "AAPL", side: "buy", quantity: "1", price: "10", executedAt: "2026-03-02T15:00:00Z" });

    const first = await (await admin.get(`/api/admin/users?q=${tag.toUpperCase()}&limit=4`)).json();
    expect(first.users.map((u: { id: string }) => u.id)).toEqual(made.slice(-4).reverse());
    expect(first.users[0]).toEqual({
      id: trader.userId,
      email: expect.stringContaining(tag),
      isAdmin: false,
      plan: "free",
      emailVerified: false,
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
      accounts: 1,
      fills: 1,
      trades: 1,
    });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (await admin.get(`/api/admin/users?q=${tag}&limit=4&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    expect(second.users.map((u: { id: string }) => u.id)).toEqual(made.slice(0, 2).reverse());
    expect(second.nextCursor).toBeNull();
    // "%" and "_" are not wildcards.
    expect((await (await admin.get(`/api/admin/users?q=${encodeURIComponent("%")}`)).json()).users).toEqual([]);
    for (const bad of ["cursor=nope", "limit=0", "limit=101", "q="]) {
      const res = await admin.get(`/api/admin/users?${bad}`);
      expect([bad, res.status, (await res.json()).error.code]).toEqual([bad, 400, "VALIDATION_ERROR"]);
    }
  });

  it("one user: the list's fields plus trades, sessions and wallet; 404 for an unknown id, 400 for a malformed one", async () => {
    const { client: admin } = await anAdmin();
    const { userId } = await signUp(t, "one");
    const res = await admin.get(`/api/admin/users/${userId}`);
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ id: userId, trades: 0, sessions: 1, wallet: { balance: 0, reserved: 0, available: 0 } });
    const missing = await admin.get(`/api/admin/users/${crypto.randomUUID()}`);
    expect([missing.status, (await missing.json()).error.code]).toEqual([404, "NOT_FOUND"]);
    expect((await admin.get("/api/admin/users/not-a-uuid")).status).toBe(400);
  });

  it("promote and demote, audited with the reason; a plan override is audited with from and to", async () => {
    const { client: admin, userId: adminId } = await anAdmin();
    const { userId } = await signUp(t, "target");
    const up = await patch(admin, userId, { isAdmin: true, reason: "new operator" });
    expect(up.status).toBe(200);
    expect((await up.json()).user).toMatchObject({ id: userId, isAdmin: true });
    const down = await patch(admin, userId, { isAdmin: false, plan: "pro" });
    expect((await down.json()).user).toMatchObject({ isAdmin: false, plan: "pro" });
    // No change, no entry.
    await patch(admin, userId, { plan: "pro" });
    expect(await auditOf(userId)).toEqual([
      { action: "promote", actor_id: adminId, reason: "new operator", details: {} },
      { action: "demote", actor_id: adminId, reason: null, details: {} },
      { action: "set_plan", actor_id: adminId, reason: null, details: { from: "free", to: "pro" } },
    ]);
    for (const body of [{}, { reason: "only" }, { isAdmin: "yes" }, { plan: "gold" }, { isAdmin: true, extra: 1 }, { isAdmin: true, reason: "" }]) {
      const res = await patch(admin, userId, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await patch(admin, crypto.randomUUID(), { isAdmin: true })).status).toBe(404);
  });

  it("the last admin cannot be demoted (409 LAST_ADMIN); two admins demoting each other at once leave exactly one", async () => {
    // Only these two are admins here.
    await t.deps.db.execute(sql`update users set is_admin = false`);
    const a = await anAdmin("duel-a");
    const b = await anAdmin("duel-b");
    for (let round = 0; round < 5; round++) {
      await t.deps.db.execute(sql`update users set is_admin = (id in (${a.userId}, ${b.userId}))`);
      const before = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from admin_audit where action = 'demote'`))[0]!.n;
      const [x, y] = await Promise.all([patch(a.client, b.userId, { isAdmin: false }), patch(b.client, a.userId, { isAdmin: false })]);
      const statuses = [x.status, y.status].sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      expect(await adminCount()).toBe(1);
      const after = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from admin_audit where action = 'demote'`))[0]!.n;
      expect(after - before).toBe(1);
    }
    // The one left cannot demote themselves.
    const [{ id: last }] = rowsOf<{ id: string }>(await t.deps.db.execute(sql`select id::text as id from users where is_admin`)) as [{ id: string }];
    const client = last === a.userId ? a.client : b.client;
    const res = await patch(client, last, { isAdmin: false });
    expect([res.status, (await res.json()).error.code]).toEqual([409, "LAST_ADMIN"]);
    expect(await adminCount()).toBe(1);
  });

  it("an audit entry that cannot be written undoes the action with it (one statement)", async () => {
    const { client: admin } = await anAdmin();
    const { userId } = await signUp(t, "atomic");
    await t.deps.db.execute(sql`alter table admin_audit add constraint test_refuse_reason check (reason is distinct from 'REFUSE')`);
    try {
      const res = await patch(admin, userId, { isAdmin: true, plan: "pro", reason: "REFUSE" });
      expect(res.status).toBe(500);
      const grant = await admin.post(`/api/admin/users/${userId}/credits`, { amount: 50, reason: "REFUSE" });
      expect(grant.status).toBe(500);
    } finally {
      await t.deps.db.execute(sql`alter table admin_audit drop constraint test_refuse_reason`);
    }
    const [row] = rowsOf<{ is_admin: boolean; plan: string }>(await t.deps.db.execute(sql`select is_admin, plan from users where id = ${userId}`));
    expect(row).toEqual({ is_admin: false, plan: "free" });
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from wallet_movements where user_id = ${userId}`))).toEqual([]);
    expect(await auditOf(userId)).toEqual([]);
  });
});

describe("credits", () => {
  it("a grant shows in the user's own wallet history; a debit past what is available is refused and writes nothing", async () => {
    const { client: admin, userId: adminId } = await anAdmin();
    const target = await signUp(t, "credits");
    const granted = await admin.post(`/api/admin/users/${target.userId}/credits`, { amount: 120, reason: "goodwill for outage #12" });
    expect(granted.status).toBe(201);
    expect((await granted.json()).movement).toMatchObject({ kind: "admin_grant", amount: 120, balanceAfter: 120, reference: "goodwill for outage #12" });
    const history = await (await target.client.get("/api/billing/transactions")).json();
    expect(history.transactions[0]).toMatchObject({ kind: "admin_grant", amount: 120, balanceAfter: 120, reference: "goodwill for outage #12" });
    expect(await (await target.client.get("/api/billing/wallet")).json()).toEqual({ balance: 120, reserved: 0, available: 120 });

    const debit = await admin.post(`/api/admin/users/${target.userId}/credits`, { amount: -20, reason: "mistake" });
    expect((await debit.json()).movement).toMatchObject({ amount: -20, balanceAfter: 100 });
    const tooMuch = await admin.post(`/api/admin/users/${target.userId}/credits`, { amount: -101, reason: "too much" });
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).error.message).toContain("only 100 credits available");
    expect(await (await target.client.get("/api/billing/wallet")).json()).toEqual({ balance: 100, reserved: 0, available: 100 });
    const entries = await auditOf(target.userId);
    expect(entries.map((e) => [e.action, e.actor_id, e.reason, (e.details as { amount: number }).amount])).toEqual([
      ["credit_grant", adminId, "goodwill for outage #12", 120],
      ["credit_grant", adminId, "mistake", -20],
    ]);
    for (const body of [{ amount: 5 }, { amount: 5, reason: " " }, { amount: 0, reason: "x" }, { amount: 1.5, reason: "x" }, { amount: "5", reason: "x" }]) {
      const res = await admin.post(`/api/admin/users/${target.userId}/credits`, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await admin.post(`/api/admin/users/${crypto.randomUUID()}/credits`, { amount: 5, reason: "x" })).status).toBe(404);
  });
});

describe("sessions", () => {
  it("ends every session of a user, audited; their cookie stops working", async () => {
    const { client: admin } = await anAdmin();
    const target = await signUp(t, "sessions");
    const res = await admin.delete(`/api/admin/users/${target.userId}/sessions?reason=${encodeURIComponent("lost laptop")}`);
    expect(res.status).toBe(204);
    expect((await target.client.get("/api/auth/me")).status).toBe(401);
    expect(await auditOf(target.userId)).toEqual([{ action: "end_sessions", actor_id: expect.any(String), reason: "lost laptop", details: { sessions: 1 } }]);
    expect((await admin.delete(`/api/admin/users/${crypto.randomUUID()}/sessions`)).status).toBe(404);
  });
});

describe("statistics and the audit log", () => {
  it("counts the instance and the advisor in a period", async () => {
    const { client: admin } = await anAdmin();
    const before = await (await admin.get("/api/admin/stats")).json();
    const trader = await signUp(t, "stats");
    const account = await (await trader.client.post("/api/accounts", { name: "S", currency: "USD", startingBalance: "0" })).json();
    await trader.client.post("/api/fills", { accountId: account.id, symbol: "MSFT", side: "buy", quantity: "1", price: "10", executedAt: "2026-03-02T15:00:00Z" });
    const after = await (await admin.get("/api/admin/stats")).json();
    expect(after.users.total - before.users.total).toBe(1);
    expect(after.users.active7Days - before.users.active7Days).toBe(1);
    expect(after.accounts - before.accounts).toBe(1);
    expect(after.fills - before.fills).toBe(1);
    expect(after.advisor).toMatchObject({ turns: 0, creditsCharged: 0 });
    const period = await admin.get("/api/admin/stats?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z");
    expect((await period.json()).advisor).toEqual({ from: "2020-01-01T00:00:00.000Z", to: "2020-02-01T00:00:00.000Z", turns: 0, creditsCharged: 0 });
    expect((await admin.get("/api/admin/stats?from=2020-02-01T00:00:00Z&to=2020-01-01T00:00:00Z")).status).toBe(400);
  });

  it("GET /api/admin/audit pages newest first and filters by user", async () => {
    const { client: admin } = await anAdmin();
    const { userId } = await signUp(t, "audited");
    for (const plan of ["pro", "free", "pro"]) await patch(admin, userId, { plan, reason: `to ${plan}` });
    const first = await (await admin.get(`/api/admin/audit?targetUserId=${userId}&limit=2`)).json();
    expect(first.entries.map((e: { reason: string }) => e.reason)).toEqual(["to pro", "to free"]);
    expect(first.entries[0]).toEqual({
      id: expect.any(String),
      actorId: expect.any(String),
      actorEmail: expect.stringContaining("admin"),
      action: "set_plan",
      targetUserId: userId,
      targetEmail: expect.stringContaining("audited"),
      reason: "to pro",
      details: { from: "free", to: "pro" },
      at: expect.any(String),
    });
    const second = await (await admin.get(`/api/admin/audit?targetUserId=${userId}&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    expect(second.entries.map((e: { reason: string }) => e.reason)).toEqual(["to pro"]);
    expect(second.nextCursor).toBeNull();
  });
});

describe("the CLI", () => {
  it("list-admins prints every administrator's email", async () => {
    const a = await anAdmin("cli-listed");
    const email = rowsOf<{ email: string }>(await t.deps.db.execute(sql`select email from users where id = ${a.userId}`))[0]!.email;
    const out = await runCliProcess(db.url, ["list-admins"]);
    expect(out.code).toBe(0);
    expect(out.out).toContain(email);
    const lines = out.out.trim().split("\n");
    expect(lines.length).toBe(await adminCount());
  });
});
