// Sign-in lockout (docs/auth.md, "Lockout"): ten failed sign-ins of one email in 15 minutes lock its sign-in
// (429 with Retry-After, however right the password), from any client; an unknown email answers exactly the
// same; the failures leave the window after 15 minutes; the operator CLI lifts it. A browser that has signed in to
// the account before is not locked out by failures from elsewhere (only by its own), and a completed reset, a
// passkey sign-in and a verified second factor forget the failures (issue 52: a stranger must not be able to keep
// the owner out). On the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { issueEmailToken } from "../../lib/auth/email-tokens.ts";
import { totpCode } from "../../lib/auth/two-factor.ts";
import { journal } from "../support/app.ts";
import { SoftwareAuthenticator } from "../support/authenticator.ts";
import { runCliProcess } from "../support/cli.ts";

const url = () => inject("databaseUrl");
const PASSWORD = "correct horse battery staple";

async function setup() {
  const j = await journal(url());
  const email = `locked-${crypto.randomUUID()}@example.com`;
  // The owner's browser: it signed up here, so it holds the account's known-device cookie.
  const home = j.anonymous();
  const reg = await home.post("/api/auth/register", { email, password: PASSWORD });
  expect(reg.status).toBe(201);
  const userId = ((await reg.json()) as { user: { id: string } }).user.id;
  // Each attempt from a client of its own (a peer address per request): the per-client limit is not what stops them.
  const attempt = (who: string, password: string) => j.anonymous().post("/api/auth/login", { email: who, password });
  const lockFromElsewhere = async () => {
    for (let i = 0; i < 10; i++) expect((await attempt(email, `wrong password ${i}`)).status).toBe(401);
    expect((await attempt(email, PASSWORD)).status).toBe(429);
  };
  return { ...j, email, userId, home, attempt, lockFromElsewhere };
}

describe("sign-in lockout", () => {
  it("ten failures from many clients lock the email: the right password waits (429, Retry-After); an unknown email the same; lifted by the CLI", async () => {
    const t = await setup();
    const unknown = `nobody-${crypto.randomUUID()}@example.com`;
    for (let i = 0; i < 10; i++) {
      expect((await t.attempt(t.email, `wrong password ${i}`)).status).toBe(401);
      expect((await t.attempt(unknown, `wrong password ${i}`)).status).toBe(401);
    }
    const locked = await t.attempt(t.email, PASSWORD);
    expect(locked.status).toBe(429);
    const retry = Number(locked.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(850);
    expect(retry).toBeLessThanOrEqual(900);
    const body = (await locked.json()).error;
    // Worded as the per-client limit of the sign-in routes is (auth.security.test.ts).
    expect(body).toMatchObject({ code: "RATE_LIMITED", message: "Too many sign-in attempts. Try again in 15 minutes." });
    // An unknown email: the same status, code and message.
    const other = await t.attempt(unknown, "anything at all");
    expect(other.status).toBe(429);
    expect((await other.json()).error).toMatchObject({ code: body.code, message: body.message });
    // Case does not get round it.
    expect((await t.attempt(t.email.toUpperCase(), PASSWORD)).status).toBe(429);

    const cli = await runCliProcess(url(), ["unlock-sign-in", t.email]);
    expect(cli.code, cli.out).toBe(0);
    expect(cli.out).toContain(`Sign-in of ${t.email} unlocked (10 failed sign-in(s) forgotten).`);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(200);
    expect((await t.attempt(unknown, "anything at all")).status).toBe(429);
  });

  it("nine failures do not lock; failures older than 15 minutes no longer count", async () => {
    const t = await setup();
    for (let i = 0; i < 9; i++) expect((await t.attempt(t.email, `wrong password ${i}`)).status).toBe(401);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(200);
    expect((await t.attempt(t.email, "wrong password 10")).status).toBe(401);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(429);
    // A quarter of an hour later (the failures dated back), sign-in works again.
    await t.db.execute(sql`update sign_in_failures set failed_at = failed_at - interval '15 minutes 1 second'
      where key = encode(sha256(convert_to(${t.email.toLowerCase()}, 'UTF8')), 'hex')`);
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(200);
  });

  it("a browser that has signed in before still signs in while failures from elsewhere hold the lock; its own failures still count", async () => {
    const t = await setup();
    expect((await t.home.post("/api/auth/logout", {})).status).toBe(204);
    expect(t.home.cookies.get("journal_device")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await t.lockFromElsewhere();
    // The owner's browser: in.
    expect((await t.home.post("/api/auth/login", { email: t.email, password: PASSWORD })).status).toBe(200);
    // Elsewhere is still locked: the owner's sign-in did not lift it.
    expect((await t.attempt(t.email, PASSWORD)).status).toBe(429);
    // A forged or unknown device cookie is no way round it.
    const forger = t.anonymous();
    forger.cookies.set("journal_device", "A".repeat(43));
    expect((await forger.post("/api/auth/login", { email: t.email, password: PASSWORD })).status).toBe(429);
    // The known browser's own failures lock it too, after ten.
    for (let i = 0; i < 10; i++) expect((await t.home.post("/api/auth/login", { email: t.email, password: `mine wrong ${i}` })).status).toBe(401);
    expect((await t.home.post("/api/auth/login", { email: t.email, password: PASSWORD })).status).toBe(429);
  });

  it("a completed password reset lifts the lock: the new password signs in from anywhere", async () => {
    const t = await setup();
    await t.lockFromElsewhere();
    const token = await issueEmailToken(t.t.deps, t.userId, "reset_password");
    expect((await t.anonymous().post("/api/auth/password-reset/confirm", { token, password: "a brand new password" })).status).toBe(204);
    expect((await t.attempt(t.email, "a brand new password")).status).toBe(200);
  });

  it("a sign-in with a verified second factor (from the known browser) and a passkey sign-in forget the failures", async () => {
    const t = await setup();
    const { secret } = (await (await t.home.post("/api/auth/2fa/totp/setup", {})).json()) as { secret: string };
    expect((await t.home.post("/api/auth/2fa/totp/enable", { code: totpCode(secret, new Date()) })).status).toBe(200);
    await t.lockFromElsewhere();
    // Password from the known browser, then a backup-free code of the next step (the one above is spent).
    const started = await t.home.post("/api/auth/login", { email: t.email, password: PASSWORD });
    expect(started.status).toBe(200);
    const { challenge } = (await started.json()) as { challenge: string };
    const wrong = await t.home.post("/api/auth/login/2fa", { challenge, code: "12345" });
    expect(wrong.status).toBe(401);
    const signedIn = await t.home.post("/api/auth/login/2fa", { challenge, code: totpCode(secret, new Date(Date.now() + 30_000)) });
    expect(signedIn.status).toBe(200);
    // Lifted for everyone: the right password from a new browser reaches its second step.
    const elsewhere = await t.attempt(t.email, PASSWORD);
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.json()).toMatchObject({ twoFactorRequired: true });

    // A passkey sign-in (two factors by itself) does the same.
    const p = await setup();
    const authenticator = new SoftwareAuthenticator("http://localhost");
    const flow = (await (await p.home.post("/api/passkeys/options", {})).json()) as { flowId: string; options: Parameters<SoftwareAuthenticator["create"]>[0] };
    expect((await p.home.post("/api/passkeys", { flowId: flow.flowId, credential: await authenticator.create(flow.options) })).status).toBe(201);
    await p.lockFromElsewhere();
    const browser = p.anonymous();
    const signIn = (await (await browser.post("/api/passkeys/sign-in/options", {})).json()) as { flowId: string; options: Parameters<SoftwareAuthenticator["get"]>[0] };
    expect((await browser.post("/api/passkeys/sign-in", { flowId: signIn.flowId, credential: await authenticator.get(signIn.options) })).status).toBe(200);
    const after = await p.attempt(p.email, PASSWORD);
    expect(after.status).toBe(200);
  });
});
