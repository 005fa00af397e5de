// Broker sync through the adapters of Alpaca, Kraken and Coinbase (lib/sync/adapters; docs/imports.md "Broker
// sync"), each against its provider's stand-in (tests/support/broker-server.ts, which checks the keys,
// signatures and JWTs as the provider does) and the real Postgres, on a database of its own (the schedule pulls
// every due connection it finds). The same cases for every provider: a first sync of several pages, an
// incremental one from the kept cursor, duplicates across runs, a deleted fill not coming back, a start date,
// refused and revoked credentials (broken, emailed once, skipped by the schedule, mended), the provider's
// rate-limit answer retried with backoff, and what the trader wrote surviving a sync that rebuilds trades and
// its undo.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { createNodeMailer } from "../../lib/email/index.ts";
import type { Provider } from "../../lib/sync/adapter.ts";
import { syncDueConnections } from "../../lib/sync/sync.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { startBrokerServer, type BrokerServer } from "../support/broker-server.ts";
import { brokerAccount, connectionOf, schwabSignIn, syncNow } from "../support/broker-sync.ts";
import type { TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { flexStatement, flexTrade, startFlexServer, type FlexServer } from "../support/flex-server.ts";
import { startSmtpServer, type SmtpTestServer } from "../support/smtp-server.ts";

let db: { name: string; url: string };
let brokers: BrokerServer;
let flex: FlexServer;
/** IBKR's statements: the Trade elements of each account, and the account each token opens. */
const flexTrades = new Map<string, string[]>();
const flexAccounts = new Map<string, string>();
let smtp: SmtpTestServer;
let t: TestApp;
beforeAll(async () => {
  db = await createMigratedDatabase("journal_broker_adapters");
  brokers = await startBrokerServer();
  flex = await startFlexServer();
  brokers.schwab.app.redirectUri = "http://localhost:3100/api/accounts/broker-oauth/schwab/callback";
  smtp = await startSmtpServer({ tls: "none" });
  const env = { ...brokers.env, ...flex.env, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100/" };
  const probe = await testApp(db.url, env);
  t = await testApp(db.url, env, { peer: "per-request", mailer: await createNodeMailer(probe.config) });
});
afterAll(async () => {
  await brokers.close();
  await flex.close();
  await smtp.close();
  await dropDatabase(db.name);
});

/** One execution as the tests think of it; each driver writes it as its provider does. */
type Exec = { n: number; side: "buy" | "sell"; at: string; qty: string; price: string };

/** What a provider's stand-in needs from a test: new keys, executions, and what the keys' refusal names. */
type Driver = {
  provider: Provider;
  symbol: string;
  /** New keys opening the broker's account `acct`, as the PUT's body. */
  keys(acct: string): Record<string, unknown>;
  /** The same provider, keys it does not know, and the field the 400 names (null: no PUT takes its keys, Schwab). */
  wrong(): { body: Record<string, unknown>; field: string } | null;
  /** The start date a connection gets when the test gives none (Schwab reads a year back by default). */
  defaultStart?: string;
  add(acct: string, execs: Exec[]): void;
  revoke(body: Record<string, unknown>): void;
  throttle(n: number): void;
  requests(): string[];
  /** The request's parameter that carries the cursor (null: the provider keeps none, IBKR's statement is its query's period). */
  cursorParam: RegExp | null;
  /** The execution id a fill of `n` is stored under. */
  executionId(n: number): string;
  /** How many records a page holds. */
  pageSize: number;
};

const alpacaId = (n: number) => `20240119093000${String(n).padStart(3, "0")}::5c2f3e4a-0000-4000-8000-${String(n).padStart(12, "0")}`;
const krakenId = (n: number) => `TX${String(n).padStart(4, "0")}-ABCDE-FGHIJK`;
const coinbaseId = (n: number) => `0b0e3f3c-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A time as IBKR's Flex statements write it, in the account's zone (New York): "20240119;093000". */
const flexTime = (at: string) => {
  const p = Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  return `${p.year}${p.month}${p.day};${p.hour}${p.minute}${p.second}`;
};
const flexExecId = (n: number) => `0000e0d5.${String(n).padStart(8, "0")}.01.01`;

const drivers = (): Driver[] => [
  {
    provider: "ibkr-flex",
    symbol: "AAPL",
    keys(acct) {
      const token = `tok${acct.replace(/[^A-Za-z0-9]/g, "").slice(0, 20)}${Math.floor(Math.random() * 1e6)}`;
      flexAccounts.set(token, acct);
      flexTrades.set(acct, flexTrades.get(acct) ?? []);
      flex.statements.set(token, flexStatement(flexTrades.get(acct)!));
      return { provider: "ibkr-flex", token, queryId: "987654" };
    },
    wrong: () => ({ body: { provider: "ibkr-flex", token: "invalid000000000000", queryId: "987654" }, field: "token" }),
    add(acct, execs) {
      const list = flexTrades.get(acct) ?? flexTrades.set(acct, []).get(acct)!;
      for (const e of execs) list.push(flexTrade({ symbol: "AAPL", side: e.side === "buy" ? "BUY" : "SELL", quantity: e.qty, price: e.price, commission: "1", dateTime: flexTime(e.at), execId: flexExecId(e.n) }));
      for (const [token, owner] of flexAccounts) if (owner === acct) flex.statements.set(token, flexStatement(list));
    },
    revoke: (body) => flex.expired.add(String(body.token)),
    throttle: (n) => (flex.throttle = n),
    requests: () => flex.requests.map((r) => `${r.step}?t=${r.t}&q=${r.q}`),
    cursorParam: null,
    executionId: flexExecId,
    pageSize: 20,
  },
  {
    provider: "alpaca",
    symbol: "AAPL",
    keys: (acct) => ({ provider: "alpaca", ...brokers.alpacaKey(acct), paper: true }),
    wrong: () => ({ body: { provider: "alpaca", keyId: "PKUNKNOWN000000000", secret: "0000000000000000000000", paper: true }, field: "keyId" }),
    add(acct, execs) {
      const list = brokers.alpaca.fills.get(acct) ?? brokers.alpaca.fills.set(acct, []).get(acct)!;
      for (const e of execs) {
        list.push({ id: alpacaId(e.n), activity_type: "FILL", transaction_time: e.at, type: "fill", price: e.price, qty: e.qty, side: e.side, symbol: "AAPL", leaves_qty: "0", order_id: crypto.randomUUID(), cum_qty: e.qty, order_status: "filled" });
      }
    },
    revoke: (body) => brokers.alpaca.revoked.add(String(body.keyId)),
    throttle: (n) => (brokers.alpaca.throttle = n),
    requests: () => brokers.alpaca.requests,
    cursorParam: /[?&]after=/,
    executionId: alpacaId,
    pageSize: 100,
  },
  {
    provider: "tastytrade",
    symbol: "AAPL",
    keys: (acct) => ({ provider: "tastytrade", ...brokers.tastyGrant(acct) }),
    wrong: () => ({ body: { provider: "tastytrade", clientSecret: "cs-not-a-secret", refreshToken: "rt.unknown-grant-000000" }, field: "refreshToken" }),
    add(acct, execs) {
      const list = brokers.tastytrade.transactions.get(acct) ?? brokers.tastytrade.transactions.set(acct, []).get(acct)!;
      for (const e of execs) {
        const action = e.side === "buy" ? "Buy to Open" : "Sell to Close";
        const value = (Number(e.qty) * Number(e.price)).toFixed(2);
        list.push({ id: e.n, "transaction-type": "Trade", "transaction-sub-type": action, action, symbol: "AAPL", "instrument-type": "Equity", description: `${e.side} ${e.qty} AAPL @ ${e.price}`, value, "value-effect": e.side === "buy" ? "Debit" : "Credit", quantity: e.qty, price: e.price, commission: "0.0", "clearing-fees": "0.01", "regulatory-fees": "0.0", "proprietary-index-option-fees": "0.0", "underlying-symbol": "AAPL", "executed-at": e.at.replace("Z", "+00:00"), "order-id": 90000 + e.n, "net-value": value, "net-value-effect": e.side === "buy" ? "Debit" : "Credit" });
        list.push({ id: 500000 + e.n, "transaction-type": "Money Movement", "transaction-sub-type": "Balance Adjustment", symbol: "", description: "Regulatory fee adjustment", value: "0.01", "value-effect": "Debit", "executed-at": e.at });
      }
    },
    revoke: (body) => brokers.tastytrade.revoked.add(String(body.refreshToken)),
    throttle: (n) => (brokers.tastytrade.throttle = n),
    requests: () => brokers.tastytrade.requests,
    cursorParam: /[?&]start-at=/,
    executionId: (n) => String(n),
    pageSize: 250,
  },
  {
    provider: "tradovate",
    symbol: "ESH24", // Tradovate's "ESH4", as the journal writes a futures contract
    keys: (acct) => ({ provider: "tradovate", ...brokers.tradovateUser(acct), demo: true }),
    wrong: () => ({ body: { provider: "tradovate", name: "nobody", password: "wrong", appId: "Journal Sync", cid: "1", secret: "0000000000000000" }, field: "name" }),
    add(acct, execs) {
      brokers.tradovate.contracts.set(2287764, "ESH4");
      const list = brokers.tradovate.fills.get(acct) ?? brokers.tradovate.fills.set(acct, []).get(acct)!;
      for (const e of execs) {
        const d = new Date(e.at);
        list.push({ id: e.n, orderId: 80000 + e.n, contractId: 2287764, timestamp: e.at, tradeDate: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, action: e.side === "buy" ? "Buy" : "Sell", qty: Number(e.qty), price: 4800 + Number(e.price), active: true, fee: 1.29 });
      }
    },
    revoke: (body) => brokers.tradovate.revoked.add(String(body.name)),
    throttle: (n) => (brokers.tradovate.throttle = n),
    requests: () => brokers.tradovate.requests,
    cursorParam: /\/fillFee\/ldeps/,
    executionId: (n) => String(n),
    pageSize: 100,
  },
  {
    provider: "schwab",
    symbol: "AAPL",
    keys: (acct) => ({ provider: "schwab", acct }),
    wrong: () => null,
    defaultStart: "2024-01-01",
    add(acct, execs) {
      const list = brokers.schwab.transactions.get(acct) ?? brokers.schwab.transactions.set(acct, []).get(acct)!;
      for (const e of execs) {
        const quantity = Number(e.qty) * (e.side === "buy" ? 1 : -1);
        list.push({
          activityId: e.n,
          time: e.at.replace(/\.\d{3}Z$/, "+0000"),
          type: "TRADE",
          status: "VALID",
          orderId: 70000 + e.n,
          transferItems: [
            { instrument: { assetType: "CURRENCY", symbol: "CURRENCY_USD" }, amount: 0, cost: -0.65, feeType: "COMMISSION" },
            { instrument: { assetType: "EQUITY", symbol: "AAPL" }, amount: quantity, cost: -quantity * Number(e.price), price: Number(e.price), positionEffect: e.side === "buy" ? "OPENING" : "CLOSING" },
          ],
        });
      }
    },
    // The trader's grant is withdrawn at Schwab: its refresh token and its access tokens are refused.
    revoke: (body) => {
      for (const login of brokers.schwab.refreshTokens.values()) if (login.accounts.some((a) => a.hashValue === body.acct)) login.revoked = true;
    },
    throttle: (n) => (brokers.schwab.throttle = n),
    requests: () => brokers.schwab.requests,
    // The run after the first starts its first window at the cursor (the first sync's newest fill), not at the start date.
    cursorParam: /startDate=2024-01-19T/,
    executionId: (n) => String(n),
    pageSize: 40,
  },
  {
    provider: "kraken",
    symbol: "XXBTZUSD",
    keys: (acct) => ({ provider: "kraken", ...brokers.krakenKey(acct) }),
    wrong: () => ({ body: { provider: "kraken", key: "UnknownKey0000000000", secret: Buffer.alloc(64, 7).toString("base64") }, field: "key" }),
    add(acct, execs) {
      const list = brokers.kraken.trades.get(acct) ?? brokers.kraken.trades.set(acct, []).get(acct)!;
      for (const e of execs) {
        list.push({ txid: krakenId(e.n), ordertxid: `O${krakenId(e.n)}`, postxid: "TKH2SE-M7IF5-CFI7LT", pair: "XXBTZUSD", time: Date.parse(e.at) / 1000, type: e.side, ordertype: "limit", price: e.price, cost: "0", fee: "0.26", vol: e.qty, margin: "0.00000", misc: "" });
      }
    },
    revoke: (body) => brokers.kraken.revoked.add(String(body.key)),
    throttle: (n) => (brokers.kraken.throttle = n),
    requests: () => brokers.kraken.requests,
    cursorParam: /[?&]start=/,
    executionId: krakenId,
    pageSize: 50,
  },
  {
    provider: "coinbase",
    symbol: "BTC-USD",
    keys: (acct) => ({ provider: "coinbase", ...brokers.coinbaseKey(acct) }),
    wrong() {
      const { privateKey } = brokers.coinbaseKey("nobody");
      return { body: { provider: "coinbase", keyName: "organizations/unknown/apiKeys/unknown", privateKey }, field: "keyName" };
    },
    add(acct, execs) {
      const list = brokers.coinbase.fills.get(acct) ?? brokers.coinbase.fills.set(acct, []).get(acct)!;
      for (const e of execs) {
        list.push({ entry_id: crypto.randomUUID(), trade_id: coinbaseId(e.n), order_id: crypto.randomUUID(), trade_time: e.at.replace("Z", "123Z").replace(/\.(\d{3})123Z/, ".$1123456Z"), trade_type: "FILL", price: e.price, size: e.qty, commission: "0.5", product_id: "BTC-USD", sequence_timestamp: e.at, side: e.side.toUpperCase(), size_in_quote: false, retail_portfolio_id: "6bd6ce2b-0b4e-4f87-a4b0-7bd1a5e9c5f0" });
      }
    },
    revoke: (body) => brokers.coinbase.revoked.add(String(body.keyName)),
    throttle: (n) => (brokers.coinbase.throttle = n),
    requests: () => brokers.coinbase.requests,
    cursorParam: /[?&]start_sequence_timestamp=/,
    executionId: coinbaseId,
    pageSize: 100,
  },
];

/** Round trips on `day` from 14:30 UTC: a buy and a sell a minute apart, numbered from `first` (the execution ids). */
function roundTrips(first: number, pairs: number, day = "2024-01-19"): Exec[] {
  const execs: Exec[] = [];
  for (let i = 0; i < pairs; i++) {
    const at = (m: number) => new Date(Date.parse(`${day}T14:30:00.000Z`) + m * 60_000).toISOString();
    execs.push({ n: first + 2 * i, side: "buy", at: at(2 * i), qty: "2", price: "100.5" }, { n: first + 2 * i + 1, side: "sell", at: at(2 * i + 1), qty: "2", price: "101" });
  }
  return execs;
}

const account = (client: TestClient) => brokerAccount(client);
async function put(client: TestClient, accountId: string, body: Record<string, unknown>) {
  return client.request(`/api/accounts/${accountId}/broker-connection`, { method: "PUT", json: body });
}
async function connect(client: TestClient, accountId: string, body: Record<string, unknown>) {
  if (body.provider === "schwab") return signInSchwab(client, accountId, body);
  const res = await put(client, accountId, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}
/** Schwab's way: the sign-in (start, Schwab's Allow link, the callback) for the login `body` names; the connection. */
async function signInSchwab(client: TestClient, accountId: string, body: Record<string, unknown>) {
  brokers.schwab.nextLogin = [{ accountNumber: `9999${String(body.acct).slice(0, 4)}`, hashValue: String(body.acct) }];
  const { location } = await schwabSignIn(client, accountId, `?startDate=${String(body.startDate ?? "2024-01-01")}`);
  expect(location.searchParams.get("broker")).toBe("connected");
  return connectionOf(client, accountId);
}
const sync = (client: TestClient, accountId: string) => syncNow(t, client, accountId);
const fillIds = async (accountId: string) =>
  rowsOf<{ execution_id: string }>(await t.deps.db.execute(sql`select execution_id from fills where account_id = ${accountId}::uuid order by executed_at, execution_id`)).map((r) => r.execution_id).sort();

describe.each(drivers().map((d) => [d.provider, d] as const))("broker sync: %s", (_name, d) => {
  it("checks the keys and keeps them sealed, syncs every page, then only what is new from the kept cursor, each fill once", async () => {
    const { client } = await signUp(t, d.provider);
    const accountId = await account(client);
    const acct = crypto.randomUUID();
    const execs = roundTrips(0, d.pageSize + 10); // more than two pages of Kraken's, more than one of the others'
    d.add(acct, execs);
    const keys = d.keys(acct);
    const saved = await connect(client, accountId, keys);
    expect(saved).toMatchObject({ provider: d.provider, verified: true, broken: null, lastRun: null, startDate: d.defaultStart ?? null });
    const [row] = rowsOf<{ ciphertext: string; cursor: string | null }>(await t.deps.db.execute(sql`select ciphertext, cursor from broker_connections where account_id = ${accountId}::uuid`));
    for (const value of Object.values(keys)) if (typeof value === "string" && value !== d.provider) expect(row!.ciphertext).not.toContain(value.slice(0, 12));
    for (const [field, value] of Object.entries(keys)) {
      if (["token", "secret", "privateKey", "password", "refreshToken", "clientSecret"].includes(field)) expect(JSON.stringify(saved)).not.toContain(String(value).slice(0, 12));
    }

    const first = await sync(client, accountId);
    expect(first, first?.error).toMatchObject({ status: "succeeded", imported: execs.length, duplicates: 0, skippedDeleted: 0, error: null });
    expect(await fillIds(accountId)).toEqual(execs.map((e) => d.executionId(e.n)).sort());
    const symbols = rowsOf<{ symbol: string }>(await t.deps.db.execute(sql`select distinct symbol from fills where account_id = ${accountId}::uuid`));
    expect(symbols).toEqual([{ symbol: d.symbol }]);
    const cursor = rowsOf<{ cursor: string | null }>(await t.deps.db.execute(sql`select cursor from broker_connections where account_id = ${accountId}::uuid`))[0]!.cursor;
    if (d.cursorParam) expect(cursor).not.toBeNull();
    else expect(cursor).toBeNull(); // IBKR: the statement is its query's period, no cursor

    // Later: two fills more. The run asks from the cursor and imports those only.
    const later = roundTrips(1000, 1, "2024-01-22");
    d.add(acct, later);
    const before = d.requests().length;
    const second = await sync(client, accountId);
    expect(second).toMatchObject({ status: "succeeded", imported: 2, skippedDeleted: 0 });
    if (d.cursorParam) {
      expect(second.duplicates).toBeLessThanOrEqual(1); // the fill at the cursor itself, where the provider's bound includes it
      expect(d.requests().slice(before).some((r) => d.cursorParam!.test(r))).toBe(true);
    } else expect(second.duplicates).toBe(execs.length); // the statement holds its whole period again: all skipped
    expect((await fillIds(accountId)).length).toBe(execs.length + 2);

    // The same fills again (a third run with nothing new): nothing written.
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 0 });
    expect((await fillIds(accountId)).length).toBe(execs.length + 2);
  });

  it("leaves out a fill the trader deleted (counted in the run) and fills before the start date", async () => {
    const { client } = await signUp(t, `${d.provider}-hygiene`);
    const accountId = await account(client);
    const acct = crypto.randomUUID();
    const execs = roundTrips(2000, 2, "2024-02-05").concat(roundTrips(2100, 2, "2024-02-07"));
    d.add(acct, execs);
    const keys = d.keys(acct);
    // Only what was executed from the 6th (New York) on.
    await connect(client, accountId, { ...keys, startDate: "2024-02-06" });
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 4 });
    expect(await fillIds(accountId)).toEqual(execs.slice(4).map((e) => d.executionId(e.n)).sort());

    const [victim] = rowsOf<{ id: string }>(await t.deps.db.execute(sql`select id::text from fills where account_id = ${accountId}::uuid and execution_id = ${d.executionId(execs[4]!.n)}`));
    expect((await client.request(`/api/fills/${victim!.id}`, { method: "DELETE" })).status).toBe(204);
    // Saved again (the cursor starts afresh): the run reads everything again and brings back nothing deleted.
    await connect(client, accountId, { ...keys, startDate: "2024-02-06" });
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 0, skippedDeleted: 1 });
    expect(await fillIds(accountId)).toEqual(execs.slice(5).map((e) => d.executionId(e.n)).sort());
  });

  it("refuses unknown keys on save (400 naming them, nothing kept); revoked later: the run fails, the connection breaks, one email, the schedule skips it, new keys mend it", async () => {
    const { client, userId } = await signUp(t, `${d.provider}-keys`);
    const email = rowsOf<{ email: string }>(await t.deps.db.execute(sql`select email from users where id = ${userId}::uuid`))[0]!.email;
    const accountId = await account(client);
    const acct = crypto.randomUUID();
    const wrong = d.wrong();
    if (wrong) {
      const refused = await put(client, accountId, wrong.body);
      expect(refused.status).toBe(400);
      const envelope = await refused.json();
      expect(envelope.error.code).toBe("VALIDATION_ERROR");
      expect(envelope.error.fields).toEqual([expect.objectContaining({ path: wrong.field })]);
      expect((await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json()).connection).toBeNull();
    }

    const keys = d.keys(acct);
    await connect(client, accountId, keys);
    d.revoke(keys);
    smtp.messages.length = 0;
    const failed = await sync(client, accountId);
    expect(failed).toMatchObject({ status: "failed", imported: 0 });
    expect(failed.error).toMatch(/refused|lacks|Invalid|sign in to Schwab again|has expired/);
    const again = await sync(client, accountId);
    expect(again.status).toBe("failed");
    await t.settled();
    await smtp.waitFor((m) => m.to.includes(email) && /sync stopped/.test(m.subject));
    const mails = smtp.messages.filter((m) => m.to.includes(email) && /sync stopped/.test(m.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/sync stopped for/);
    const { connection } = await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json();
    expect(connection.broken).toBe(failed.error);
    // The schedule leaves a broken connection alone.
    const runsBefore = (await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json()).runs.length;
    await t.deps.db.execute(sql`update broker_sync_runs set started_at = now() - interval '2 days' where account_id = ${accountId}::uuid`);
    await syncDueConnections(t.deps);
    expect((await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json()).runs.length).toBe(runsBefore);
    // New keys mend it.
    d.add(acct, roundTrips(3000, 1, "2024-03-01"));
    const mended = await connect(client, accountId, d.keys(acct));
    expect(mended.broken).toBeNull();
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded" });
  });

  it("asks again with backoff when the provider limits requests; one that keeps refusing fails the run, writes nothing and does not break the connection", async () => {
    const { client } = await signUp(t, `${d.provider}-429`);
    const accountId = await account(client);
    const acct = crypto.randomUUID();
    d.add(acct, roundTrips(4000, 1, "2024-03-04"));
    await connect(client, accountId, d.keys(acct));
    d.throttle(2);
    const before = d.requests().length;
    const run = await sync(client, accountId);
    expect(run, run?.error).toMatchObject({ status: "succeeded" });
    expect(run.imported).toBeGreaterThan(0);
    expect(d.requests().length - before).toBeGreaterThanOrEqual(3);

    const other = await account(client);
    await connect(client, other, d.keys(acct));
    d.throttle(50);
    const failed = await sync(client, other);
    d.throttle(0);
    expect(failed).toMatchObject({ status: "failed", imported: 0 });
    expect(failed.error).toMatch(/limiting requests|busy|too many requests/);
    expect(await fillIds(other)).toEqual([]);
    expect((await (await client.get(`/api/accounts/${other}/broker-connection`)).json()).connection.broken).toBeNull();
  });

  it("keeps the trader's notes, tags and stop through a sync that rebuilds the trade and through its undo", async () => {
    const { client } = await signUp(t, `${d.provider}-notes`);
    const accountId = await account(client);
    const acct = crypto.randomUUID();
    const day = "2024-04-02";
    const trip = roundTrips(5000, 1, day);
    d.add(acct, trip);
    const keys = d.keys(acct);
    await connect(client, accountId, keys);
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 2 });
    const [trade] = (await (await client.get(`/api/trades?accountId=${accountId}`)).json()).trades;
    const patched = await client.request(`/api/trades/${trade.id}`, { method: "PATCH", json: { notes: "Waited for the retest.", tags: ["breakout"], stopPrice: "99" } });
    expect(patched.status, await patched.clone().text()).toBe(200);

    // An earlier buy the broker reports late: the trade is rebuilt around it. The connection is saved again so
    // the run reads from the start (an incremental run would not look back).
    d.add(acct, [{ n: 4999, side: "buy", at: new Date(Date.parse(trip[0]!.at) - 60_000).toISOString(), qty: "1", price: "100" }]);
    await connect(client, accountId, keys);
    const rebuilt = await sync(client, accountId);
    expect(rebuilt).toMatchObject({ status: "succeeded", imported: 1 });
    const written = async () => (await (await client.get(`/api/trades?accountId=${accountId}`)).json()).trades.find((x: { notes: string | null }) => x.notes !== null);
    expect(await written()).toMatchObject({ notes: "Waited for the retest.", tags: ["breakout"], risk: expect.objectContaining({ stopPrice: expect.stringMatching(/^99(\.0+)?$/) }) });
    expect((await client.post(`/api/csv-import/${rebuilt.importId}/undo`)).status).toBe(200);
    expect(await written()).toMatchObject({ notes: "Waited for the retest.", tags: ["breakout"], risk: expect.objectContaining({ stopPrice: expect.stringMatching(/^99(\.0+)?$/) }) });
  });
});

describe("broker sync: a provider that is down", () => {
  const alpaca = drivers().find((d) => d.provider === "alpaca")!;
  it("asks again after a 503 and goes on; kept down, the run fails saying so, writes nothing, and the connection stays unbroken", async () => {
    const { client } = await signUp(t, "alpaca-503");
    const accountId = await account(client);
    const acct = `PA${crypto.randomUUID().slice(0, 8)}`;
    alpaca.add(acct, roundTrips(7500, 1, "2024-05-02"));
    await connect(client, accountId, alpaca.keys(acct));
    brokers.alpaca.unavailable = 2;
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 2 });
    const other = await account(client);
    await connect(client, other, alpaca.keys(acct));
    brokers.alpaca.unavailable = 50;
    const failed = await sync(client, other);
    brokers.alpaca.unavailable = 0;
    expect(failed).toMatchObject({ status: "failed", imported: 0, error: "Alpaca answered HTTP 503; the next run tries again." });
    expect(await fillIds(other)).toEqual([]);
    expect((await (await client.get(`/api/accounts/${other}/broker-connection`)).json()).connection.broken).toBeNull();
  });
});

describe("broker sync: Alpaca's answers that must not be imported", () => {
  const alpaca = drivers().find((d) => d.provider === "alpaca")!;
  it("keys that now open another account fail the run and break the connection; a truncated answer fails the run and writes nothing", async () => {
    const { client } = await signUp(t, "alpaca-other");
    const accountId = await account(client);
    const acct = `PA${crypto.randomUUID().slice(0, 8)}`;
    alpaca.add(acct, roundTrips(7000, 1, "2024-05-01"));
    const keys = alpaca.keys(acct);
    expect(await connect(client, accountId, keys)).toMatchObject({ accountNumber: acct, paper: true });

    brokers.alpaca.truncated = true;
    const cut = await sync(client, accountId);
    brokers.alpaca.truncated = false;
    expect(cut).toMatchObject({ status: "failed", imported: 0 });
    expect(cut.error).toMatch(/could not be read/);
    expect(await fillIds(accountId)).toEqual([]);
    expect((await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json()).connection.broken).toBeNull();

    brokers.alpaca.keys.get(String(keys.keyId))!.accountNumber = "PAOTHER0001";
    const other = await sync(client, accountId);
    expect(other).toMatchObject({ status: "failed", imported: 0 });
    expect(other.error).toContain("PAOTHER0001");
    expect(await fillIds(accountId)).toEqual([]);
    expect((await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json()).connection.broken).toBe(other.error);
  });
});

describe("broker sync: Tradovate's sessions", () => {
  const tradovate = drivers().find((d) => d.provider === "tradovate")!;
  it("waits out a sign-in penalty and sends its ticket back; renews the kept token on the next run instead of signing in again", async () => {
    const { client } = await signUp(t, "tradovate-session");
    const accountId = await account(client);
    const acct = `Sim${crypto.randomUUID().slice(0, 6)}`;
    tradovate.add(acct, roundTrips(9000, 1, "2024-06-03"));
    brokers.tradovate.penalty = 1;
    const signIns = brokers.tradovate.signIns;
    expect(await connect(client, accountId, tradovate.keys(acct))).toMatchObject({ verified: true, accountName: acct, demo: true });
    expect(brokers.tradovate.penalty).toBe(0);
    expect(brokers.tradovate.requests.filter((r) => r.startsWith("/auth/accesstokenrequest")).length).toBeGreaterThanOrEqual(2);
    expect(brokers.tradovate.signIns).toBe(signIns + 1);
    const renewals = brokers.tradovate.renewals;
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 2 });
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 0 });
    // The token saved with the connection (and each renewed one after) is renewed: no new session.
    expect(brokers.tradovate.signIns).toBe(signIns + 1);
    expect(brokers.tradovate.renewals).toBe(renewals + 2);
  });
});

describe("broker sync: the connection's controls", () => {
  const alpaca = drivers().find((d) => d.provider === "alpaca")!;
  const tasty = drivers().find((d) => d.provider === "tastytrade")!;
  const runsOf = async (client: TestClient, accountId: string) => (await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json()).runs as Array<{ status: string; trigger: string; skipped: Array<{ reason: string; count: number }> }>;

  it("a paused connection is left alone by the schedule and still syncs when asked; resumed, the schedule pulls it again", async () => {
    const { client } = await signUp(t, "pause");
    const accountId = await account(client);
    const acct = `PA${crypto.randomUUID().slice(0, 8)}`;
    alpaca.add(acct, roundTrips(8000, 1, "2024-07-01"));
    await connect(client, accountId, alpaca.keys(acct));
    const patch = (json: unknown) => client.request(`/api/accounts/${accountId}/broker-connection`, { method: "PATCH", json });
    expect((await patch({ paused: "yes" })).status).toBe(400);
    expect((await patch({ paused: true, extra: 1 })).status).toBe(400);
    expect(await (await patch({ paused: true })).json()).toMatchObject({ paused: true, provider: "alpaca" });
    await syncDueConnections(t.deps);
    expect(await runsOf(client, accountId)).toEqual([]);
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 2 });
    expect(await (await patch({ paused: false })).json()).toMatchObject({ paused: false });
    await t.deps.db.execute(sql`update broker_sync_runs set started_at = now() - interval '2 days' where account_id = ${accountId}::uuid`);
    await syncDueConnections(t.deps);
    expect((await runsOf(client, accountId))[0]).toMatchObject({ trigger: "schedule", status: "succeeded" });
    // Another trader cannot pause or test it.
    const stranger = (await signUp(t, "pause-stranger")).client;
    expect((await stranger.request(`/api/accounts/${accountId}/broker-connection`, { method: "PATCH", json: { paused: true } })).status).toBe(404);
    expect((await stranger.post(`/api/accounts/${accountId}/broker-connection/test`)).status).toBe(404);
  });

  it("a test checks the kept keys now and imports nothing: accepted, or refused and the connection broken with the broker's words", async () => {
    const { client } = await signUp(t, "test-keys");
    const accountId = await account(client);
    const acct = `PA${crypto.randomUUID().slice(0, 8)}`;
    alpaca.add(acct, roundTrips(8100, 1, "2024-07-02"));
    const keys = alpaca.keys(acct);
    await connect(client, accountId, keys);
    const ok = await client.post(`/api/accounts/${accountId}/broker-connection/test`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, message: null, connection: { verified: true, broken: null } });
    expect(await fillIds(accountId)).toEqual([]);
    alpaca.revoke(keys);
    const refused = await (await client.post(`/api/accounts/${accountId}/broker-connection/test`)).json();
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/refused/), connection: { broken: expect.stringMatching(/refused/) } });
    expect((await client.post(`/api/accounts/${crypto.randomUUID()}/broker-connection/test`)).status).toBe(404);
  });

  it("each run says what it left out and why, counted per reason", async () => {
    const { client } = await signUp(t, "skipped");
    const accountId = await account(client);
    const acct = `T${crypto.randomUUID().slice(0, 7)}`;
    tasty.add(acct, roundTrips(8200, 2, "2024-07-03")); // each execution comes with a money movement: not a trade
    await connect(client, accountId, tasty.keys(acct));
    const run = await sync(client, accountId);
    expect(run).toMatchObject({ status: "succeeded", imported: 4 });
    expect(run.skipped).toEqual([{ reason: expect.stringMatching(/not a trade/), count: 4 }]);
  });
});
