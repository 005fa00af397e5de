// Verification and reset mails really delivered over SMTP (an in-process server), and their links
// working exactly once.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sessions, users } from "../../lib/db/schema.ts";
import { createNodeMailer } from "../../lib/email/index.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, uniqueEmail } from "../support/client.ts";
import { startSmtpServer, type SmtpTestServer } from "../support/smtp-server.ts";

let smtp: SmtpTestServer;
let t: TestApp;
/** The same instance with a client address per request (for flows that ask for many links). */
let many: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer({ tls: "none" });
  const env = {
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    SMTP_TLS_MODE: "none",
    EMAIL_FROM: "journal@example.com",
    EMAIL_FROM_NAME: "Trading Journal",
    WEB_BASE_URL: "http://localhost:3100/",
  };
  const probe = await testApp(inject("databaseUrl"), env);
  t = await testApp(inject("databaseUrl"), env, { mailer: await createNodeMailer(probe.config) });
  many = await testApp(inject("databaseUrl"), env, { mailer: await createNodeMailer(probe.config), peer: "per-request" });
});
afterAll(() => smtp?.close());

function tokenFrom(text: string, path: string): string {
  const match = new RegExp(`http://localhost:3100/${path}\\?token=([A-Za-z0-9_%-]+)`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return decodeURIComponent(match[1]!);
}

async function mailTo(address: string) {
  await t.settled();
  return smtp.waitFor((m) => m.to.includes(address), 5000);
}

describe("email verification", () => {
  it("mails a link on register; the link verifies once and only once", async () => {
    const email = uniqueEmail("verify");
    const client = t.client();
    const res = await client.post("/api/auth/register", { email, password: PASSWORD });
    expect((await res.json()).user.emailVerified).toBe(false);

    const mail = await mailTo(email);
    expect(mail.from.address).toBe("journal@example.com");
    expect(mail.from.name).toBe("Trading Journal");
    const token = tokenFrom(mail.text, "verify-email");

    const verified = await t.client().post("/api/auth/verify-email", { token });
    expect(verified.status).toBe(200);
    expect((await verified.json()).user).toMatchObject({ email, emailVerified: true });
    expect((await (await client.get("/api/auth/me")).json()).user.emailVerified).toBe(true);

    const again = await t.client().post("/api/auth/verify-email", { token });
    expect(again.status).toBe(400);
    expect((await again.json()).error.fields[0].path).toBe("token");
  });

  it("resend issues a fresh link and the earlier one stops working", async () => {
    const email = uniqueEmail("resend");
    const client = t.client();
    await client.post("/api/auth/register", { email, password: PASSWORD });
    const first = tokenFrom((await mailTo(email)).text, "verify-email");
    const before = smtp.messages.length;
    expect((await client.post("/api/auth/verify-email/resend")).status).toBe(202);
    await t.settled();
    const second = tokenFrom((await smtp.waitFor((m) => m.to.includes(email) && smtp.messages.indexOf(m) >= before, 5000)).text, "verify-email");
    expect(second).not.toBe(first);
    expect((await t.client().post("/api/auth/verify-email", { token: first })).status).toBe(400);
    expect((await t.client().post("/api/auth/verify-email", { token: second })).status).toBe(200);
  });

  it("refuses an expired token", async () => {
    const email = uniqueEmail("expired");
    await t.client().post("/api/auth/register", { email, password: PASSWORD });
    const token = tokenFrom((await mailTo(email)).text, "verify-email");
    await t.deps.db.execute(
      // Age every unused token of this user past its expiry.
      (await import("drizzle-orm")).sql`update email_tokens set expires_at = now() - interval '1 second'
        where user_id = (select id from users where email = ${email})`,
    );
    expect((await t.client().post("/api/auth/verify-email", { token })).status).toBe(400);
  });
});

describe("password reset", () => {
  it("answers 202 for any address and mails only real accounts", async () => {
    const ghost = uniqueEmail("ghost");
    const res = await t.client().post("/api/auth/password-reset/request", { email: ghost });
    expect(res.status).toBe(202);
    await t.settled();
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages.some((m) => m.to.includes(ghost))).toBe(false);
  });

  it("mails a link that sets a new password once and ends every session", async () => {
    const email = uniqueEmail("reset");
    const client = t.client();
    const { user } = await (await client.post("/api/auth/register", { email, password: PASSWORD })).json();
    await mailTo(email); // the verification mail
    const before = smtp.messages.length;

    expect((await t.client().post("/api/auth/password-reset/request", { email: email.toUpperCase() })).status).toBe(202);
    await t.settled();
    const mail = await smtp.waitFor((m) => m.to.includes(email) && smtp.messages.indexOf(m) >= before, 5000);
    const token = tokenFrom(mail.text, "reset-password");

    const confirm = await t.client().post("/api/auth/password-reset/confirm", { token, password: "the new password" });
    expect(confirm.status).toBe(204);
    expect((await client.get("/api/auth/me")).status).toBe(401);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await t.client().post("/api/auth/login", { email, password: "the new password" })).status).toBe(200);

    const reuse = await t.client().post("/api/auth/password-reset/confirm", { token, password: "yet another one" });
    expect(reuse.status).toBe(400);
    expect((await t.client().post("/api/auth/login", { email, password: "the new password" })).status).toBe(200);
  });

  it("the failed sign-in that locks an account mails its owner once, with a way to reset the password", async () => {
    const email = uniqueEmail("lockout");
    expect((await many.client().post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
    await many.settled();
    await smtp.waitFor((m) => m.to.includes(email), 5000); // the verification mail
    const before = smtp.messages.length;
    for (let i = 0; i < 11; i++) await many.client().post("/api/auth/login", { email, password: `wrong password ${i}` });
    await many.settled();
    const mail = await smtp.waitFor((m) => m.to.includes(email) && smtp.messages.indexOf(m) >= before, 5000);
    expect(mail.subject).toBe("Sign-in to your Trading Journal account was locked");
    expect(mail.text).toContain("locked for 15 minutes after 10 failed attempts");
    expect(mail.text).toContain("http://localhost:3100/forgot-password");
    expect(smtp.messages.filter((m) => m.to.includes(email)).length).toBe(2);
  });

  it("a sign-in from a browser the account has not been used on mails its owner; the same browser again does not", async () => {
    const email = uniqueEmail("device");
    const home = many.client();
    home.headers = { "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36" };
    expect((await home.post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
    await many.settled();
    await smtp.waitFor((m) => m.to.includes(email), 5000); // the verification mail
    const mine = () => smtp.messages.filter((m) => m.to.includes(email) && m.subject.startsWith("New sign-in"));
    // The browser that signed up, signing in again: known (its device cookie), no mail.
    expect((await home.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    await many.settled();
    expect(mine()).toHaveLength(0);

    const elsewhere = many.client();
    elsewhere.headers = { "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0" };
    expect((await elsewhere.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    await many.settled();
    const mail = await smtp.waitFor((m) => m.to.includes(email) && m.subject === "New sign-in to your Trading Journal account", 5000);
    expect(mail.text).toContain("from a device it had not been used on: Firefox on Windows, at ");
    expect(mail.text).toContain("http://localhost:3100/settings/sessions");
    // The new browser is known from now on; a wrong password from anywhere mails nothing of this kind.
    expect((await elsewhere.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    expect((await many.client().post("/api/auth/login", { email, password: "not the password" })).status).toBe(401);
    await many.settled();
    expect(mine()).toHaveLength(1);
    expect(elsewhere.cookies.get("journal_device")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("making an access token mails its owner: the token's name, what it may do, when it expires, where to revoke it", async () => {
    const email = uniqueEmail("token-mail");
    const client = many.client();
    expect((await client.post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
    const made = await client.post("/api/auth/tokens", { name: "Broker bot", scopes: ["read", "fills:write"], password: PASSWORD, expiresInDays: 30 });
    expect(made.status).toBe(201);
    const { expiresAt, token } = (await made.json()) as { expiresAt: string; token: string };
    await many.settled();
    const mail = await smtp.waitFor((m) => m.to.includes(email) && m.subject === "New access token on your Trading Journal account", 5000);
    expect(mail.text).toContain(`An access token named "Broker bot" was made for your Trading Journal account at `);
    expect(mail.text).toContain(`It may: read, fills:write; it expires on ${expiresAt.slice(0, 10)}.`);
    expect(mail.text).toContain("http://localhost:3100/settings/account");
    expect(mail.text).not.toContain(token);
    // A refused one (wrong password) mails nothing.
    expect((await client.post("/api/auth/tokens", { name: "Stolen", scopes: ["read"], password: "not the password" })).status).toBe(400);
    await many.settled();
    expect(smtp.messages.filter((m) => m.to.includes(email) && m.subject.startsWith("New access token"))).toHaveLength(1);
  });

  it("inviting a mentor mails them who invited them, to what, and where to accept; only a verified address accepts", async () => {
    const owner = many.client();
    const ownerEmail = uniqueEmail("mentee");
    expect((await owner.post("/api/auth/register", { email: ownerEmail, password: PASSWORD })).status).toBe(201);
    const accountId = ((await (await owner.post("/api/accounts", { name: "Main", currency: "USD" })).json()) as { id: string }).id;
    const mentorEmail = uniqueEmail("mentor");
    const made = await owner.post("/api/mentors", { email: mentorEmail, accountIds: [accountId], scopes: ["trades", "stats"], expiresInDays: 30 });
    expect(made.status).toBe(201);
    const { mentor } = (await made.json()) as { mentor: { id: string; expiresAt: string } };
    await many.settled();
    const mail = await smtp.waitFor((m) => m.to.includes(mentorEmail) && m.subject === "An invitation to mentor on Trading Journal", 5000);
    expect(mail.text).toContain(`${ownerEmail} invited you to read their Trading Journal journal as their mentor (trades, stats) until ${mentor.expiresAt.slice(0, 10)}.`);
    expect(mail.text).toContain("http://localhost:3100/mentees");
    // The mentor registers with that address: unverified, the invitation is theirs to see but not to accept.
    const them = many.client();
    expect((await them.post("/api/auth/register", { email: mentorEmail, password: PASSWORD })).status).toBe(201);
    const refused = await them.post(`/api/mentees/${mentor.id}/accept`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe("Verify your email address first: the invitation is to that address.");
    const verify = await smtp.waitFor((m) => m.to.includes(mentorEmail) && m.text.includes("/verify-email?"), 5000);
    expect((await many.client().post("/api/auth/verify-email", { token: tokenFrom(verify.text, "verify-email") })).status).toBe(200);
    expect((await them.post(`/api/mentees/${mentor.id}/accept`)).status).toBe(200);
  });

  it("a reset link dies when the password changes, is reset, or every session is ended", async () => {
    // A link requested before the owner acted must not replace the password afterwards.
    const requestLink = async (email: string) => {
      const before = smtp.messages.length;
      expect((await many.client().post("/api/auth/password-reset/request", { email })).status).toBe(202);
      await many.settled();
      const mail = await smtp.waitFor((m) => m.to.includes(email) && smtp.messages.indexOf(m) >= before && m.text.includes("/reset-password?"), 5000);
      return tokenFrom(mail.text, "reset-password");
    };
    const refusedNow = async (token: string, email: string, password: string) => {
      const res = await many.client().post("/api/auth/password-reset/confirm", { token, password: "the attacker's pick" });
      expect(res.status).toBe(400);
      expect((await many.client().post("/api/auth/login", { email, password })).status).toBe(200);
    };

    // 1. The owner changes the password (POST /api/auth/password).
    const email = uniqueEmail("stale");
    const owner = many.client();
    await owner.post("/api/auth/register", { email, password: PASSWORD });
    const stale = await requestLink(email);
    const changed = await owner.post("/api/auth/password", { currentPassword: PASSWORD, newPassword: "a brand new password" });
    expect(changed.status).toBe(204);
    await refusedNow(stale, email, "a brand new password");

    // 2. Another link is used: every other unused link goes with it.
    const first = await requestLink(email);
    const second = await requestLink(email);
    expect((await many.client().post("/api/auth/password-reset/confirm", { token: second, password: "set by the second link" })).status).toBe(204);
    await refusedNow(first, email, "set by the second link");

    // 3. The owner signs out everywhere else (DELETE /api/auth/sessions).
    const signedIn = many.client();
    await signedIn.post("/api/auth/login", { email, password: "set by the second link" });
    const before = await requestLink(email);
    expect((await signedIn.request("/api/auth/sessions", { method: "DELETE" })).status).toBe(204);
    await refusedNow(before, email, "set by the second link");
  });

  it("validates the new password before using the token", async () => {
    const res = await t.client().post("/api/auth/password-reset/confirm", { token: "x".repeat(43), password: "short" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields[0].path).toBe("password");
  });
});

describe("with email off", () => {
  it("keeps emailVerified false without blocking anything, and resend is absent", async () => {
    const off = await testApp(inject("databaseUrl"));
    const client = off.client();
    const email = uniqueEmail("noemail");
    const { user } = await (await client.post("/api/auth/register", { email, password: PASSWORD })).json();
    expect(user.emailVerified).toBe(false);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    expect((await client.post("/api/auth/verify-email/resend")).status).toBe(404);
    expect((await client.post("/api/auth/password-reset/request", { email })).status).toBe(202);
    const [row] = await off.deps.db.select().from(users).where(eq(users.email, email));
    expect(row!.emailVerified).toBe(false);
  });
});
