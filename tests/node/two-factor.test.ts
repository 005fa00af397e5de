// Two-factor sign-in (DESIGN.md section 10, "Second factor"; docs/auth.md): TOTP set up and confirmed, 10
// backup codes shown once and accepted once each, the login challenge (5 minutes, 5 tries, answered like a wrong
// password), codes within one step of the clock, a code used once refused again (also under 10 concurrent
// sign-ins), turning it off with the password and a code, the operator CLI (audited). On the real Postgres, with
// the app's clock fixed and moved by the test.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { totpCode, TOTP_PERIOD_SECONDS } from "../../lib/auth/two-factor.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { runCliProcess } from "../support/cli.ts";

const url = () => inject("databaseUrl");
const PASSWORD = "correct horse battery staple";
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

let counter = 0;

/** A user with the app's clock in the test's hands (10 s into a time step), signed in, 2FA not yet on. */
async function setup() {
  let clock = Math.floor(Date.now() / STEP_MS) * STEP_MS + 10_000;
  const t: TestApp = await testApp(url(), {}, { peer: "per-request", now: () => new Date(clock) });
  const email = `two-factor-${++counter}-${crypto.randomUUID()}@example.com`;
  const client = t.client();
  const reg = await client.post("/api/auth/register", { email, password: PASSWORD });
  expect(reg.status).toBe(201);
  const userId = ((await reg.json()) as { user: { id: string } }).user.id;
  return {
    t,
    email,
    client,
    userId,
    at: () => new Date(clock),
    advance: (ms: number) => (clock += ms),
    /** The code of the step `steps` away from the app's clock. */
    code: (secret: string, steps = 0) => totpCode(secret, new Date(clock + steps * STEP_MS)),
    login: (password = PASSWORD) => t.client().post("/api/auth/login", { email, password }),
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function enable(s: Setup): Promise<{ secret: string; backupCodes: string[] }> {
  const setupRes = await s.client.post("/api/auth/2fa/totp/setup", {});
  expect(setupRes.status).toBe(200);
  const { secret } = (await setupRes.json()) as { secret: string };
  const on = await s.client.post("/api/auth/2fa/totp/enable", { code: s.code(secret) });
  expect(on.status).toBe(200);
  return { secret, backupCodes: ((await on.json()) as { backupCodes: string[] }).backupCodes };
}

async function challengeOf(s: Setup): Promise<string> {
  const res = await s.login();
  expect(res.status).toBe(200);
  expect(res.headers.get("set-cookie")).toBeNull();
  const body = (await res.json()) as { twoFactorRequired: boolean; challenge: string };
  expect(body.twoFactorRequired).toBe(true);
  return body.challenge;
}

/** An error body without its request id, to compare two answers. */
async function errorOf(res: Response): Promise<object> {
  const { requestId: _id, ...rest } = ((await res.json()) as { error: { requestId: string } }).error;
  return rest;
}

const second = (s: Setup, challenge: string, code: string) => s.t.client().post("/api/auth/login/2fa", { challenge, code });

describe("two-factor sign-in", () => {
  it("setup gives the secret and its otpauth URI; a wrong code does not turn it on; the right one does, with 10 backup codes stored hashed", async () => {
    const s = await setup();
    const res = await s.client.post("/api/auth/2fa/totp/setup", {});
    expect(res.status).toBe(200);
    const { secret, otpauthUri } = (await res.json()) as { secret: string; otpauthUri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe(`/Trading Journal:${s.email}`);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret, issuer: "Trading Journal", algorithm: "SHA1", digits: "6", period: "30" });

    // Not on until confirmed: sign-in still takes the password alone.
    expect((await s.client.get("/api/auth/2fa").then((r) => r.json())) as object).toEqual({ enabled: false, enabledAt: null, backupCodesLeft: 0 });
    expect(((await (await s.login()).json()) as { user?: object }).user).toBeDefined();

    const wrong = await s.client.post("/api/auth/2fa/totp/enable", { code: s.code(secret, 2) });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { code: string; fields: unknown } }).error).toMatchObject({
      code: "VALIDATION_ERROR",
      fields: [{ path: "code", message: "is wrong or has been used" }],
    });
    expect((await s.client.post("/api/auth/2fa/totp/enable", { code: "12345x" })).status).toBe(400);
    expect((await s.client.post("/api/auth/2fa/totp/enable", {})).status).toBe(400);

    const on = await s.client.post("/api/auth/2fa/totp/enable", { code: s.code(secret) });
    expect(on.status).toBe(200);
    const { backupCodes } = (await on.json()) as { backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    for (const c of backupCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const status = (await s.client.get("/api/auth/2fa").then((r) => r.json())) as { enabled: boolean; backupCodesLeft: number };
    expect(status).toMatchObject({ enabled: true, backupCodesLeft: 10 });

    // At rest: the secret sealed (not in the row), the codes as hashes.
    const [row] = rowsOf<{ ciphertext: string; enabled: boolean }>(
      await s.t.deps.db.execute(sql`select ciphertext, enabled_at is not null as enabled from user_totp where user_id = ${s.userId}::uuid`),
    );
    expect(row!.enabled).toBe(true);
    expect(row!.ciphertext).not.toContain(secret);
    expect(Buffer.from(row!.ciphertext, "base64").toString("latin1")).not.toContain(secret);
    const hashes = rowsOf<{ code_hash: string }>(await s.t.deps.db.execute(sql`select code_hash from backup_codes where user_id = ${s.userId}::uuid`));
    expect(hashes).toHaveLength(10);
    for (const h of hashes) for (const c of backupCodes) expect(h.code_hash).not.toContain(c.replace("-", ""));

    // On: a second setup is refused and leaves it as it was.
    const again = await s.client.post("/api/auth/2fa/totp/setup", {});
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
    expect((await s.client.get("/api/auth/2fa").then((r) => r.json())) as object).toMatchObject({ enabled: true });
  });

  it("sign-in: the password gives a challenge and no session; codes one step either side pass, two steps do not; a used code is refused", async () => {
    const s = await setup();
    const { secret } = await enable(s);
    s.advance(3 * STEP_MS); // past the step the setup code used

    const challenge = await challengeOf(s);
    const anonymous = s.t.client();
    expect((await anonymous.get("/api/auth/me")).status).toBe(401);

    expect((await second(s, challenge, s.code(secret, -2))).status).toBe(401);
    expect((await second(s, challenge, s.code(secret, 2))).status).toBe(401);
    const client = s.t.client();
    const signedIn = await client.post("/api/auth/login/2fa", { challenge, code: s.code(secret, -1) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("set-cookie")).toContain("HttpOnly");
    expect(((await signedIn.json()) as { user: { email: string } }).user.email).toBe(s.email);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    // The challenge is spent.
    expect((await second(s, challenge, s.code(secret, 1))).status).toBe(401);

    // The same code again, on a new challenge: refused; so is the step before it. The next step passes.
    const next = await challengeOf(s);
    expect((await second(s, next, s.code(secret, -1))).status).toBe(401);
    expect((await second(s, next, s.code(secret, 0))).status).toBe(200);
    const third = await challengeOf(s);
    expect((await second(s, third, s.code(secret, 0))).status).toBe(401);
    expect((await second(s, third, `${s.code(secret, 1).slice(0, 3)} ${s.code(secret, 1).slice(3)}`)).status).toBe(200);
  });

  it("a wrong code answers exactly like a wrong password; a challenge takes 5 tries and lives 5 minutes", async () => {
    const s = await setup();
    const { secret } = await enable(s);
    s.advance(3 * STEP_MS);

    const badPassword = await s.login("not the password");
    const challenge = await challengeOf(s);
    const badCode = await second(s, challenge, "000000");
    expect(badCode.status).toBe(401);
    expect(badPassword.status).toBe(401);
    expect(await errorOf(badCode)).toEqual(await errorOf(badPassword));

    for (let i = 0; i < 4; i++) expect((await second(s, challenge, "000000")).status).toBe(401);
    // The sixth try, with the right code: the challenge is used up.
    const spent = await second(s, challenge, s.code(secret));
    expect(spent.status).toBe(401);
    expect(await errorOf(spent)).toEqual(await errorOf(await s.login("not the password")));

    // Five minutes: the last second passes, the next one does not.
    const late = await challengeOf(s);
    s.advance(5 * 60 * 1000 - 1);
    expect((await second(s, late, s.code(secret))).status).toBe(200);
    const later = await challengeOf(s);
    s.advance(5 * 60 * 1000);
    expect((await second(s, later, s.code(secret))).status).toBe(401);
  });

  it("backup codes: each signs in once, in any case and spacing; the count goes down; new codes replace the old", async () => {
    const s = await setup();
    const { secret, backupCodes } = await enable(s);
    const [first, other] = backupCodes as [string, string];
    expect((await second(s, await challengeOf(s), first.toUpperCase().replace("-", " "))).status).toBe(200);
    expect((await second(s, await challengeOf(s), first)).status).toBe(401);
    expect((await second(s, await challengeOf(s), other)).status).toBe(200);
    expect((await s.client.get("/api/auth/2fa").then((r) => r.json())) as object).toMatchObject({ backupCodesLeft: 8 });

    s.advance(3 * STEP_MS);
    const renewed = await s.client.post("/api/auth/2fa/backup-codes", { code: s.code(secret) });
    expect(renewed.status).toBe(200);
    const fresh = ((await renewed.json()) as { backupCodes: string[] }).backupCodes;
    expect(fresh).toHaveLength(10);
    expect((await s.client.get("/api/auth/2fa").then((r) => r.json())) as object).toMatchObject({ backupCodesLeft: 10 });
    expect((await second(s, await challengeOf(s), backupCodes[2]!)).status).toBe(401);
    expect((await second(s, await challengeOf(s), fresh[0]!)).status).toBe(200);
  });

  it("ten sign-ins at once with one code: exactly one gets in", async () => {
    const s = await setup();
    const { secret } = await enable(s);
    s.advance(3 * STEP_MS);
    const challenges = await Promise.all(Array.from({ length: 10 }, () => challengeOf(s)));
    const code = s.code(secret);
    const statuses = await Promise.all(challenges.map((c) => second(s, c, code).then((r) => r.status)));
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    expect(statuses.filter((x) => x === 401)).toHaveLength(9);
  });

  it("wrong codes count toward the account's lockout: after ten, even the right password waits", async () => {
    const s = await setup();
    const { secret } = await enable(s);
    s.advance(3 * STEP_MS);
    for (let i = 0; i < 2; i++) {
      const challenge = await challengeOf(s);
      for (let j = 0; j < 5; j++) expect((await second(s, challenge, "000000")).status).toBe(401);
    }
    const locked = await s.login();
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await runCliProcess(url(), ["unlock-sign-in", s.email])).code).toBe(0);
    expect((await second(s, await challengeOf(s), s.code(secret))).status).toBe(200);
  });

  it("turning it off takes the password and a code; wrong ones are named and change nothing", async () => {
    const s = await setup();
    const { secret, backupCodes } = await enable(s);
    s.advance(3 * STEP_MS);
    const badPassword = await s.client.request("/api/auth/2fa", { method: "DELETE", json: { password: "not it", code: s.code(secret) } });
    expect(badPassword.status).toBe(400);
    expect(((await badPassword.json()) as { error: { fields: unknown } }).error.fields).toEqual([{ path: "password", message: "is wrong" }]);
    const badCode = await s.client.request("/api/auth/2fa", { method: "DELETE", json: { password: PASSWORD, code: "000000" } });
    expect(badCode.status).toBe(400);
    expect(((await badCode.json()) as { error: { fields: unknown } }).error.fields).toEqual([{ path: "code", message: "is wrong or has been used" }]);
    expect((await s.client.get("/api/auth/2fa").then((r) => r.json())) as object).toMatchObject({ enabled: true });

    expect((await s.client.request("/api/auth/2fa", { method: "DELETE", json: { password: PASSWORD, code: backupCodes[0]! } })).status).toBe(204);
    expect((await s.client.get("/api/auth/2fa").then((r) => r.json())) as object).toEqual({ enabled: false, enabledAt: null, backupCodesLeft: 0 });
    const plain = await s.login();
    expect(((await plain.json()) as { user?: object }).user).toBeDefined();
    const left = rowsOf<{ n: number }>(
      await s.t.deps.db.execute(sql`select (select count(*) from backup_codes where user_id = ${s.userId}::uuid)::int
        + (select count(*) from user_totp where user_id = ${s.userId}::uuid)::int as n`),
    );
    expect(left[0]!.n).toBe(0);
    expect((await s.client.request("/api/auth/2fa", { method: "DELETE", json: { password: PASSWORD, code: "000000" } })).status).toBe(409);
  });

  it("the operator CLI turns it off for a locked-out user, in the admin audit log", async () => {
    const s = await setup();
    await enable(s);
    const cli = await runCliProcess(url(), ["disable-2fa", s.email]);
    expect(cli.code, cli.out).toBe(0);
    expect(cli.out).toContain(`Two-factor sign-in of ${s.email} turned off (audited).`);
    expect(((await (await s.login()).json()) as { user?: object }).user).toBeDefined();
    const audit = rowsOf<{ actor_email: string; action: string }>(
      await s.t.deps.db.execute(sql`select actor_email, action from admin_audit where target_user_id = ${s.userId}::uuid`),
    );
    expect(audit).toEqual([{ actor_email: "operator (CLI)", action: "disable_2fa" }]);
    const again = await runCliProcess(url(), ["disable-2fa", s.email]);
    expect(again.code).toBe(0);
    expect(again.out).toContain("has no two-factor sign-in on: nothing to turn off.");
  });
});
