// Deleting one's own account (DELETE /api/auth/account): everything of the user goes, nobody else's, in one
// statement; the instance keeps an administrator. Real Postgres, a database of this file's own (admins are
// instance-wide).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, type TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { billingEnv, signedEvent, startPaymentServer, type PaymentServer } from "../support/payment-server.ts";

let db: { name: string; url: string };
let t: TestApp;
let stand: PaymentServer;
/** The same instance with its payment provider configured (the stand-in). */
let billed: TestApp;
beforeAll(async () => {
  db = await createMigratedDatabase("journal_delete_test");
  t = await testApp(db.url, {}, { peer: "per-request" });
  stand = await startPaymentServer();
  billed = await testApp(db.url, billingEnv(stand), { peer: "per-request" });
});
afterAll(async () => {
  await stand?.close();
  if (db) await dropDatabase(db.name);
});

const CONFIRM = "delete my account";
const remove = (client: TestClient, body: unknown) => client.request("/api/auth/account", { method: "DELETE", json: body });
const count = async (table: string, userId: string) =>
  rowsOf<{ n: number }>(await t.deps.db.execute(sql.raw(`select count(*)::int as n from ${table} where user_id = '${userId}'`)))[0]!.n;

async function traderWithData(tag: string) {
  const { client, userId } = await signUp(t, tag);
  const account = await (await client.post("/api/accounts", { name: "Main", currency: "USD", startingBalance: "1000" })).json();
  await client.post("/api/brokerages", { name: "Broker" });
  await client.post("/api/fills", { accountId: account.id, symbol: "AAPL", side: "buy", quantity: "2", price: "100", executedAt: "2026-03-02T15:00:00Z" });
  await client.post(`/api/ledger/${account.id}/entries`, { type: "deposit", amount: "50" });
  return { client, userId, accountId: account.id as string, email: (await (await client.get("/api/auth/me")).json()).user.email as string };
}

describe("DELETE /api/auth/account", () => {
  it("needs the password and the typed confirmation; a refusal deletes nothing", async () => {
    const me = await traderWithData("keep");
    for (const body of [{ password: "wrong password", confirm: CONFIRM }, { password: PASSWORD }, { password: PASSWORD, confirm: "yes" }, {}]) {
      const res = await remove(me.client, body);
      expect([JSON.stringify(body), res.status, (await res.json()).error.code]).toEqual([JSON.stringify(body), 400, "VALIDATION_ERROR"]);
    }
    expect(await count("accounts", me.userId)).toBe(1);
    expect((await me.client.get("/api/auth/me")).status).toBe(200);
    expect((await t.client().request("/api/auth/account", { method: "DELETE", json: { password: PASSWORD, confirm: CONFIRM } })).status).toBe(401);
  });

  it("deletes the user and everything of theirs, ends every session, and leaves other users alone", async () => {
    const me = await traderWithData("leaving");
    const other = await traderWithData("staying");
    const secondTab = await t.client().post("/api/auth/login", { email: me.email, password: PASSWORD });
    expect(secondTab.status).toBe(200);
    const res = await remove(me.client, { password: PASSWORD, confirm: CONFIRM });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().join(";")).toMatch(/journal_session=;|Max-Age=0/i);
    for (const table of ["accounts", "brokerages", "sessions"]) expect([table, await count(table, me.userId)]).toEqual([table, 0]);
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from users where id = ${me.userId}`))).toEqual([]);
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from fills where account_id = ${me.accountId}`))).toEqual([]);
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from ledger_entries where account_id = ${me.accountId}`))).toEqual([]);
    expect((await me.client.get("/api/auth/me")).status).toBe(401);
    expect((await t.client().post("/api/auth/login", { email: me.email, password: PASSWORD })).status).toBe(401);
    // The other trader keeps everything.
    expect(await count("accounts", other.userId)).toBe(1);
    expect((await (await other.client.get(`/api/fills?accountId=${other.accountId}`)).json()).fills).toHaveLength(1);
  });

  it("the only administrator cannot leave (409 LAST_ADMIN); two admins leaving at once leave one", async () => {
    await t.deps.db.execute(sql`update users set is_admin = false`);
    const a = await signUp(t, "admin-a");
    const b = await signUp(t, "admin-b");
    await t.deps.db.execute(sql`update users set is_admin = true where id in (${a.userId}, ${b.userId})`);
    const [x, y] = await Promise.all([remove(a.client, { password: PASSWORD, confirm: CONFIRM }), remove(b.client, { password: PASSWORD, confirm: CONFIRM })]);
    expect([x.status, y.status].sort()).toEqual([204, 409]);
    const left = rowsOf<{ id: string }>(await t.deps.db.execute(sql`select id::text as id from users where is_admin`));
    expect(left).toHaveLength(1);
    const survivor = left[0]!.id === a.userId ? a.client : b.client;
    const again = await remove(survivor, { password: PASSWORD, confirm: CONFIRM });
    expect([again.status, (await again.json()).error.code]).toEqual([409, "LAST_ADMIN"]);
  });
});

describe("DELETE /api/auth/account with a Pro subscription", () => {
  /** A user on Pro, as the provider's webhook made them: `status` is the subscription's. */
  async function proTrader(tag: string, status = "active", id = `sub_${tag}_${crypto.randomUUID().slice(0, 8)}`) {
    const { client, userId } = await signUp(billed, tag);
    const event = await signedEvent("customer.subscription.created", { id, object: "subscription", customer: "cus_x", status, metadata: { userId } });
    const res = await billed.client().request("/api/billing/webhook", { method: "POST", body: event.body, headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature } });
    expect(res.status).toBe(200);
    return { client, userId, subscriptionId: id };
  }
  const cancels = (id: string) => stand.requests.filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${id}`);
  const exists = async (userId: string) => rowsOf(await billed.deps.db.execute(sql`select 1 from users where id = ${userId}`)).length === 1;

  it("cancels it at the payment provider, then deletes the account; the provider's later events change nothing", async () => {
    const me = await proTrader("pro-leaving");
    const res = await remove(me.client, { password: PASSWORD, confirm: CONFIRM });
    expect(res.status).toBe(204);
    expect(cancels(me.subscriptionId)).toHaveLength(1);
    expect(cancels(me.subscriptionId)[0]!.idempotencyKey).toBe(`cancel-${me.subscriptionId}`);
    expect(await exists(me.userId)).toBe(false);
    // The provider then says the subscription ended: accepted, and nothing comes back.
    const ended = await signedEvent("customer.subscription.deleted", { id: me.subscriptionId, object: "subscription", customer: "cus_x", status: "canceled", metadata: { userId: me.userId } });
    const late = await billed.client().request("/api/billing/webhook", { method: "POST", body: ended.body, headers: { "Content-Type": "application/json", "Stripe-Signature": ended.signature } });
    expect(late.status).toBe(200);
    expect(await exists(me.userId)).toBe(false);
    expect(await count("subscriptions", me.userId)).toBe(0);
  });

  it("a provider that fails: 502, nothing deleted; the retry cancels once more (same idempotency key) and deletes", async () => {
    const me = await proTrader("pro-fault");
    stand.fail = 500;
    try {
      const res = await remove(me.client, { password: PASSWORD, confirm: CONFIRM });
      expect(res.status).toBe(502);
      expect((await res.json()).error.code).toBe("PAYMENT_PROVIDER_ERROR");
    } finally {
      stand.fail = null;
    }
    expect(await exists(me.userId)).toBe(true);
    expect(await count("subscriptions", me.userId)).toBe(1);
    expect((await me.client.get("/api/auth/me")).status).toBe(200);
    expect((await remove(me.client, { password: PASSWORD, confirm: CONFIRM })).status).toBe(204);
    expect(new Set(cancels(me.subscriptionId).map((r) => r.idempotencyKey))).toEqual(new Set([`cancel-${me.subscriptionId}`]));
    expect(await exists(me.userId)).toBe(false);
  });

  it("an ended subscription is not touched; one the provider no longer knows counts as cancelled", async () => {
    const ended = await proTrader("pro-ended", "canceled");
    expect((await remove(ended.client, { password: PASSWORD, confirm: CONFIRM })).status).toBe(204);
    expect(cancels(ended.subscriptionId)).toHaveLength(0);
    const gone = await proTrader("pro-gone", "active", `sub_gone_${crypto.randomUUID().slice(0, 8)}`);
    expect((await remove(gone.client, { password: PASSWORD, confirm: CONFIRM })).status).toBe(204);
    expect(cancels(gone.subscriptionId)).toHaveLength(1);
    expect(await exists(gone.userId)).toBe(false);
  });

  it("an instance whose provider is no longer configured cannot cancel it: 402, and the account stays", async () => {
    const me = await proTrader("pro-unconfigured");
    const signedIn = t.client();
    expect((await signedIn.post("/api/auth/login", { email: (await (await me.client.get("/api/auth/me")).json()).user.email, password: PASSWORD })).status).toBe(200);
    const res = await remove(signedIn, { password: PASSWORD, confirm: CONFIRM });
    expect(res.status).toBe(402);
    expect((await res.json()).error).toMatchObject({ code: "BILLING_NOT_AVAILABLE", message: expect.stringContaining("was not deleted") });
    expect(await exists(me.userId)).toBe(true);
    expect(cancels(me.subscriptionId)).toHaveLength(0);
  });

  it("the only administrator is refused before anything is cancelled", async () => {
    await billed.deps.db.execute(sql`update users set is_admin = false`);
    const me = await proTrader("pro-admin");
    await billed.deps.db.execute(sql`update users set is_admin = true where id = ${me.userId}`);
    const res = await remove(me.client, { password: PASSWORD, confirm: CONFIRM });
    expect([res.status, (await res.json()).error.code]).toEqual([409, "LAST_ADMIN"]);
    expect(cancels(me.subscriptionId)).toHaveLength(0);
    expect(await exists(me.userId)).toBe(true);
  });
});
