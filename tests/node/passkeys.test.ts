// Passkeys (docs/auth.md, "Passkeys") through a software authenticator (tests/support/authenticator.ts): added in
// two steps, listed, a sign-in of their own (user verification required), asked for after the password as a
// second factor, each ceremony's challenge used once, an answer from another origin or a replayed one refused,
// removed with the password, and cleared by the operator's disable-2fa. On the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { SoftwareAuthenticator } from "../support/authenticator.ts";
import { runCliProcess } from "../support/cli.ts";
import { PASSWORD, TestClient, uniqueEmail } from "../support/client.ts";
import { startTestServer } from "../support/node-server.ts";

const url = () => inject("databaseUrl");
// app.request() answers for http://localhost: the relying party is "localhost", the page's origin this.
const ORIGIN = "http://localhost";

type Flow = { flowId: string; options: { challenge: string; rp?: { id: string }; rpId?: string; user?: { id: string }; allowCredentials?: Array<{ id: string }> } };

async function setup() {
  const t: TestApp = await testApp(url(), {}, { peer: "per-request" });
  const email = uniqueEmail("passkey");
  const client = t.client();
  const reg = await client.post("/api/auth/register", { email, password: PASSWORD });
  expect(reg.status).toBe(201);
  const userId = ((await reg.json()) as { user: { id: string } }).user.id;
  return { t, email, client, userId };
}

async function addPasskey(client: TestClient, authenticator: SoftwareAuthenticator, name = "MacBook") {
  const start = await client.post("/api/passkeys/options", {});
  expect(start.status).toBe(200);
  const flow = (await start.json()) as Flow;
  expect(flow.options.rp?.id).toBe("localhost");
  const added = await client.post("/api/passkeys", { flowId: flow.flowId, name, credential: await authenticator.create(flow.options) });
  expect(added.status).toBe(201);
  return (await added.json()) as { id: string; name: string };
}

async function passkeySignIn(t: TestApp, authenticator: SoftwareAuthenticator, tamper?: { origin?: string }) {
  const client = t.client();
  const flow = (await (await client.post("/api/passkeys/sign-in/options", {})).json()) as Flow;
  const res = await client.post("/api/passkeys/sign-in", { flowId: flow.flowId, credential: await authenticator.get(flow.options, undefined, tamper) });
  return { res, client, flow };
}

describe("passkeys", () => {
  it("end to end through the real server: an answer replayed byte for byte, and one signed over another flow's challenge, are refused", async () => {
    const server = await startTestServer();
    try {
      // The page's origin as a browser reports it: a host name (passkeys take no IP address).
      const base = `http://localhost:${new URL(server.url).port}`;
      const authenticator = new SoftwareAuthenticator(base);
      const owner = new TestClient(base);
      const email = uniqueEmail("passkey-e2e");
      expect((await owner.post("/api/auth/register", { email, password: PASSWORD })).status).toBe(201);
      await addPasskey(owner, authenticator);
      const fresh = () => new TestClient(base);
      const optionsOf = async (client: TestClient) => (await (await client.post("/api/passkeys/sign-in/options", {})).json()) as Flow;

      // The genuine ceremony signs in; the very same bytes sent again (a captured answer replayed) do not.
      const browser = fresh();
      const flow = await optionsOf(browser);
      const answer = await authenticator.get(flow.options);
      const signedIn = await browser.post("/api/passkeys/sign-in", { flowId: flow.flowId, credential: answer });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.getSetCookie().some((c) => c.startsWith("journal_session="))).toBe(true);
      const replayed = await fresh().post("/api/passkeys/sign-in", { flowId: flow.flowId, credential: answer });
      expect(replayed.status).toBe(401);
      expect(((await replayed.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "UNAUTHORIZED", message: "The passkey was not accepted." });
      expect(replayed.headers.getSetCookie()).toEqual([]);

      // A foreign challenge: signed over flow A's challenge, sent with flow B's id (B is live and unused), is refused.
      const a = await optionsOf(fresh());
      const b = await optionsOf(fresh());
      const overA = await authenticator.get(a.options);
      expect((await fresh().post("/api/passkeys/sign-in", { flowId: b.flowId, credential: overA })).status).toBe(401);
      // An invented challenge (one the server never issued) is refused too.
      const invented = await authenticator.get({ ...b.options, challenge: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url") });
      expect((await fresh().post("/api/passkeys/sign-in", { flowId: b.flowId, credential: invented })).status).toBe(401);
      // The refusals spent flow B (each flow takes one answer, right or wrong): its own answer now is late; a new flow signs in.
      expect((await fresh().post("/api/passkeys/sign-in", { flowId: b.flowId, credential: await authenticator.get(b.options) })).status).toBe(401);
      const again = await optionsOf(fresh());
      expect((await fresh().post("/api/passkeys/sign-in", { flowId: again.flowId, credential: await authenticator.get(again.options) })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("added in two steps and listed; then a sign-in of their own, each flow used once; another origin is refused", async () => {
    const s = await setup();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const added = await addPasskey(s.client, authenticator);
    expect(added).toMatchObject({ name: "MacBook" });
    const list = (await (await s.client.get("/api/passkeys")).json()) as { passkeys: Array<{ id: string; lastUsedAt: string | null }> };
    expect(list.passkeys).toEqual([expect.objectContaining({ id: added.id, name: "MacBook", lastUsedAt: null, backedUp: false })]);

    const { res, client, flow } = await passkeySignIn(s.t, authenticator);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe(s.email);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    // The same flow again (a replayed answer): refused.
    const replay = await s.t.client().post("/api/passkeys/sign-in", { flowId: flow.flowId, credential: await authenticator.get(flow.options) });
    expect(replay.status).toBe(401);
    // An answer made for another site's page: refused.
    expect((await passkeySignIn(s.t, authenticator, { origin: "https://phish.example" })).res.status).toBe(401);
    // A signature counter that does not move on is a cloned authenticator's: refused.
    await s.t.deps.db.execute(sql`update passkeys set counter = 1000 where user_id = ${s.userId}::uuid`);
    expect((await passkeySignIn(s.t, authenticator)).res.status).toBe(401);
    // Without user verification the passkey is one factor: not a sign-in of its own.
    const lax = new SoftwareAuthenticator(ORIGIN, false);
    await addPasskey(s.client, lax, "Security key");
    expect((await passkeySignIn(s.t, lax)).res.status).toBe(401);
    const [used] = rowsOf<{ n: number }>(await s.t.deps.db.execute(sql`select count(*)::int as n from passkeys where user_id = ${s.userId}::uuid and last_used_at is not null`));
    expect(used!.n).toBe(1);
  });

  it("asked for after the password like a code: the password alone gives a challenge naming the passkey; the passkey's answer signs in", async () => {
    const s = await setup();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await addPasskey(s.client, authenticator);
    const login = await s.t.client().post("/api/auth/login", { email: s.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.headers.get("set-cookie")).toBeNull();
    const { challenge, methods } = (await login.json()) as { challenge: string; methods: string[] };
    expect(methods).toEqual(["passkey"]);
    const optionsRes = await s.t.client().post("/api/passkeys/second-step/options", { challenge });
    expect(optionsRes.status).toBe(200);
    const options = (await optionsRes.json()) as Flow["options"];
    expect(options.allowCredentials).toHaveLength(1);
    // A code where a passkey is the only factor: refused like a wrong password.
    expect((await s.t.client().post("/api/auth/login/2fa", { challenge, code: "123456" })).status).toBe(401);
    const client = s.t.client();
    const signedIn = await client.post("/api/passkeys/second-step", { challenge, credential: await authenticator.get(options) });
    expect(signedIn.status).toBe(200);
    expect((await client.get("/api/auth/me")).status).toBe(200);
    // Another account's challenge cannot be answered with this passkey.
    const other = await setup();
    await addPasskey(other.client, new SoftwareAuthenticator(ORIGIN));
    const theirs = (await (await other.t.client().post("/api/auth/login", { email: other.email, password: PASSWORD })).json()) as { challenge: string };
    const theirOptions = (await (await other.t.client().post("/api/passkeys/second-step/options", { challenge: theirs.challenge })).json()) as Flow["options"];
    expect((await s.t.client().post("/api/passkeys/second-step", { challenge: theirs.challenge, credential: await authenticator.get(theirOptions) })).status).toBe(401);
  });

  it("removed with the password; bad answers and flows are refused and write nothing; the operator clears them", async () => {
    const s = await setup();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const added = await addPasskey(s.client, authenticator);
    // A registration answer that does not verify (made for another origin), and a spent flow.
    const start = (await (await s.client.post("/api/passkeys/options", {})).json()) as Flow;
    const wrong = await new SoftwareAuthenticator("https://phish.example").create(start.options);
    const refused = await s.client.post("/api/passkeys", { flowId: start.flowId, credential: wrong });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { fields: unknown } }).error.fields).toEqual([{ path: "credential", message: "was not accepted" }]);
    expect((await s.client.post("/api/passkeys", { flowId: start.flowId, credential: await authenticator.create(start.options) })).status).toBe(409);
    expect((await s.client.post("/api/passkeys", { flowId: "x".repeat(40), credential: { id: "a" } })).status).toBe(400);
    const count = async () => rowsOf(await s.t.deps.db.execute(sql`select 1 from passkeys where user_id = ${s.userId}::uuid`)).length;
    expect(await count()).toBe(1);

    const del = (password: string) => s.client.request(`/api/passkeys/${added.id}`, { method: "DELETE", json: { password } });
    expect((await del("not it")).status).toBe(400);
    expect(await count()).toBe(1);
    expect((await del(PASSWORD)).status).toBe(204);
    expect(await count()).toBe(0);
    expect((await del(PASSWORD)).status).toBe(404);

    await addPasskey(s.client, authenticator, "Phone");
    const cli = await runCliProcess(url(), ["disable-2fa", s.email]);
    expect(cli.code, cli.out).toBe(0);
    expect(await count()).toBe(0);
    const plain = await s.t.client().post("/api/auth/login", { email: s.email, password: PASSWORD });
    expect(((await plain.json()) as { user?: object }).user).toBeDefined();
    const [audit] = rowsOf<{ details: { passkeys: number; totp: boolean } | string }>(
      await s.t.deps.db.execute(sql`select details from admin_audit where target_user_id = ${s.userId}::uuid and action = 'disable_2fa'`),
    );
    const details = typeof audit!.details === "string" ? JSON.parse(audit!.details) : audit!.details;
    expect(details).toEqual({ totp: false, passkeys: 1 });
  });
});
