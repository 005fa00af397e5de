// The database cut in the middle of a statement, on the flows that move money: the statement is made to wait
// inside Postgres (a second connection holds the row it needs), the connection is cut while it waits, then
// the lock goes and Postgres finishes the statement for a client that is no longer there. The request
// answers 503; whatever Postgres did is whole (never half an import, half a credit or half a hold), and the
// retry after the cut neither doubles nor loses anything. Also the cut during an advisor turn's stream.
// The real server behind the cuttable TCP proxy (tests/support/tcp-proxy.ts), on the real Postgres.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { NodeServer } from "../../functions/node.ts";
import { getWallet, releaseExpiredHolds } from "../../lib/billing/wallet.ts";
import { createLogger } from "../../lib/log.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { startTestServerBehindProxy } from "../support/node-server.ts";
import { billingEnv, paidSession, signedEvent, startPaymentServer, type PaymentServer } from "../support/payment-server.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { parseSse, type SseEvent } from "../support/sse.ts";
import type { TcpProxy } from "../support/tcp-proxy.ts";

let server: NodeServer;
let proxy: TcpProxy;
let close: () => Promise<void>;
let payments: PaymentServer;
let stand: ProviderServer;
/** Straight to Postgres, beside the proxy: the locks, and what the tests read while the proxy is cut. */
let direct: pg.Pool;
const lines: string[] = [];
const RESERVATION_TTL_MS = 600_000;

beforeAll(async () => {
  payments = await startPaymentServer();
  stand = await startProviderServer();
  direct = new pg.Pool({ connectionString: inject("databaseUrl"), max: 4 });
  ({ server, proxy, close } = await startTestServerBehindProxy(
    { ...billingEnv(payments), ...stand.env, ADVISOR_KEEPALIVE_MS: "200", TRUSTED_PROXIES: "127.0.0.1/32", RESERVATION_TTL_MS: String(RESERVATION_TTL_MS) },
    { log: createLogger({ write: (line) => lines.push(line) }), queryTimeoutMs: 3000 },
  ));
});
afterAll(async () => {
  await close?.();
  await direct?.end();
  await payments?.close();
  await stand?.close();
});

const api = (path: string, cookie: string, init: { method?: string; json?: unknown; body?: BodyInit } = {}) =>
  fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { Cookie: cookie, ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });

let clients = 0;

async function signedIn(): Promise<{ cookie: string; userId: string }> {
  const reg = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    // Each sign-up from its own address (through the trusted proxy): the register limit is per client.
    headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.21.${++clients >> 8}.${clients & 255}` },
    body: JSON.stringify({ email: `faults-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }),
  });
  expect(reg.status).toBe(201);
  return { cookie: reg.headers.getSetCookie()[0]!.split(";")[0]!, userId: ((await reg.json()) as { user: { id: string } }).user.id };
}

async function expectUnavailable(res: Response) {
  expect(res.status, lines.filter((l) => /"level":"error"/.test(l)).join("\n")).toBe(503);
  expect(res.headers.get("Retry-After")).toBe("5");
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("SERVICE_UNAVAILABLE");
}

const one = async <T,>(text: string, params: unknown[] = []): Promise<T> => (await direct.query(text, params)).rows[0] as T;
const wallet = (userId: string) => getWallet({ db: server.deps.db }, userId);

/**
 * Sends `request`; once its statement waits inside Postgres behind `lock` (held by a second connection),
 * applies `fault` to it (given the waiting backend's pid), reads the answer, lets the statement go and
 * waits until that backend has ended (it finishes its statement, then finds its client gone).
 */
async function midStatement<T>(lock: (blocker: pg.PoolClient) => Promise<unknown>, request: () => Promise<T>, fault: (backend: number) => Promise<unknown>): Promise<T> {
  const blocker = await direct.connect();
  try {
    await blocker.query("begin");
    await lock(blocker);
    const me = (await blocker.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
    const pending = request();
    let backend: number | undefined;
    for (let i = 0; i < 400 && backend === undefined; i++) {
      backend = (await direct.query<{ pid: number }>("select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid))", [me])).rows[0]?.pid;
      if (backend === undefined) await new Promise((r) => setTimeout(r, 25));
    }
    if (backend === undefined) throw new Error("the statement never came to wait behind the lock");
    await fault(backend);
    const answer = await pending;
    await blocker.query("commit");
    for (let i = 0; i < 400; i++) {
      if ((await one<{ n: number }>("select count(*)::int as n from pg_stat_activity where pid = $1", [backend])).n === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    return answer;
  } finally {
    blocker.release();
  }
}

/** The proxy cut while the statement waits: the server loses its database, Postgres finishes the statement. */
const cutMidStatement = (lock: (blocker: pg.PoolClient) => Promise<unknown>, request: () => Promise<Response>) =>
  midStatement(lock, request, () => proxy.cut()).finally(() => proxy.restore());

describe("the database cut in the middle of a statement", () => {
  it("an import commit: 503; the import is whole (all of its fills and ledger entries, marked committed) and a retry adds nothing", async () => {
    const { cookie } = await signedIn();
    const account = (await (await api("/api/accounts", cookie, { method: "POST", json: { name: "Mid", currency: "USD", startingBalance: "10000" } })).json()) as { id: string };
    const reference = (await (await api("/api/accounts", cookie, { method: "POST", json: { name: "Reference", currency: "USD", startingBalance: "10000" } })).json()) as { id: string };
    const preview = async (accountId: string) => {
      const form = new FormData();
      form.set("file", new Blob([GENERIC_SAMPLE]), "trades.csv");
      form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
      const res = await api("/api/csv-import/preview", cookie, { method: "POST", body: form });
      expect(res.status).toBe(201);
      return ((await res.json()) as { importId: string }).importId;
    };
    const commit = (importId: string) => api("/api/csv-import/commit", cookie, { method: "POST", json: { importId } });
    expect((await commit(await preview(reference.id))).status).toBe(200);

    const importId = await preview(account.id);
    await expectUnavailable(await cutMidStatement((b) => b.query("select 1 from accounts where id = $1 for update", [account.id]), () => commit(importId)));

    // Postgres finished the statement for the departed client: the import is whole.
    const status = (await (await api(`/api/csv-import/${importId}`, cookie)).json()) as { status: string; fillsCreated: number };
    expect(status).toMatchObject({ status: "committed", fillsCreated: 4 });
    const retry = await commit(importId);
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as { error: { message: string } }).error.message).toMatch(/already committed/);
    // The same fills, cash and trades as the reference account, which committed without a fault.
    const view = async (accountId: string) => {
      const acc = (await (await api(`/api/accounts/${accountId}`, cookie)).json()) as { balance: string };
      const fills = ((await (await api(`/api/fills?accountId=${accountId}`, cookie)).json()) as { fills: unknown[] }).fills.length;
      const ledger = await one<{ n: number }>("select count(*)::int as n from ledger_entries where account_id = $1", [accountId]);
      const trades = ((await (await api(`/api/trades?accountId=${accountId}`, cookie)).json()) as { trades: Array<{ netPnl: string }> }).trades.map((t) => t.netPnl);
      return { balance: acc.balance, fills, ledger: ledger.n, trades };
    };
    expect(await view(account.id)).toEqual(await view(reference.id));
  });

  it("an import commit cut and ended mid-statement: 503, nothing written, the import still staged (not stuck claimed), and the retry commits it", async () => {
    const { cookie } = await signedIn();
    const account = (await (await api("/api/accounts", cookie, { method: "POST", json: { name: "Ended", currency: "USD", startingBalance: "10000" } })).json()) as { id: string };
    const form = new FormData();
    form.set("file", new Blob([GENERIC_SAMPLE]), "trades.csv");
    form.set("request", JSON.stringify({ accountId: account.id, presetId: "generic" }));
    const { importId } = (await (await api("/api/csv-import/preview", cookie, { method: "POST", body: form })).json()) as { importId: string };
    const commit = () => api("/api/csv-import/commit", cookie, { method: "POST", json: { importId } });

    // The statement waits behind the account's lock, having claimed the import; the server loses its
    // database (so nothing could be given back afterwards) and the statement is ended.
    const res = await midStatement(
      (b) => b.query("select 1 from accounts where id = $1 for update", [account.id]),
      commit,
      async (backend) => {
        await proxy.cut();
        await direct.query("select pg_terminate_backend($1)", [backend]);
      },
    ).finally(() => proxy.restore());
    await expectUnavailable(res);
    // One statement claims and applies: ended half-way, it takes its claim with it. (Claimed in a statement of
    // its own, as before, the import stayed 'committing' until the recovery job deleted it ten minutes on.)
    expect(await one<{ status: string }>("select status from csv_imports where id = $1", [importId])).toEqual({ status: "staged" });
    expect(await one<{ n: number }>("select count(*)::int as n from fills where account_id = $1", [account.id])).toEqual({ n: 0 });
    const retry = await commit();
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { fillsCreated: number }).fillsCreated).toBe(4);
  });

  it("an import's commit and undo whose answers are lost after Postgres committed them: the server reads the import again and answers 200 with what happened, done once", async () => {
    const { cookie } = await signedIn();
    const account = (await (await api("/api/accounts", cookie, { method: "POST", json: { name: "Lost answer", currency: "USD", startingBalance: "10000" } })).json()) as { id: string };
    const form = new FormData();
    form.set("file", new Blob([GENERIC_SAMPLE]), "trades.csv");
    form.set("request", JSON.stringify({ accountId: account.id, presetId: "generic" }));
    const { importId } = (await (await api("/api/csv-import/preview", cookie, { method: "POST", body: form })).json()) as { importId: string };
    const status = async () => (await one<{ status: string }>("select status from csv_imports where id = $1", [importId])).status;
    const fills = async () => (await one<{ n: number }>("select count(*)::int as n from fills where account_id = $1", [account.id])).n;
    const balance = async () => ((await (await api(`/api/accounts/${account.id}`, cookie)).json()) as { balance: string }).balance;
    const opening = await balance();

    // The statement waits behind the account's lock; the proxy holds every byte, the lock goes, Postgres commits
    // and answers into the proxy, and the proxy breaks the connection with that answer in it (new ones go through).
    const lostAfterCommit = async (request: () => Promise<Response>, done: string) => {
      const blocker = await direct.connect();
      try {
        await blocker.query("begin");
        await blocker.query("select 1 from accounts where id = $1 for update", [account.id]);
        const me = (await blocker.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
        const pending = request();
        for (let i = 0; i < 400 && !(await one<{ n: number }>("select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))", [me])).n; i++) await new Promise((r) => setTimeout(r, 25));
        proxy.hold();
        await blocker.query("commit");
        for (let i = 0; i < 400 && (await status()) !== done; i++) await new Promise((r) => setTimeout(r, 25));
        expect(await status()).toBe(done);
        proxy.reset();
        return await pending;
      } finally {
        blocker.release();
      }
    };

    const committed = await lostAfterCommit(() => api("/api/csv-import/commit", cookie, { method: "POST", json: { importId } }), "committed");
    expect(committed.status, lines.filter((l) => /"level":"error"/.test(l)).join("\n")).toBe(200);
    expect(await committed.json()).toMatchObject({ importId, status: "committed", fillsCreated: 4 });
    expect(await fills()).toBe(4);
    expect(await balance()).not.toBe(opening);
    const again = await api("/api/csv-import/commit", cookie, { method: "POST", json: { importId } });
    expect(again.status).toBe(409);
    expect(await fills()).toBe(4);

    const undone = await lostAfterCommit(() => api(`/api/csv-import/${importId}/undo`, cookie, { method: "POST" }), "undone");
    expect(undone.status).toBe(200);
    expect(await undone.json()).toMatchObject({ importId, status: "undone" });
    expect(await fills()).toBe(0);
    expect(await balance()).toBe(opening);
  });

  it("a payment webhook: 503 (the provider retries); the purchase is credited once, however often it is redelivered", async () => {
    const { cookie, userId } = await signedIn();
    const checkout = await api("/api/billing/checkout", cookie, { method: "POST", json: { packId: "starter" } });
    expect(checkout.status).toBe(200);
    const sessionId = new URL(((await checkout.json()) as { url: string }).url).pathname.split("/").pop()!;
    const event = await signedEvent("checkout.session.completed", paidSession(payments, sessionId));
    const deliver = () =>
      fetch(`${server.url}/api/billing/webhook`, { method: "POST", body: event.body, headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature } });

    await expectUnavailable(await cutMidStatement((b) => b.query("select wallet_lock($1)", [userId]), deliver));
    expect(await wallet(userId)).toEqual({ balance: 500, reserved: 0, available: 500 });
    for (let i = 0; i < 2; i++) expect((await deliver()).status).toBe(200);
    expect(await wallet(userId)).toEqual({ balance: 500, reserved: 0, available: 500 });
    expect(await one<{ n: number }>("select count(*)::int as n from wallet_movements where user_id = $1 and kind = 'purchase'", [userId])).toEqual({ n: 1 });
  });

  it("an advisor turn's hold: 503 before any stream; the hold Postgres placed goes back through the expiry job and the conversation frees itself within a minute", async () => {
    const { cookie, userId, conversationId } = await advisorUser(500);
    const ask = () => api(`/api/advisor/conversations/${conversationId}/turns`, cookie, { method: "POST", json: { clientMessageId: crypto.randomUUID(), text: "Hello" } });
    const startedAt = Date.now();
    await expectUnavailable(await cutMidStatement((b) => b.query("select wallet_lock($1)", [userId]), ask));

    const held = await wallet(userId);
    expect(held.balance).toBe(500);
    expect(held.reserved).toBeGreaterThan(0);
    expect(await one<{ n: number }>("select count(*)::int as n from advisor_messages where conversation_id = $1", [conversationId])).toEqual({ n: 0 });
    // The claim was taken with a short lease (the messages never arrived), not the turn's whole budget.
    const { until } = await one<{ until: Date }>("select turn_until as until from advisor_conversations where id = $1", [conversationId]);
    expect(until.getTime() - startedAt).toBeLessThanOrEqual(61_000);
    expect((await ask()).status).toBe(409);
    expect(await releaseExpiredHolds({ db: server.deps.db, now: () => new Date(Date.now() + RESERVATION_TTL_MS + 1000) })).toBeGreaterThanOrEqual(1);
    expect(await wallet(userId)).toEqual({ balance: 500, reserved: 0, available: 500 });
  });

  it("an advisor turn's settle: the stream ends with SERVICE_UNAVAILABLE; the charge Postgres recorded is the only one, and the job finds nothing to release", async () => {
    const { cookie, userId, conversationId } = await advisorUser(5000);
    const res = await api(`/api/advisor/conversations/${conversationId}/turns`, cookie, {
      method: "POST",
      json: { clientMessageId: crypto.randomUUID(), text: "Write #slow:100 #chunks:8" },
    });
    expect(res.status).toBe(200);
    const reader = streamReader(res);
    await reader.until((t) => t.includes("event: delta"));
    // The wallet locked while the answer streams: its settle waits in Postgres, where the cut finds it.
    let events: SseEvent[] = [];
    await cutMidStatement(
      (b) => b.query("select wallet_lock($1)", [userId]),
      async () => {
        events = parseSse(await reader.rest()).events;
        return new Response(null);
      },
    );
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "SERVICE_UNAVAILABLE" } });
    const after = await wallet(userId);
    expect(after.reserved).toBe(0);
    const charges = await direct.query<{ amount: string }>("select amount::text from wallet_movements where user_id = $1 and kind = 'charge'", [userId]);
    expect(charges.rows).toHaveLength(1);
    expect(after.balance).toBe(5000 + Number(charges.rows[0]!.amount));
    expect(await releaseExpiredHolds({ db: server.deps.db, now: () => new Date(Date.now() + RESERVATION_TTL_MS + 1000) })).toBe(0);
    expect(await wallet(userId)).toEqual(after);
  });
});

describe("the process killed (kill -9) in the middle of a statement", () => {
  it("a payment webhook: the provider's redelivery to a live process credits the purchase exactly once", async () => {
    const { cookie, userId } = await signedIn();
    const checkout = await api("/api/billing/checkout", cookie, { method: "POST", json: { packId: "starter" } });
    const sessionId = new URL(((await checkout.json()) as { url: string }).url).pathname.split("/").pop()!;
    const event = await signedEvent("checkout.session.completed", paidSession(payments, sessionId));
    const deliver = (base: string) =>
      fetch(`${base}/api/billing/webhook`, { method: "POST", body: event.body, headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature } });

    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const doomed = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), ...billingEnv(payments), DATABASE_URL: inject("databaseUrl") });
    try {
      const answer = await midStatement(
        (b) => b.query("select wallet_lock($1)", [userId]),
        () => deliver(doomed.url).catch((err: unknown) => err),
        async () => {
          doomed.child.kill("SIGKILL");
          await new Promise((resolve) => doomed.child.once("exit", resolve));
        },
      );
      expect(answer).toBeInstanceOf(Error); // the connection died with the process
    } finally {
      await doomed.stop();
    }
    for (let i = 0; i < 3; i++) expect((await deliver(server.url)).status).toBe(200);
    expect(await wallet(userId)).toEqual({ balance: 500, reserved: 0, available: 500 });
    expect(await one<{ n: number }>("select count(*)::int as n from wallet_movements where user_id = $1 and kind = 'purchase'", [userId])).toEqual({ n: 1 });
  }, 60_000);
});

describe("the database cut during an advisor turn's stream", () => {
  it("cut until the answer ends: SERVICE_UNAVAILABLE as the last event, nothing charged (the job returns the hold), the answer stays incomplete", async () => {
    const { cookie, userId, conversationId } = await advisorUser(500);
    const res = await api(`/api/advisor/conversations/${conversationId}/turns`, cookie, {
      method: "POST",
      json: { clientMessageId: crypto.randomUUID(), text: "Write #slow:60 #chunks:10" },
    });
    expect(res.status).toBe(200);
    const reader = streamReader(res);
    await reader.until((t) => t.includes("event: delta"));
    await proxy.cut();
    let events: SseEvent[];
    try {
      events = parseSse(await reader.rest()).events;
    } finally {
      await proxy.restore();
    }
    expect(events.filter((e) => e.event === "delta").length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("could not be saved") } });
    expect(lines.some((l) => l.includes("advisor turn could not be stored"))).toBe(true);
    const held = await wallet(userId);
    expect(held).toMatchObject({ balance: 500 });
    expect(held.reserved).toBeGreaterThan(0);
    await releaseExpiredHolds({ db: server.deps.db, now: () => new Date(Date.now() + RESERVATION_TTL_MS + 1000) });
    expect(await wallet(userId)).toEqual({ balance: 500, reserved: 0, available: 500 });
    const answer = await one<{ status: string; text: string }>("select status, text from advisor_messages where conversation_id = $1 and role = 'assistant'", [conversationId]);
    expect(answer).toEqual({ status: "incomplete", text: "" });
    // The claim it could not release lapses with its lease (a minute), not after the turn budget.
    const { until } = await one<{ until: Date }>("select turn_until as until from advisor_conversations where id = $1", [conversationId]);
    expect(until.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it("cut and restored while it streams: the turn ends normally, stored complete and charged once", async () => {
    const { cookie, userId, conversationId } = await advisorUser(5000);
    const res = await api(`/api/advisor/conversations/${conversationId}/turns`, cookie, {
      method: "POST",
      json: { clientMessageId: crypto.randomUUID(), text: "Write #slow:80 #chunks:10" },
    });
    const reader = streamReader(res);
    await reader.until((t) => t.includes("event: delta"));
    await proxy.cut();
    await new Promise((r) => setTimeout(r, 150));
    await proxy.restore();
    const { events } = parseSse(await reader.rest());
    expect(events.at(-1)).toMatchObject({ event: "done" });
    const usage = events.find((e) => e.event === "usage")!.data as { credits: number };
    expect(await wallet(userId)).toEqual({ balance: 5000 - usage.credits, reserved: 0, available: 5000 - usage.credits });
    const answer = await one<{ status: string }>("select status from advisor_messages where conversation_id = $1 and role = 'assistant'", [conversationId]);
    expect(answer.status).toBe("complete");
  });
});

/** A signed-in user with `credits`, an OpenAI key and a conversation. */
async function advisorUser(credits: number) {
  const { cookie, userId } = await signedIn();
  await direct.query("select wallet_apply($1::uuid, 'admin_grant', $2::bigint, 0, null, 'test', null)", [userId, credits]);
  const saved = await api("/api/advisor/provider-keys/openai", cookie, { method: "PUT", json: { apiKey: `sk-good-${crypto.randomUUID().replaceAll("-", "")}` } });
  expect(saved.status).toBe(200);
  const created = await api("/api/advisor/conversations", cookie, { method: "POST", json: {} });
  expect(created.status).toBe(201);
  return { cookie, userId, conversationId: ((await created.json()) as { id: string }).id };
}

/** An event stream read in two goes: up to a point, then the rest. */
function streamReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  return {
    async until(stop: (soFar: string) => boolean) {
      while (!stop(text)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended early: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    },
    async rest() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}

