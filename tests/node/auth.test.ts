import { desc, eq, inArray } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { dummyHash, hashPassword, hashPasswordScrypt, needsRehash, verifyPassword } from "../../lib/auth/password.ts";
import { sessions, users } from "../../lib/db/schema.ts";
import { PASSWORD, TestClient, uniqueEmail } from "../support/client.ts";
import { testApp, type TestApp } from "../support/app.ts";

const url = () => inject("databaseUrl");

async function signUp(t: TestApp, email = uniqueEmail(), password = PASSWORD) {
  const client = t.client();
  const res = await client.post("/api/auth/register", { email, password });
  expect(res.status).toBe(201);
  const { user } = await res.json();
  return { client, user, email, password };
}

async function sessionsOf(t: TestApp, userId: string) {
  return t.deps.db.select().from(sessions).where(eq(sessions.userId, userId));
}

describe("POST /api/auth/register", () => {
  it("creates the user (lowercase email, unverified), signs them in with an HttpOnly Lax cookie", async () => {
    const t = await testApp(url());
    const client = t.client();
    const email = uniqueEmail("Mixed").replace("mixed", "MiXeD");
    const res = await client.post("/api/auth/register", { email: `  ${email}  `, password: PASSWORD });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ user: { id: expect.any(String), email: email.toLowerCase(), emailVerified: false, isAdmin: false } });
    const cookie = res.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/^journal_session=[^;]+; .*HttpOnly/m);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, body.user.id));
    expect(row!.email).toBe(email.toLowerCase());
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });

  it("refuses an address already registered, whatever its case, with 409 and writes nothing", async () => {
    const t = await testApp(url());
    const { email } = await signUp(t);
    const res = await t.client().post("/api/auth/register", { email: email.toUpperCase(), password: "another password" });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("CONFLICT");
    expect(res.headers.getSetCookie()).toEqual([]);
    const rows = await t.deps.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it.each([
    ["a short password", { email: "x@example.com", password: "1234567" }, "password"],
    ["a 73-character password", { email: "x@example.com", password: "a".repeat(73) }, "password"],
    ["a bad email", { email: "not-an-email", password: PASSWORD }, "email"],
    ["a missing password", { email: "x@example.com" }, "password"],
  ])("refuses %s with VALIDATION_ERROR naming the field", async (_name, body, field) => {
    const t = await testApp(url());
    const res = await t.client().post("/api/auth/register", body);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.fields.map((f: { path: string }) => f.path)).toContain(field);
  });

  it("accepts 72 multibyte characters (144 bytes) and never truncates", async () => {
    const t = await testApp(url());
    const long = "é".repeat(72);
    const { email } = await signUp(t, uniqueEmail(), long);
    const wrongLast = "é".repeat(71) + "e";
    const res = await t.client().post("/api/auth/login", { email, password: wrongLast });
    expect(res.status).toBe(401);
    expect((await t.client().post("/api/auth/login", { email, password: long })).status).toBe(200);
  });

  it("tells apart passwords that share their first 72 bytes (where bcrypt would not)", async () => {
    const t = await testApp(url());
    const a = "é".repeat(36) + "alpha"; // the first 72 bytes are the 36 "é"
    const b = "é".repeat(36) + "bravo";
    expect(Buffer.byteLength(a.slice(0, 36))).toBe(72);
    const { email } = await signUp(t, uniqueEmail(), a);
    expect((await t.client().post("/api/auth/login", { email, password: b })).status).toBe(401);
    expect((await t.client().post("/api/auth/login", { email, password: a })).status).toBe(200);
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with the right password, whatever the email's case", async () => {
    const t = await testApp(url());
    const { email, user } = await signUp(t);
    const client = t.client();
    const res = await client.post("/api/auth/login", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect((await res.json()).user).toEqual(user);
    expect(await (await client.get("/api/auth/me")).json()).toEqual({ user });
  });

  it("answers an unknown email and a wrong password identically", async () => {
    const t = await testApp(url());
    const { email } = await signUp(t);
    const wrong = await t.client().post("/api/auth/login", { email, password: "wrong password!" });
    const unknown = await t.client().post("/api/auth/login", { email: uniqueEmail("nobody"), password: "wrong password!" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (b: { error: { requestId?: string } }) => ({ ...b, error: { ...b.error, requestId: undefined } });
    expect(strip(await wrong.json())).toEqual(strip(await unknown.json()));
    expect(wrong.headers.getSetCookie()).toEqual([]);
    // And at the same cost: the unknown email is checked against a hash at the current parameters, so both
    // paths run one Argon2id of the same size (the figures: `npm run bench -- login`).
    expect(needsRehash(await dummyHash())).toBe(false);
  });

  it("enforces 8 to 72 characters on the login body too", async () => {
    const t = await testApp(url());
    for (const password of ["short", "x".repeat(73)]) {
      const res = await t.client().post("/api/auth/login", { email: "a@example.com", password });
      expect(res.status).toBe(400);
    }
  });

  it.each([
    ["a scrypt hash of an earlier version", () => hashPasswordScrypt(PASSWORD)],
    ["a weaker scrypt hash", () => hashPasswordScrypt(PASSWORD, { logN: 10, r: 8, p: 1 })],
    ["an Argon2id hash at a lower cost", () => hashPassword(PASSWORD, { m: 8192, t: 1, p: 1 })],
  ])("%s still signs in, and is replaced by the current Argon2id on that sign-in", async (_name, make) => {
    const t = await testApp(url());
    const email = uniqueEmail("legacy");
    const old = await make();
    await t.deps.db.insert(users).values({ email, passwordHash: old });
    expect((await t.client().post("/api/auth/login", { email, password: "not the password" })).status).toBe(401);
    expect((await t.deps.db.select().from(users).where(eq(users.email, email)))[0]!.passwordHash).toBe(old);
    expect((await t.client().post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    const [row] = await t.deps.db.select().from(users).where(eq(users.email, email));
    expect(row!.passwordHash).not.toBe(old);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(needsRehash(row!.passwordHash)).toBe(false);
    expect(await verifyPassword(PASSWORD, row!.passwordHash)).toBe(true);
    // The upgraded hash signs in again.
    expect((await t.client().post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("verifies on Node a hash made in workerd by the WebAssembly build (the other way: tests/workers/password.test.ts)", async () => {
    // hashPassword("correct horse battery") inside workerd (tests/workers/password.test.ts, Argon2id in WebAssembly).
    const made = "$argon2id$v=19$m=19456,t=2,p=1$50Bg/nzgNVJoe1g22or3Gw$PFSRD2ryfiGyR9DGReEhbCkYNsRtoJelCqc43whBsWE";
    expect(await verifyPassword("correct horse battery", made)).toBe(true);
    expect(await verifyPassword("correct horse batterz", made)).toBe(false);
    expect(needsRehash(made)).toBe(false);
  });

  it("refuses stored hashes it cannot trust: malformed, or with costs far outside the bounds", async () => {
    const good = await hashPassword(PASSWORD);
    for (const bad of [
      "",
      "plain text",
      good.replace("m=19456", "m=99999999"),
      good.replace("t=2", "t=400"),
      good.replace("$v=19$", "$v=16$"),
      good.slice(0, -10),
    ]) {
      expect(await verifyPassword(PASSWORD, bad), bad).toBe(false);
      expect(needsRehash(bad)).toBe(true);
    }
  });

  it("issues a new session id on every sign-in (no fixation); the one presented stays, as one more session", async () => {
    const t = await testApp(url());
    const { client, email, user } = await signUp(t);
    const before = client.cookies.get("journal_session");
    const earlier = client.clone(); // the same browser's cookie from before this sign-in
    expect((await client.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    const after = client.cookies.get("journal_session");
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // SPEC section 3: a sign-in with fewer than five sessions makes one more session.
    expect(await sessionsOf(t, user.id)).toHaveLength(2);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect((await earlier.get("/api/auth/me")).status).toBe(200);
  });

  it("holds only live sessions: an expired one never takes a live one's place among the five", async () => {
    const t = await testApp(url());
    const { client: first, email, user } = await signUp(t);
    const clients = [first];
    for (let i = 0; i < 4; i++) {
      const c = t.client();
      expect((await c.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
      clients.push(c);
    }
    // The newest of the five idles out.
    const [newest] = await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id)).orderBy(desc(sessions.createdAt)).limit(1);
    await t.deps.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.id, newest!.id));
    const sixth = t.client();
    expect((await sixth.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    const left = await sessionsOf(t, user.id);
    expect(left).toHaveLength(5);
    expect(left.map((s) => s.id)).not.toContain(newest!.id);
    // The four older live sessions and the new one all still work.
    for (const c of [...clients.slice(0, 4), sixth]) expect((await c.get("/api/auth/me")).status).toBe(200);
  });

  it("keeps five sessions: the sixth sign-in ends the oldest", async () => {
    const t = await testApp(url());
    const { client: first, email, user } = await signUp(t);
    const clients = [first];
    for (let i = 0; i < 5; i++) {
      const c = t.client();
      expect((await c.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
      clients.push(c);
    }
    expect(await sessionsOf(t, user.id)).toHaveLength(5);
    expect((await first.get("/api/auth/me")).status).toBe(401);
    for (const c of clients.slice(1)) expect((await c.get("/api/auth/me")).status).toBe(200);
  });

  it("stays at five sessions, the newest five, when many sign-ins race", async () => {
    const t = await testApp(url());
    const { email, user } = await signUp(t);
    const racers = Array.from({ length: 8 }, () => t.client());
    const results = await Promise.all(racers.map((c) => c.post("/api/auth/login", { email, password: PASSWORD })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const left = await sessionsOf(t, user.id);
    expect(left).toHaveLength(5);
    const alive = (await Promise.all(racers.map((c) => c.get("/api/auth/me")))).filter((r) => r.status === 200);
    expect(alive).toHaveLength(5);
  });
});

describe("sessions", () => {
  it("refuses a tampered cookie", async () => {
    const t = await testApp(url());
    const { client } = await signUp(t);
    const value = decodeURIComponent(client.cookies.get("journal_session")!);
    const [token, signature] = [value.slice(0, value.lastIndexOf(".")), value.slice(value.lastIndexOf(".") + 1)];
    const tampered = new TestClient(t.app);
    tampered.cookies.set("journal_session", encodeURIComponent(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}.${signature}`));
    expect((await tampered.get("/api/auth/me")).status).toBe(401);
    const unsigned = new TestClient(t.app);
    unsigned.cookies.set("journal_session", encodeURIComponent(token));
    expect((await unsigned.get("/api/auth/me")).status).toBe(401);
  });

  it("refuses an expired session and removes it", async () => {
    const t = await testApp(url());
    const { client, user } = await signUp(t);
    await t.deps.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    const res = await client.get("/api/auth/me");
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("UNAUTHORIZED");
    expect(await sessionsOf(t, user.id)).toHaveLength(0);
  });

  it("refuses a session past its absolute expiry even if recently used", async () => {
    const t = await testApp(url());
    const { client, user } = await signUp(t);
    await t.deps.db.update(sessions).set({ absoluteExpiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    expect((await client.get("/api/auth/me")).status).toBe(401);
  });

  it("slides the idle expiry forward when a session is used after the touch interval", async () => {
    const t = await testApp(url());
    const { client, user } = await signUp(t);
    const old = new Date(Date.now() - 2 * 3600 * 1000);
    await t.deps.db.update(sessions).set({ lastSeenAt: old, expiresAt: new Date(Date.now() + 1000 * 60) }).where(eq(sessions.userId, user.id));
    expect((await client.get("/api/auth/me")).status).toBe(200);
    const [row] = await sessionsOf(t, user.id);
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(row!.lastSeenAt.getTime()).toBeGreaterThan(old.getTime());
  });

  it("logout ends the session server-side: the old cookie no longer works", async () => {
    const t = await testApp(url());
    const { client, user } = await signUp(t);
    const copy = client.clone();
    const res = await client.post("/api/auth/logout");
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().join()).toMatch(/journal_session=;/);
    expect((await copy.get("/api/auth/me")).status).toBe(401);
    expect(await sessionsOf(t, user.id)).toHaveLength(0);
  });

  it("lists own sessions, marks the current one, and revokes one by id", async () => {
    const t = await testApp(url());
    const { client, email } = await signUp(t);
    const other = t.client();
    await other.post("/api/auth/login", { email, password: PASSWORD }, { headers: { "User-Agent": "PhoneBrowser/1.0" } });
    const list = await (await client.get("/api/auth/sessions")).json();
    expect(list.sessions).toHaveLength(2);
    expect(list.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const phone = list.sessions.find((s: { userAgent: string | null }) => s.userAgent === "PhoneBrowser/1.0");
    expect(phone.current).toBe(false);
    expect((await client.delete(`/api/auth/sessions/${phone.id}`)).status).toBe(204);
    expect((await other.get("/api/auth/me")).status).toBe(401);
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });

  it("signs out everywhere else: DELETE /sessions ends every other session of the user, and no one else's", async () => {
    const t = await testApp(url());
    const { client, email, user } = await signUp(t);
    const others = [t.client(), t.client()];
    for (const other of others) expect((await other.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    const bob = await signUp(t);
    expect(await sessionsOf(t, user.id)).toHaveLength(3);

    expect((await client.delete("/api/auth/sessions")).status).toBe(204);
    for (const other of others) expect((await other.get("/api/auth/me")).status).toBe(401);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect(await sessionsOf(t, user.id)).toHaveLength(1);
    expect((await bob.client.get("/api/auth/me")).status).toBe(200);
    expect((await t.client().delete("/api/auth/sessions")).status).toBe(401);
  });

  it("answers 404 for another user's session id, and leaves it alone", async () => {
    const t = await testApp(url());
    const alice = await signUp(t);
    const bob = await signUp(t);
    const [bobSession] = await sessionsOf(t, bob.user.id);
    const res = await alice.client.delete(`/api/auth/sessions/${bobSession!.id}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("NOT_FOUND");
    expect((await bob.client.get("/api/auth/me")).status).toBe(200);
  });

  it("requires a session on authed routes (401) while unknown routes stay 404", async () => {
    const t = await testApp(url());
    const anonymous = t.client();
    for (const path of ["/api/auth/me", "/api/auth/sessions", "/api/config"]) {
      const res = await anonymous.get(path);
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("UNAUTHORIZED");
    }
    expect((await anonymous.get("/api/auth/nothing")).status).toBe(404);
  });
});

describe("POST /api/auth/password", () => {
  it("needs the current password, then ends every other session and keeps this one", async () => {
    const t = await testApp(url());
    const { client, email } = await signUp(t);
    const other = t.client();
    await other.post("/api/auth/login", { email, password: PASSWORD });

    const wrong = await client.post("/api/auth/password", { currentPassword: "not it at all", newPassword: "a brand new secret" });
    expect(wrong.status).toBe(400);
    expect((await other.get("/api/auth/me")).status).toBe(200);

    const ok = await client.post("/api/auth/password", { currentPassword: PASSWORD, newPassword: "a brand new secret" });
    expect(ok.status).toBe(204);
    expect((await other.get("/api/auth/me")).status).toBe(401);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect((await t.client().post("/api/auth/login", { email, password: PASSWORD })).status).toBe(401);
    expect((await t.client().post("/api/auth/login", { email, password: "a brand new secret" })).status).toBe(200);
  });
});

describe("operator controls", () => {
  it("DISABLE_REGISTRATION refuses sign-up with 403 while sign-in still works", async () => {
    const open = await testApp(url());
    const { email } = await signUp(open);
    const closed = await testApp(url(), { DISABLE_REGISTRATION: "true" });
    const res = await closed.client().post("/api/auth/register", { email: uniqueEmail(), password: PASSWORD });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("REGISTRATION_DISABLED");
    expect((await closed.client().post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    expect(await (await closed.client().get("/api/config/public")).json()).toEqual({ registrationOpen: false, newsletterUrl: null });
  });

  it("DISABLE_REGISTRATION answers 403 to every client: a bad body, a wrong content type, one over the limit", async () => {
    const closed = await testApp(url(), { DISABLE_REGISTRATION: "true" });
    const client = closed.client();
    const emails = Array.from({ length: 7 }, () => uniqueEmail("closed"));
    const attempts = [
      await client.post("/api/auth/register", { email: "not an email", password: "x" }),
      await client.request("/api/auth/register", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hello" }),
    ];
    // More than the 5 sign-ups one client may try per window: still 403, never 429.
    for (const email of emails) attempts.push(await client.post("/api/auth/register", { email, password: PASSWORD }));
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("REGISTRATION_DISABLED");
    }
    expect(await closed.deps.db.select().from(users).where(inArray(users.email, emails))).toEqual([]);
  });

  it("GET /api/config reports the optional features to a signed-in user", async () => {
    const t = await testApp(url(), { STOCK_QUOTE_API_KEY: "k", WEEK_START_DAY: "1" });
    const { client } = await signUp(t);
    expect(await (await client.get("/api/config")).json()).toEqual({
      weekStartDay: 1,
      quotes: true,
      billing: false,
      pro: false,
      email: false,
      objectStorage: false,
      analytics: false,
      schwab: false,
    });
  });
});

describe("GET /api/auth/session", () => {
  it("answers 200 with the user when signed in and 200 with null when not, never 401", async () => {
    const t = await testApp(url());
    const { client, user } = await signUp(t);
    const signedIn = await client.get("/api/auth/session");
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({ user });
    const anonymous = await t.client().get("/api/auth/session");
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ user: null });
    expect((await client.post("/api/auth/logout", {})).status).toBe(204);
    expect(await (await client.get("/api/auth/session")).json()).toEqual({ user: null });
  });
});
