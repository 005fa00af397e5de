// The database cut (a TCP proxy in front of the real Postgres) while money moves: an import commit and the
// payment webhook answer 503 with Retry-After and write nothing; once the database is back, the retry
// succeeds and the payment is credited exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServer } from "../../functions/node.ts";
import { getWallet } from "../../lib/billing/wallet.ts";
import { createLogger } from "../../lib/log.ts";
import { billingEnv, paidSession, signedEvent, startPaymentServer, type PaymentServer } from "../support/payment-server.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";
import { startTestServerBehindProxy } from "../support/node-server.ts";
import type { TcpProxy } from "../support/tcp-proxy.ts";

let server: NodeServer;
let proxy: TcpProxy;
let payments: PaymentServer;
let close: () => Promise<void>;
/** What the server logged: shown when an answer is not the expected one. */
const lines: string[] = [];

beforeAll(async () => {
  payments = await startPaymentServer();
  ({ server, proxy, close } = await startTestServerBehindProxy(billingEnv(payments), {
    log: createLogger({ write: (line) => lines.push(line) }),
    queryTimeoutMs: 1500,
  }));
});
afterAll(async () => {
  await close?.();
  await payments?.close();
});

async function signedIn(): Promise<{ cookie: string; userId: string }> {
  const reg = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `outage-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }),
  });
  expect(reg.status).toBe(201);
  return { cookie: reg.headers.getSetCookie()[0]!.split(";")[0]!, userId: ((await reg.json()) as { user: { id: string } }).user.id };
}

const api = (path: string, cookie: string, init: { method?: string; json?: unknown; body?: BodyInit } = {}) =>
  fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { Cookie: cookie, ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });

async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("Retry-After")).toBe("5");
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("SERVICE_UNAVAILABLE");
}

describe("the database cut while money moves", () => {
  it("an import commit answers 503 and writes nothing; after the cut the retry commits it", async () => {
    const { cookie } = await signedIn();
    const account = (await (await api("/api/accounts", cookie, { method: "POST", json: { name: "Cut", currency: "USD", startingBalance: "10000" } })).json()) as { id: string };
    const form = new FormData();
    form.set("file", new Blob([GENERIC_SAMPLE]), "trades.csv");
    form.set("request", JSON.stringify({ accountId: account.id, presetId: "generic" }));
    const preview = (await (await api("/api/csv-import/preview", cookie, { method: "POST", body: form })).json()) as { importId: string };

    await proxy.cut();
    await expectUnavailable(await api("/api/csv-import/commit", cookie, { method: "POST", json: { importId: preview.importId } }));
    await proxy.restore();

    const status = (await (await api(`/api/csv-import/${preview.importId}`, cookie)).json()) as { status: string };
    expect(status.status).toBe("staged");
    expect(((await (await api(`/api/fills?accountId=${account.id}`, cookie)).json()) as { fills: unknown[] }).fills).toHaveLength(0);
    const committed = await api("/api/csv-import/commit", cookie, { method: "POST", json: { importId: preview.importId } });
    expect(committed.status).toBe(200);
    expect(((await (await api(`/api/fills?accountId=${account.id}`, cookie)).json()) as { fills: unknown[] }).fills).toHaveLength(4);
  });

  it("the payment webhook answers 503 (the provider retries) and credits nothing; redelivered after the cut, it credits once", async () => {
    const { cookie, userId } = await signedIn();
    const checkout = await api("/api/billing/checkout", cookie, { method: "POST", json: { packId: "starter" } });
    expect(checkout.status, lines.filter((l) => /"level":"(warn|error)"/.test(l)).join("\n")).toBe(200);
    const sessionId = new URL(((await checkout.json()) as { url: string }).url).pathname.split("/").pop()!;
    const event = await signedEvent("checkout.session.completed", paidSession(payments, sessionId));
    const deliver = () =>
      fetch(`${server.url}/api/billing/webhook`, { method: "POST", body: event.body, headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature } });

    await proxy.cut();
    await expectUnavailable(await deliver());
    await proxy.restore();

    const deps = { db: server.deps.db };
    expect(await getWallet(deps, userId)).toMatchObject({ balance: 0 });
    expect((await deliver()).status).toBe(200);
    expect((await deliver()).status).toBe(200);
    expect(await getWallet(deps, userId)).toMatchObject({ balance: 500, reserved: 0 });
  });

  it("a partition that holds packets (neither delivered nor refused): requests answer 503 within the query timeout, then work again", async () => {
    const { cookie } = await signedIn();
    expect((await api("/api/accounts", cookie)).status).toBe(200);
    proxy.hold();
    try {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 4 }, () => api("/api/accounts", cookie)));
      const took = performance.now() - started;
      for (const res of answers) await expectUnavailable(res);
      // Bounded by the client's timeout (1.5 s here), not by the partition.
      expect(took).toBeLessThan(8000);
    } finally {
      proxy.release();
    }
    await expect.poll(async () => (await api("/api/accounts", cookie)).status, { timeout: 10_000 }).toBe(200);
  });
});
