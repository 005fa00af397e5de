// Broker sync from Interactive Brokers' Flex Web Service (lib/sync; docs/imports.md "Broker sync"), against
// the service's stand-in (tests/support/flex-server.ts) and the real Postgres, on a database of its own (the
// schedule pulls every due connection it finds).
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { createNodeMailer } from "../../lib/email/index.ts";
import { syncDueConnections } from "../../lib/sync/sync.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { syncNow } from "../support/broker-sync.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { flexStatement, flexTrade, startFlexServer, type FlexServer } from "../support/flex-server.ts";
import { startSmtpServer } from "../support/smtp-server.ts";

let db: { name: string; url: string };
let flex: FlexServer;
let t: TestApp;
beforeAll(async () => {
  db = await createMigratedDatabase("journal_broker_sync");
  flex = await startFlexServer();
  t = await testApp(db.url, flex.env, { peer: "per-request" });
});
afterAll(async () => {
  await flex.close();
  await dropDatabase(db.name);
});

const GOOD = "goodtoken1234567890abcd";
const trade = (n: number, side: "BUY" | "SELL", minute: number) =>
  flexTrade({ symbol: "AAPL", side, quantity: "100", price: side === "BUY" ? "191.5" : "192.25", commission: "1", dateTime: `20240119;09${String(30 + minute).padStart(2, "0")}00`, execId: `0000e0d5.65aa${String(n).padStart(4, "0")}.01.01` });

async function account(client: TestClient) {
  return (await (await client.post("/api/accounts", { name: `IBKR ${crypto.randomUUID()}`, currency: "USD", timezone: "America/New_York" })).json()).id as string;
}

/** Connects an account and runs a sync to its end. */
async function connect(client: TestClient, accountId: string, token = GOOD) {
  const res = await client.request(`/api/accounts/${accountId}/broker-connection`, { method: "PUT", json: { provider: "ibkr-flex", token, queryId: "987654" } });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}
const sync = (client: TestClient, accountId: string) => syncNow(t, client, accountId);
const fillCount = async (accountId: string) =>
  rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from fills where account_id = ${accountId}::uuid`))[0]!.n;

describe("broker sync: Interactive Brokers' Flex Web Service", () => {
  it("connects with a checked token stored sealed, pulls a ready statement into an undoable import, and skips what it has", async () => {
    const { client } = await signUp(t, "flex");
    const accountId = await account(client);
    flex.statement = flexStatement([trade(1, "BUY", 0), trade(2, "SELL", 5)]);
    const saved = await connect(client, accountId);
    expect(saved).toEqual({ provider: "ibkr-flex", queryId: "987654", startDate: null, tokenHintTail: "abcd", verified: true, broken: null, needsReauth: false, paused: false, lastRun: null });
    // The token is never stored or returned in the clear; the service was asked with it and our User-Agent.
    const [row] = rowsOf<{ ciphertext: string }>(await t.deps.db.execute(sql`select ciphertext from broker_connections where account_id = ${accountId}::uuid`));
    expect(row!.ciphertext).not.toContain(GOOD);
    const shown = await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json();
    expect(shown).toEqual({ connection: saved });
    expect(JSON.stringify(shown)).not.toContain(GOOD);
    expect(flex.requests.at(-1)).toMatchObject({ step: "SendRequest", t: GOOD, q: "987654" });
    expect(flex.requests.at(-1)!.userAgent).toMatch(/^TradingJournal\//);
    // The key rotation and the start-up check see it (the sealed_secrets view).
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from sealed_secrets where provider = ${`broker:${accountId}`}`))).toHaveLength(1);

    const first = await sync(client, accountId);
    expect(first).toMatchObject({ trigger: "manual", status: "succeeded", imported: 2, duplicates: 0, error: null });
    expect(await fillCount(accountId)).toBe(2);
    const { imports } = await (await client.get(`/api/csv-import/history?accountId=${accountId}`)).json();
    expect(imports[0]).toMatchObject({ importId: first.importId, presetId: "ibkr-flex", fillsCreated: 2, fileName: expect.stringMatching(/^Interactive Brokers sync \d{4}-\d{2}-\d{2}\.csv$/) });
    const { trades } = await (await client.get(`/api/trades?accountId=${accountId}`)).json();
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ symbol: "AAPL", status: "closed", grossPnl: "75.00", fees: "2.00", netPnl: "73.00" });

    // What the trader wrote on the trade stays through every run that rebuilds its symbol, and through an undo.
    const note = { notes: "Faded the open", tags: ["fade"], stopPrice: "190" };
    expect((await client.request(`/api/trades/${trades[0].id}`, { method: "PATCH", json: note })).status).toBe(200);
    const written = async () => (await (await client.get(`/api/trades?accountId=${accountId}&symbol=AAPL`)).json()).trades.find((x: { notes: string | null }) => x.notes !== null);
    // The next statement repeats both executions and adds one: only the new one is written.
    flex.statement = flexStatement([trade(1, "BUY", 0), trade(2, "SELL", 5), trade(3, "BUY", 20)]);
    const second = await sync(client, accountId);
    expect(second).toMatchObject({ status: "succeeded", imported: 1, duplicates: 2 });
    expect(await fillCount(accountId)).toBe(3);
    // A run is an import: undone from the history, its fill goes, and the next run brings it back.
    expect(await written()).toMatchObject({ notes: "Faded the open", tags: ["fade"] });
    expect((await client.post(`/api/csv-import/${second.importId}/undo`)).status).toBe(200);
    expect(await fillCount(accountId)).toBe(2);
    expect(await written()).toMatchObject({ notes: "Faded the open", tags: ["fade"] });
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 1, duplicates: 2 });
    expect(await fillCount(accountId)).toBe(3);
    expect(await written()).toMatchObject({ notes: "Faded the open", tags: ["fade"], risk: expect.objectContaining({ stopPrice: "190.00" }) });
    // Nothing new: a run with nothing to write.
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 0, duplicates: 3, importId: null });
    expect((await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json()).connection.lastRun).toMatchObject({ imported: 0, duplicates: 3 });
  });

  it("a start date keeps older fills out; a fill deleted by hand never comes back; an execution from a file and a sync is stored once", async () => {
    const { client } = await signUp(t, "flex-hygiene");
    const accountId = await account(client);
    // The 18th (before the start date, in New York) and two trades of the 19th.
    const older = flexTrade({ symbol: "MSFT", side: "BUY", quantity: "10", price: "390", commission: "1", dateTime: "20240118;153000", execId: "0000e0d5.65bb0001.01.01" });
    flex.statement = flexStatement([older, trade(11, "BUY", 0), trade(12, "SELL", 5)]);
    const res = await client.request(`/api/accounts/${accountId}/broker-connection`, { method: "PUT", json: { provider: "ibkr-flex", token: GOOD, queryId: "987654", startDate: "2024-01-19" } });
    expect(res.status).toBe(200);
    expect((await res.json()).startDate).toBe("2024-01-19");
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 2, duplicates: 0, skippedDeleted: 0 });
    const symbols = async () => (await (await client.get(`/api/fills?accountId=${accountId}`)).json()).fills.map((f: { symbol: string }) => f.symbol).sort();
    expect(await symbols()).toEqual(["AAPL", "AAPL"]);

    // The trader deletes the sell by hand: the next run leaves it out and says so, every time.
    const { fills } = await (await client.get(`/api/fills?accountId=${accountId}`)).json();
    const sell = fills.find((f: { side: string }) => f.side === "sell");
    expect((await client.delete(`/api/fills/${sell.id}`)).status).toBe(204);
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 0, duplicates: 1, skippedDeleted: 1, importId: null });
    expect(await sync(client, accountId)).toMatchObject({ imported: 0, skippedDeleted: 1 });
    expect(await fillCount(accountId)).toBe(1);

    // The same executions from a CSV of another account's statement and a sync: one fill each, never two.
    const other = await account(client);
    const header = '"ClientAccountID","CurrencyPrimary","AssetClass","Symbol","Description","Conid","TradeID","Multiplier","Strike","Expiry","DateTime","Put/Call","TradeDate","Exchange","Quantity","TradePrice","Proceeds","IBCommission","IBCommissionCurrency","NetCash","Open/CloseIndicator","Buy/Sell","IBOrderID","IBExecID","LevelOfDetail"';
    const row = (exec: string, qty: string, price: string, at: string, side: string) =>
      `"U1234567","USD","STK","AAPL","APPLE INC","265598","1","1","","","${at}","","20240119","NASDAQ","${qty}","${price}","0","-1","USD","0","O","${side}","1","${exec}","EXECUTION"`;
    const form = new FormData();
    form.set("file", new Blob([[header, row("0000e0d5.65aa0011.01.01", "100", "191.5", "20240119;093000", "BUY")].join("\n")]), "flex.csv");
    form.set("request", JSON.stringify({ accountId: other, presetId: "ibkr-flex" }));
    const preview = await (await client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
    expect((await client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
    await connect(client, other);
    flex.statement = flexStatement([trade(11, "BUY", 0), trade(12, "SELL", 5)]);
    expect(await sync(client, other)).toMatchObject({ status: "succeeded", imported: 1, duplicates: 1 });
    expect(await fillCount(other)).toBe(2);
    expect((await client.request(`/api/accounts/${other}/broker-connection`, { method: "PUT", json: { provider: "ibkr-flex", token: GOOD, queryId: "987654", startDate: "2024-13-01" } })).status).toBe(400);
  });

  it("reads a statement set up as CSV the way the ibkr-flex preset reads an upload", async () => {
    const { client } = await signUp(t, "flex-csv");
    const accountId = await account(client);
    await connect(client, accountId, "csvtoken000011112222");
    flex.statement = readFileSync(new URL("../fixtures/brokers/ibkr-flex.csv", import.meta.url), "utf8");
    // The preset's sample: seven fills, the forex conversion listed as skipped.
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 7, duplicates: 0, error: null });
  });

  it("waits while the statement is generated, and retries a throttled request", async () => {
    const { client } = await signUp(t, "flex-wait");
    const accountId = await account(client);
    const token = "throttled9876543210wxyz";
    await connect(client, accountId, token); // its first SendRequest is throttled (1018), the retry succeeds
    expect(flex.requests.filter((r) => r.t === token && r.step === "SendRequest")).toHaveLength(2);
    flex.statement = flexStatement([trade(11, "BUY", 0)]);
    flex.pendingPolls = 2;
    try {
      const run = await sync(client, accountId);
      expect(run).toMatchObject({ status: "succeeded", imported: 1 });
      const reference = flex.requests.filter((r) => r.t === token && r.step === "GetStatement");
      expect(reference).toHaveLength(3); // two "in progress" answers, then the statement
    } finally {
      flex.pendingPolls = 0;
    }
  });

  it("refuses a token or query the service refuses on save (nothing kept); a token that expires later breaks the connection and the schedule skips it", async () => {
    const { client } = await signUp(t, "flex-bad");
    const accountId = await account(client);
    const put = (body: unknown) => client.request(`/api/accounts/${accountId}/broker-connection`, { method: "PUT", json: body });
    for (const [body, path] of [
      [{ provider: "ibkr-flex", token: "expired0000000000000000", queryId: "987654" }, "token"],
      [{ provider: "ibkr-flex", token: GOOD, queryId: "404" }, "queryId"],
      [{ provider: "ibkr-flex", token: "short", queryId: "987654" }, "token"],
      [{ provider: "ibkr-flex", token: GOOD, queryId: "12ab" }, "queryId"],
      [{ provider: "schwab", token: GOOD, queryId: "1" }, "provider"],
      [{ provider: "ibkr-flex", token: GOOD, queryId: "1", extra: true }, ""],
    ] as const) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe("VALIDATION_ERROR");
      if (path) expect(error.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    const expiredOnSave = await (await put({ provider: "ibkr-flex", token: "expired0000000000000000", queryId: "987654" })).json();
    expect(expiredOnSave.error.message).toMatch(/token has expired/);
    expect(await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json()).toEqual({ connection: null });

    const token = "lapsing1111222233334444";
    await connect(client, accountId, token);
    flex.expired.add(token);
    const run = await sync(client, accountId);
    expect(run).toMatchObject({ status: "failed", imported: 0 });
    expect(run.error).toMatch(/error 1012.*token has expired/);
    const { connection: broken } = await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json();
    expect(broken).toMatchObject({ verified: false, broken: expect.stringMatching(/token has expired/) });
    // Broken: the schedule leaves it alone until a new token is saved.
    const before = flex.requests.length;
    await syncDueConnections(t.deps);
    expect(flex.requests.slice(before).filter((r) => r.t === token)).toEqual([]);
    const fixed = await connect(client, accountId, "fresh5555666677778888");
    expect(fixed).toMatchObject({ verified: true, broken: null });
  });

  it("tells the trader by email, once, when the broker stops accepting the token", async () => {
    const smtp = await startSmtpServer({ tls: "none" });
    try {
      const env = { ...flex.env, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port), SMTP_TLS_MODE: "none", EMAIL_FROM: "journal@example.com", WEB_BASE_URL: "http://localhost:3100/" };
      const probe = await testApp(db.url, env);
      const mailing = await testApp(db.url, env, { peer: "per-request", mailer: await createNodeMailer(probe.config) });
      const { client } = await signUp(mailing, "flex-mail");
      const accountId = (await (await client.post("/api/accounts", { name: "Main IBKR", currency: "USD" })).json()).id as string;
      const token = "mailtoken00001111222";
      expect((await client.request(`/api/accounts/${accountId}/broker-connection`, { method: "PUT", json: { provider: "ibkr-flex", token, queryId: "987654" } })).status).toBe(200);
      flex.expired.add(token);
      for (let i = 0; i < 2; i++) {
        expect((await client.post(`/api/accounts/${accountId}/broker-connection/sync`)).status).toBe(202);
        await mailing.settled();
      }
      const mail = await smtp.waitFor((m) => m.subject.includes("Main IBKR"));
      expect(mail.subject).toBe('Interactive Brokers sync stopped for "Main IBKR"');
      expect(mail.text).toContain("token has expired");
      expect(mail.text).toContain(`http://localhost:3100/accounts/${accountId}`);
      expect(mail.text).not.toContain(token);
      // Two failed runs, one email.
      expect(smtp.messages.filter((m) => m.subject.includes("Main IBKR"))).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  it("a malformed statement or one cut off halfway fails the run and writes nothing; a run whose process died is failed by the job", async () => {
    const { client } = await signUp(t, "flex-broken");
    const accountId = await account(client);
    await connect(client, accountId);
    flex.statement = flexStatement([trade(21, "BUY", 0), trade(22, "SELL", 3)]);
    try {
      flex.mode = "malformed";
      const malformed = await sync(client, accountId);
      expect(malformed).toMatchObject({ status: "failed", imported: 0 });
      expect(malformed.error).toMatch(/not well-formed XML|cannot read/);
      flex.mode = "cut";
      const cut = await sync(client, accountId);
      expect(cut).toMatchObject({ status: "failed", imported: 0 });
      expect(await fillCount(accountId)).toBe(0);
    } finally {
      flex.mode = "ok";
    }
    // A run left "running" by a process that stopped: failed after its lease, and the account can run again.
    await t.deps.db.execute(sql`insert into broker_sync_runs (account_id, trigger, started_at) values (${accountId}::uuid, 'schedule', now() - interval '1 hour')`);
    expect((await client.post(`/api/accounts/${accountId}/broker-connection/sync`)).status).toBe(202); // the running one's id, no second run
    await syncDueConnections(t.deps);
    const { runs } = await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json();
    expect(runs.some((r: { status: string; error: string | null }) => r.status === "failed" && /interrupted/.test(r.error ?? ""))).toBe(true);
    expect(await sync(client, accountId)).toMatchObject({ status: "succeeded", imported: 2 });
  });

  it("the schedule on two processes at once: one run per due connection, its fills written once", async () => {
    const { client } = await signUp(t, "flex-schedule");
    const accountId = await account(client);
    await connect(client, accountId, "sched0000111122223333");
    flex.statement = flexStatement([trade(31, "BUY", 0), trade(32, "SELL", 7)]);
    // Every other connection of this database has run within the hour: only this one is due.
    const other = await createNodeDb(db.url, { poolSize: 4, transactionPooler: false });
    try {
      const [a, b] = await Promise.all([syncDueConnections(t.deps), syncDueConnections({ ...t.deps, db: other.db })]);
      expect(a + b).toBe(1);
    } finally {
      await other.close();
    }
    const { runs } = await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: "schedule", status: "succeeded", imported: 2 });
    expect(await fillCount(accountId)).toBe(2);
    // Pulled: not due again.
    expect(await syncDueConnections(t.deps)).toBe(0);
  });

  it("another trader's account is 404 on every route, and disconnecting keeps the imports", async () => {
    const { client } = await signUp(t, "flex-owner");
    const accountId = await account(client);
    await connect(client, accountId);
    const stranger = (await signUp(t, "flex-stranger")).client;
    for (const [method, path] of [["GET", ""], ["PUT", ""], ["DELETE", ""], ["POST", "/sync"], ["GET", "/runs"]] as const) {
      const res = await stranger.request(`/api/accounts/${accountId}/broker-connection${path}`, { method, ...(method === "PUT" ? { json: { provider: "ibkr-flex", token: GOOD, queryId: "1" } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await client.request(`/api/accounts/${accountId}/broker-connection`, { method: "DELETE" })).status).toBe(204);
    expect(await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json()).toEqual({ connection: null });
    expect((await client.request(`/api/accounts/${accountId}/broker-connection`, { method: "DELETE" })).status).toBe(404);
  });
});
