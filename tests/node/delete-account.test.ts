// Deleting one's own account (DELETE /api/auth/account): everything of the user goes, nobody else's, in one
// statement; the instance keeps an administrator. Real Postgres, a database of this file's own (admins are
// instance-wide).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, type TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";

let db: { name: string; url: string };
let t: TestApp;
beforeAll(async () => {
  db = await createMigratedDatabase("journal_delete_test");
  t = await testApp(db.url, {}, { peer: "per-request" });
});
afterAll(async () => {
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
