// The ledger page and the dashboard's statistics (summary, calendar, equity curve, breakdown) check the session
// inside their own first statement (SESSION_CTE), not through requireUser. These tests hold each of them to the
// same rules as every other authed route: 401 for a missing, tampered, expired, ended or revoked session (before
// any 400 or 404), expired sessions deleted on sight, the idle expiry sliding.
import { createHmac } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { sessions } from "../../lib/db/schema.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, TestClient, uniqueEmail } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function signUp(t: TestApp, email = uniqueEmail("statement-sec")) {
  const client = t.client();
  const res = await client.post("/api/auth/register", { email, password: PASSWORD });
  expect(res.status).toBe(201);
  const userId: string = (await res.json()).user.id;
  const accountId = rowsOf<{ id: string }>(
    await t.deps.db.execute(
      sql`select id::text as id from account_create(${userId}, ${`Acct ${crypto.randomUUID()}`}, 'USD', '10'::numeric, 'America/New_York', null, null)`,
    ),
  )[0]!.id;
  return { client, userId, accountId, email };
}

const sessionsOf = (t: TestApp, userId: string) => t.deps.db.select().from(sessions).where(eq(sessions.userId, userId));

/**
 * A statement-checked read: `ok` answers 200 for the account's owner; `asking` lists every way of asking (other
 * pages or ranges, malformed ids and queries, a missing account), all 401 without a live session; `bad` are
 * 400 with one; `other` reads another user's account (404, as a missing one).
 */
type Read = { name: string; ok: (id: string) => string; asking: (id: string) => string[]; bad: (id: string) => string[]; other: (id: string) => string };

const stats = (path: string, extra: string, malformed: string): Read => ({
  name: `GET /api/stats/${path}`,
  ok: (id) => `/api/stats/${path}?accountId=${id}${extra}`,
  asking: (id) => [
    `/api/stats/${path}?accountId=${id}${extra}`,
    `/api/stats/${path}?accountId=${id}${extra}&from=2024-01-01T00:00:00Z&to=2024-02-01T00:00:00Z`,
    `/api/stats/${path}?accountId=not-a-uuid${extra}`,
    `/api/stats/${path}?accountId=${id}${malformed}`,
    `/api/stats/${path}?accountId=${id}&currency=USD${extra}`,
    `/api/stats/${path}?accountId=${crypto.randomUUID()}${extra}`,
    `/api/stats/${path}?currency=USD${extra}`,
  ],
  bad: (id) => [`/api/stats/${path}?accountId=not-a-uuid${extra}`, `/api/stats/${path}?accountId=${id}${malformed}`, `/api/stats/${path}?accountId=${id}&currency=USD${extra}`],
  other: (id) => `/api/stats/${path}?accountId=${id}${extra}`,
});

const READS: Read[] = [
  {
    name: "GET /api/ledger/:accountId",
    ok: (id) => `/api/ledger/${id}`,
    asking: (id) => [`/api/ledger/${id}`, `/api/ledger/${id}?page=3&pageSize=7`, "/api/ledger/not-a-uuid", `/api/ledger/${id}?page=0`, `/api/ledger/${crypto.randomUUID()}`],
    bad: (id) => ["/api/ledger/not-a-uuid", `/api/ledger/${id}?pageSize=201`],
    other: (id) => `/api/ledger/${id}?page=2`,
  },
  stats("summary", "", "&from=yesterday"),
  stats("calendar", "", "&to=2024-13-01T00:00:00Z"),
  stats("equity", "&bucket=week", "&bucket=year"),
  stats("breakdown", "&by=symbol", "&by=mood"),
  stats("breakdown", "&by=rules", "&by=rules&from=x"),
];

/** Every way of asking: all must be 401. */
async function expectUnauthorizedEverywhere(read: Read, client: TestClient, accountId: string) {
  for (const path of read.asking(accountId)) {
    const res = await client.get(path);
    expect([path, res.status]).toEqual([path, 401]);
    expect((await res.json()).error.code).toBe("UNAUTHORIZED");
  }
}

describe.each(READS)("$name: the session check in the read's statement", (read) => {
  it("answers 401 without a session, before validating the path or finding the account", async () => {
    const t = await testApp(url());
    const { accountId } = await signUp(t);
    await expectUnauthorizedEverywhere(read, t.client(), accountId);
  });

  it("answers 401 for a tampered cookie and for a correctly signed token with the wrong secret", async () => {
    const t = await testApp(url());
    const { client, accountId } = await signUp(t);
    const value = decodeURIComponent(client.cookies.get("journal_session")!);
    const token = value.slice(0, value.lastIndexOf("."));
    const tampered = new TestClient(t.app);
    tampered.cookies.set("journal_session", encodeURIComponent(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}.${value.slice(value.lastIndexOf(".") + 1)}`));
    await expectUnauthorizedEverywhere(read, tampered, accountId);
    // Signed with the real secret, so only the session's secret hash can refuse it.
    const [id] = token.split(".");
    const forged = `${id}.${"x".repeat(43)}`;
    const wrongSecret = new TestClient(t.app);
    wrongSecret.cookies.set("journal_session", encodeURIComponent(`${forged}.${createHmac("sha256", t.config.SESSION_SECRET).update(forged).digest("base64")}`));
    await expectUnauthorizedEverywhere(read, wrongSecret, accountId);
    expect((await client.get(read.ok(accountId))).status).toBe(200);
  });

  it("answers 401 for an idle-expired session and deletes it; 401 past the absolute expiry", async () => {
    const t = await testApp(url());
    const idle = await signUp(t);
    await t.deps.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, idle.userId));
    const res = await idle.client.get(read.ok(idle.accountId));
    expect(res.status).toBe(401);
    expect(await sessionsOf(t, idle.userId)).toHaveLength(0);

    const absolute = await signUp(t);
    await t.deps.db.update(sessions).set({ absoluteExpiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, absolute.userId));
    await expectUnauthorizedEverywhere(read, absolute.client, absolute.accountId);
  });

  it("stops answering the moment the session is ended: logout, revocation from another session, password change", async () => {
    const t = await testApp(url());
    const { client, accountId, email } = await signUp(t);
    const copy = client.clone();
    expect((await copy.get(read.ok(accountId))).status).toBe(200);
    expect((await client.post("/api/auth/logout")).status).toBe(204);
    await expectUnauthorizedEverywhere(read, copy, accountId);

    const phone = t.client();
    expect((await phone.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    const laptop = t.client();
    expect((await laptop.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    expect((await phone.get(read.ok(accountId))).status).toBe(200);
    const { sessions: list } = await (await laptop.get("/api/auth/sessions")).json();
    const phoneSession = list.find((s: { current: boolean }) => !s.current);
    expect((await laptop.delete(`/api/auth/sessions/${phoneSession.id}`)).status).toBe(204);
    await expectUnauthorizedEverywhere(read, phone, accountId);

    const tablet = t.client();
    expect((await tablet.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    expect((await laptop.post("/api/auth/password", { currentPassword: PASSWORD, newPassword: `${PASSWORD}-2` })).status).toBe(204);
    await expectUnauthorizedEverywhere(read, tablet, accountId);
    expect((await laptop.get(read.ok(accountId))).status).toBe(200);
  });

  it("slides the idle expiry forward when the page is read after the touch interval, never past the absolute expiry", async () => {
    const t = await testApp(url());
    const { client, userId, accountId } = await signUp(t);
    const old = new Date(Date.now() - 2 * 3600 * 1000);
    await t.deps.db.update(sessions).set({ lastSeenAt: old, expiresAt: new Date(Date.now() + 60_000) }).where(eq(sessions.userId, userId));
    expect((await client.get(read.ok(accountId))).status).toBe(200);
    const [slid] = await sessionsOf(t, userId);
    expect(slid!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(slid!.lastSeenAt.getTime()).toBeGreaterThan(old.getTime());

    const absolute = new Date(Date.now() + 3600 * 1000);
    await t.deps.db.update(sessions).set({ lastSeenAt: old, absoluteExpiresAt: absolute }).where(eq(sessions.userId, userId));
    expect((await client.get(read.ok(accountId))).status).toBe(200);
    const [capped] = await sessionsOf(t, userId);
    expect(capped!.expiresAt.getTime()).toBe(absolute.getTime());

    // Within the interval nothing is written.
    const recent = new Date(Date.now() - 60_000);
    await t.deps.db.update(sessions).set({ lastSeenAt: recent }).where(eq(sessions.userId, userId));
    expect((await client.get(read.ok(accountId))).status).toBe(200);
    expect((await sessionsOf(t, userId))[0]!.lastSeenAt.getTime()).toBe(recent.getTime());
  });

  it("with a live session: another user's account and a missing one are the same 404, a malformed query is 400", async () => {
    const t = await testApp(url());
    const alice = await signUp(t);
    const bob = await signUp(t);
    const other = await alice.client.get(read.other(bob.accountId));
    const missing = await alice.client.get(read.other(crypto.randomUUID()));
    expect([other.status, missing.status]).toEqual([404, 404]);
    const strip = (b: { error: { requestId?: string } }) => ({ ...b.error, requestId: undefined });
    expect(strip(await other.json())).toEqual(strip(await missing.json()));
    for (const path of read.bad(alice.accountId)) expect([path, (await alice.client.get(path)).status]).toEqual([path, 400]);
    expect((await alice.client.get(read.ok(alice.accountId))).status).toBe(200);
  });
});
