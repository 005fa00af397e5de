// Connecting Schwab (lib/sync/schwab-oauth.ts, lib/sync/adapters/schwab.ts; docs/imports.md "Broker sync"):
// the trader signs in at Schwab's stand-in (tests/support/broker-server.ts), which checks the app's client
// id, its registered callback, the state's round trip and the PKCE verifier as an authorization server does;
// the sync refreshes the 30-minute token, and a refused refresh asks the trader to sign in again (one email).
// On the real Postgres, a database of its own.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { createNodeMailer } from "../../lib/email/index.ts";
import type { SchwabTransaction } from "../../lib/sync/adapters/schwab.ts";
import { syncDueConnections } from "../../lib/sync/sync.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { startBrokerServer, type BrokerServer } from "../support/broker-server.ts";
import { brokerAccount, connectionOf, schwabSignIn, syncNow } from "../support/broker-sync.ts";
import type { TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startSmtpServer, type SmtpTestServer } from "../support/smtp-server.ts";

const WEB = "http://localhost:3100";
let db: { name: string; url: string };
let brokers: BrokerServer;
let smtp: SmtpTestServer;
let t: TestApp;
beforeAll(async () => {
  db = await createMigratedDatabase("journal_broker_schwab");
  brokers = await startBrokerServer();
  brokers.schwab.app.redirectUri = `${WEB}/api/accounts/broker-oauth/schwab/callback`;
  smtp = await startSmtpServer({ tls: "none" });
  const env = { ...brokers.env, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: `${WEB}/` };
  const probe = await testApp(db.url, env);
  t = await testApp(db.url, env, { peer: "per-request", mailer: await createNodeMailer(probe.config) });
});
afterAll(async () => {
  await brokers.close();
  await smtp.close();
  await dropDatabase(db.name);
});

function trade(id: number, time: string, amount: number, price: number, symbol = "SFM", assetType = "EQUITY"): SchwabTransaction {
  return {
    activityId: id,
    time,
    type: "TRADE",
    status: "VALID",
    orderId: 1000 + id,
    netAmount: -amount * price,
    transferItems: [
      { instrument: { assetType: "CURRENCY", symbol: "CURRENCY_USD" }, amount: 0, cost: -0.65, feeType: "COMMISSION" },
      { instrument: { assetType: "CURRENCY", symbol: "CURRENCY_USD" }, amount: 0, cost: -0.02, feeType: "SEC_FEE" },
      { instrument: { assetType, symbol }, amount, cost: -amount * price, price, positionEffect: amount > 0 ? "OPENING" : "CLOSING" },
    ],
  } as SchwabTransaction;
}

const account = (client: TestClient) => brokerAccount(client, "Schwab");

const signIn = schwabSignIn;

const sync = (client: TestClient, accountId: string) => syncNow(t, client, accountId);
const connection = connectionOf;

describe("broker sync: Schwab", () => {
  it("signs in with state and PKCE, keeps the tokens sealed, syncs the account's trades with their fees, and refreshes the token when it runs out", async () => {
    const { client } = await signUp(t, "schwab");
    const accountId = await account(client);
    const hash = `HASH${crypto.randomUUID().replace(/-/g, "").toUpperCase()}`;
    brokers.schwab.nextLogin = [{ accountNumber: "12345678", hashValue: hash }];
    brokers.schwab.transactions.set(hash, [trade(1, "2024-05-10T14:30:05+0000", 3, 167.3), trade(2, "2024-05-10T15:00:00+0000", -3, 168.1), trade(3, "2024-05-13T14:00:00+0000", 1, 2.15, "SPY   240621C00530000", "OPTION")]);
    brokers.schwab.accessLifetime = 30; // less than the minute the adapter keeps in hand: the next pull refreshes

    const { authorize, allow, location } = await signIn(client, accountId, "?startDate=2024-05-01");
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ response_type: "code", client_id: brokers.schwab.app.clientId, redirect_uri: brokers.schwab.app.redirectUri, code_challenge_method: "S256", scope: "api" });
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(allow.searchParams.get("state")).toBe(authorize.searchParams.get("state"));
    expect(location.toString()).toBe(`${WEB}/accounts/${accountId}?broker=connected`);
    expect(await connection(client, accountId)).toMatchObject({ provider: "schwab", accountTail: "5678", startDate: "2024-05-01", verified: true, broken: null, needsReauth: false });
    expect(JSON.stringify(await connection(client, accountId))).not.toContain(hash);
    const [row] = rowsOf<{ ciphertext: string }>(await t.deps.db.execute(sql`select ciphertext from broker_connections where account_id = ${accountId}::uuid`));
    const refresh = [...brokers.schwab.refreshTokens.keys()].at(-1)!;
    expect(row!.ciphertext).not.toContain(refresh.slice(0, 12));
    // The flow is used once: the same callback again is refused, nothing changes.
    const again = await client.request(`${allow.pathname}${allow.search}`, { redirect: "manual" });
    expect(new URL(again.headers.get("location")!).searchParams.get("brokerError")).toMatch(/not yours or has expired/);

    const grants = brokers.schwab.grants.length;
    const run = await sync(client, accountId);
    expect(run, run?.error).toMatchObject({ status: "succeeded", imported: 3 });
    expect(brokers.schwab.grants.slice(grants)).toEqual(["refresh_token"]);
    const fills = rowsOf<{ symbol: string; side: string; quantity: string; fees: string; execution_id: string; order_id: string }>(
      await t.deps.db.execute(sql`select symbol, side, quantity::text, fees::text, execution_id, order_id from fills where account_id = ${accountId}::uuid and execution_id is not null order by executed_at`),
    );
    expect(fills.map((f) => [f.symbol, f.side, Number(f.quantity), Number(f.fees), f.execution_id, f.order_id])).toEqual([
      ["SFM", "buy", 3, 0.67, "1", "1001"],
      ["SFM", "sell", 3, 0.67, "2", "1002"],
      ["SPY   240621C00530000", "buy", 1, 0.67, "3", "1003"],
    ]);
  });

  it("refuses a callback that is not the user's own sign-in, a replayed or forged code, and an app that is not set up", async () => {
    const { client } = await signUp(t, "schwab-state");
    const other = (await signUp(t, "schwab-thief")).client;
    const accountId = await account(client);
    brokers.schwab.nextLogin = [{ accountNumber: "99990001", hashValue: "HASHA" }];
    const start = await client.request(`/api/accounts/${accountId}/broker-connection/oauth/schwab/start`, { redirect: "manual" });
    const page = await (await fetch(start.headers.get("location")!)).text();
    const allow = new URL(/href="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, "&"));
    // Another signed-in user following the link (login CSRF): refused, nothing stored for either.
    const stolen = await other.request(`${allow.pathname}${allow.search}`, { redirect: "manual" });
    expect(new URL(stolen.headers.get("location")!).searchParams.get("brokerError")).toMatch(/not yours/);
    // A code that is not Schwab's, with the right state: Schwab refuses it, the flow is spent.
    const forged = new URL(allow);
    forged.searchParams.set("code", "C0.forged@");
    const refused = await client.request(`${forged.pathname}${forged.search}`, { redirect: "manual" });
    expect(new URL(refused.headers.get("location")!).searchParams.get("brokerError")).toMatch(/Schwab refused the sign-in \(invalid_grant\)/);
    expect(await connection(client, accountId)).toBeNull();
    // Schwab's own refusal on its page (the trader pressed Cancel).
    const start2 = await client.request(`/api/accounts/${accountId}/broker-connection/oauth/schwab/start`, { redirect: "manual" });
    const state = new URL(start2.headers.get("location")!).searchParams.get("state")!;
    const cancelled = await client.request(`/api/accounts/broker-oauth/schwab/callback?error=access_denied&state=${encodeURIComponent(state)}`, { redirect: "manual" });
    expect(new URL(cancelled.headers.get("location")!).searchParams.get("brokerError")).toMatch(/access_denied/);
    expect(await connection(client, accountId)).toBeNull();
    // Several accounts and no choice: told to give the last four digits; with them, connected.
    brokers.schwab.nextLogin = [{ accountNumber: "11110001", hashValue: "HASHB" }, { accountNumber: "22220002", hashValue: "HASHC" }];
    expect((await signIn(client, accountId)).location.searchParams.get("brokerError")).toMatch(/several accounts \(…0001, …0002\)/);
    expect((await signIn(client, accountId, "?accountTail=0002")).location.searchParams.get("broker")).toBe("connected");
    expect(await connection(client, accountId)).toMatchObject({ accountTail: "0002" });
    // Bad input on start: 400, never a redirect.
    expect((await client.request(`/api/accounts/${accountId}/broker-connection/oauth/schwab/start?accountTail=12`, { redirect: "manual" })).status).toBe(400);
    // Another trader's account: 404.
    expect((await other.request(`/api/accounts/${accountId}/broker-connection/oauth/schwab/start`, { redirect: "manual" })).status).toBe(404);
    // An instance without a Schwab app: 409 saying so.
    const bare = await testApp(db.url, {});
    const { client: lonely } = await signUp(bare, "schwab-bare");
    const lonelyAccount = await account(lonely);
    const off = await lonely.request(`/api/accounts/${lonelyAccount}/broker-connection/oauth/schwab/start`, { redirect: "manual" });
    expect(off.status).toBe(409);
    expect((await off.json()).error.message).toMatch(/SCHWAB_CLIENT_ID/);
    // A PUT cannot make a Schwab connection (there is no key to give).
    const put = await client.request(`/api/accounts/${accountId}/broker-connection`, { method: "PUT", json: { provider: "schwab" } });
    expect(put.status).toBe(400);
  });

  it("a refused refresh asks the trader to sign in again (needsReauth, one email), the schedule skips it, and a new sign-in mends it; past 7 days Schwab is not even asked", async () => {
    const { client, userId } = await signUp(t, "schwab-reauth");
    const email = rowsOf<{ email: string }>(await t.deps.db.execute(sql`select email from users where id = ${userId}::uuid`))[0]!.email;
    const accountId = await account(client);
    brokers.schwab.nextLogin = [{ accountNumber: "55556666", hashValue: "HASHR" }];
    brokers.schwab.accessLifetime = 30;
    await signIn(client, accountId);
    const refresh = [...brokers.schwab.refreshTokens.entries()].at(-1)!;
    refresh[1].revoked = true;
    const failed = await sync(client, accountId);
    expect(failed).toMatchObject({ status: "failed", imported: 0 });
    expect(failed.error).toMatch(/sign in to Schwab again/);
    expect(await connection(client, accountId)).toMatchObject({ needsReauth: true, broken: failed.error });
    await t.settled();
    await smtp.waitFor((m) => m.to.includes(email) && /Schwab sync stopped/.test(m.subject));
    expect(await sync(client, accountId)).toMatchObject({ status: "failed" });
    await t.settled();
    expect(smtp.messages.filter((m) => m.to.includes(email) && /sync stopped/.test(m.subject))).toHaveLength(1);
    await t.deps.db.execute(sql`update broker_sync_runs set started_at = now() - interval '2 days' where account_id = ${accountId}::uuid`);
    const before = (await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json()).runs.length;
    await syncDueConnections(t.deps);
    expect((await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json()).runs.length).toBe(before);
    // A new sign-in mends it.
    await signIn(client, accountId);
    expect(await connection(client, accountId)).toMatchObject({ needsReauth: false, broken: null });
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded" });

    // Eight days later (the app's clock): the refresh token is over, the run says so without asking Schwab.
    const later = await testApp(db.url, { ...brokers.env, WEB_BASE_URL: `${WEB}/` }, { peer: "per-request", now: () => new Date(Date.now() + 8 * 24 * 3_600_000) });
    const grants = brokers.schwab.grants.length;
    await t.deps.db.execute(sql`update broker_sync_runs set started_at = now() - interval '2 days' where account_id = ${accountId}::uuid`);
    await syncDueConnections(later.deps);
    const { runs } = await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json();
    expect(runs[0]).toMatchObject({ status: "failed", trigger: "schedule" });
    expect(runs[0].error).toMatch(/every 7 days/);
    expect(brokers.schwab.grants.length).toBe(grants);
  });
});
