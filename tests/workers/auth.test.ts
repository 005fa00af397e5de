import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { totpCode } from "../../lib/auth/two-factor.ts";
import { SoftwareAuthenticator } from "../support/authenticator.ts";
import { inOneWindow } from "../support/window.ts";
import { testSql } from "./sql.ts";

// The auth routes inside workerd: scrypt through node:crypto, sessions over the serverless driver.
const base = "http://journal.test";

function cookieFrom(res: Response): string {
  const line = res.headers.getSetCookie().find((l) => l.startsWith("journal_session="));
  if (!line) throw new Error("no session cookie");
  return line.split(";")[0]!;
}

async function post(path: string, body: unknown, cookie?: string, ip = `192.0.2.${Math.floor(Math.random() * 250) + 1}`) {
  return exports.default.fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip, ...(cookie ? { Cookie: cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("auth in workerd", () => {
  it("registers, reads /me, signs out, and the old cookie stops working", async () => {
    const email = `w-${crypto.randomUUID()}@example.com`;
    const registered = await post("/api/auth/register", { email, password: "workers password" });
    expect(registered.status).toBe(201);
    const { user } = await registered.json<{ user: { id: string; email: string } }>();
    expect(user.email).toBe(email);
    const cookie = cookieFrom(registered);

    const me = await exports.default.fetch(`${base}/api/auth/me`, { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect((await me.json<{ user: { id: string } }>()).user.id).toBe(user.id);

    expect((await post("/api/auth/logout", undefined, cookie)).status).toBe(204);
    const after = await exports.default.fetch(`${base}/api/auth/me`, { headers: { Cookie: cookie } });
    expect(after.status).toBe(401);
    const rows = await testSql()`select count(*)::int as n from sessions where user_id = ${user.id}`;
    expect(rows[0]!.n).toBe(0);
  });

  it("answers a wrong password and an unknown email identically, and signs in with the right one", async () => {
    const email = `w-${crypto.randomUUID()}@example.com`;
    expect((await post("/api/auth/register", { email, password: "workers password" })).status).toBe(201);
    const wrong = await post("/api/auth/login", { email, password: "not the password" });
    const unknown = await post("/api/auth/login", { email: `nobody-${crypto.randomUUID()}@example.com`, password: "not the password" });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const a = await wrong.json<{ error: { code: string; message: string } }>();
    const b = await unknown.json<{ error: { code: string; message: string } }>();
    expect([a.error.code, a.error.message]).toEqual([b.error.code, b.error.message]);
    const ok = await post("/api/auth/login", { email: email.toUpperCase(), password: "workers password" });
    expect(ok.status).toBe(200);
  });

  it("two-factor sign-in: set up, turned on with a code, then the password gives a challenge and a code signs in", async () => {
    const email = `w-${crypto.randomUUID()}@example.com`;
    const registered = await post("/api/auth/register", { email, password: "workers password" });
    const cookie = cookieFrom(registered);
    const setup = await post("/api/auth/2fa/totp/setup", {}, cookie);
    expect(setup.status).toBe(200);
    const { secret } = await setup.json<{ secret: string }>();
    const now = Date.now();
    // The previous step's code turns it on, so this step's is still unused for the sign-in.
    const on = await post("/api/auth/2fa/totp/enable", { code: totpCode(secret, new Date(now - 30_000)) }, cookie);
    expect(on.status).toBe(200);
    expect((await on.json<{ backupCodes: string[] }>()).backupCodes).toHaveLength(10);
    const login = await post("/api/auth/login", { email, password: "workers password" });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie()).toEqual([]);
    const { challenge } = await login.json<{ challenge: string }>();
    expect((await post("/api/auth/login/2fa", { challenge, code: "000000" })).status).toBe(401);
    const signedIn = await post("/api/auth/login/2fa", { challenge, code: totpCode(secret, new Date(now)) });
    expect(signedIn.status).toBe(200);
    const me = await exports.default.fetch(`${base}/api/auth/me`, { headers: { Cookie: cookieFrom(signedIn) } });
    expect(me.status).toBe(200);
  });

  it("passkeys: added, then a sign-in of their own, through @simplewebauthn/server in workerd", async () => {
    const email = `w-${crypto.randomUUID()}@example.com`;
    const cookie = cookieFrom(await post("/api/auth/register", { email, password: "workers password" }));
    // The relying party is the host the request came to: journal.test.
    const authenticator = new SoftwareAuthenticator(base);
    const start = await post("/api/passkeys/options", {}, cookie);
    expect(start.status).toBe(200);
    const flow = await start.json<{ flowId: string; options: { challenge: string; rp: { id: string }; user: { id: string } } }>();
    expect(flow.options.rp.id).toBe("journal.test");
    const added = await post("/api/passkeys", { flowId: flow.flowId, name: "Laptop", credential: await authenticator.create(flow.options) }, cookie);
    expect(added.status).toBe(201);
    const signIn = await (await post("/api/passkeys/sign-in/options", {})).json<{ flowId: string; options: { challenge: string; rpId: string } }>();
    const signedIn = await post("/api/passkeys/sign-in", { flowId: signIn.flowId, credential: await authenticator.get(signIn.options) });
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json<{ user: { email: string } }>()).user.email).toBe(email);
  });

  it("limits registration per client address (CF-Connecting-IP)", async () => {
    const statuses = await inOneWindow(900, async () => {
      const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        seen.push((await post("/api/auth/register", { email: `rl-${crypto.randomUUID()}@example.com`, password: "workers password" }, undefined, ip)).status);
      }
      return seen;
    });
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
