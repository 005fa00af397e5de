// Billing: the webhook through the real entrypoint (median and p99 of distinct paid-session events) beside the
// same crediting statement run bare; a hold + settle round trip through the domain functions beside the same
// two statements over a bare connection; and 200 concurrent holds on one wallet (throughput, and the latency
// each waited for the wallet's lock).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { placeHold, settleHold } from "../../lib/billing/wallet.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { billingEnv, signedEvent, startPaymentServer } from "../../tests/support/payment-server.ts";
import { testConfig } from "../../tests/support/env.ts";
import { registerBenchUser, request } from "./http.ts";
import { median } from "./startup.ts";

export const WEBHOOK_ROUNDS = 201;
export const CONCURRENT_HOLDS = 200;

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

function paid(userId: string) {
  const id = `cs_bench_${randomUUID()}`;
  return {
    id,
    object: "checkout.session",
    mode: "payment",
    status: "complete",
    payment_status: "paid",
    amount_total: 500,
    currency: "usd",
    payment_intent: `pi_${id}`,
    metadata: { userId, packId: "starter", credits: "500", expectedAmount: "500", expectedCurrency: "usd" },
  };
}

export async function measureBilling(env: Record<string, string>, databaseUrl: string) {
  const stand = await startPaymentServer();
  const server = await startEntrypoint({ ...env, ...billingEnv(stand), DATABASE_URL: databaseUrl });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const handle = await createNodeDb(databaseUrl, { poolSize: 10, transactionPooler: false });
  try {
    const { user } = await registerBenchUser(server.url, "billing");
    // Webhooks: signed beforehand, so the timing is the server's.
    const events = await Promise.all(Array.from({ length: WEBHOOK_ROUNDS + 5 }, () => signedEvent("checkout.session.completed", paid(user.id))));
    const api: number[] = [];
    const bare: number[] = [];
    for (const [i, e] of events.entries()) {
      let started = performance.now();
      const res = await request(`${server.url}/api/billing/webhook`, { method: "POST", headers: { "Content-Type": "application/json", "Stripe-Signature": e.signature }, body: e.body });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
      if (i >= 5) api.push(performance.now() - started);
      const s = paid(user.id);
      started = performance.now();
      await client.query("select billing_credit_purchase($1, 'checkout.session.completed', $2, $3, 'starter', 500, 500, 'usd', $4)", [
        `evt_bare_${randomUUID()}`,
        s.id,
        user.id,
        s.payment_intent,
      ]);
      if (i >= 5) bare.push(performance.now() - started);
    }

    // Hold + settle: the domain functions (drizzle over the pool) beside the same statements on one connection.
    const deps = { db: handle.db, config: testConfig(), now: () => new Date() };
    const domain: number[] = [];
    const statements: number[] = [];
    for (let i = 0; i < 205; i++) {
      let started = performance.now();
      const hold = await placeHold(deps, user.id, randomUUID(), 10);
      await settleHold(deps, hold.id, 3);
      if (i >= 5) domain.push(performance.now() - started);
      const id = randomUUID();
      started = performance.now();
      await client.query("select * from credit_hold_place($1, $2, 10, 1, now() + interval '10 minutes')", [id, user.id]);
      await client.query("select * from credit_hold_end($1, 3, 'settled')", [id]);
      if (i >= 5) statements.push(performance.now() - started);
    }

    // 200 holds at once on one wallet, over a pool of 10 connections: they queue on the wallet's row lock.
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENT_HOLDS }, async () => {
        const t0 = performance.now();
        await placeHold(deps, user.id, randomUUID(), 1);
        latencies.push(performance.now() - t0);
      }),
    );
    const concurrentMs = performance.now() - started;
    await handle.db.execute(sql`select 1`);
    return {
      webhook: { median: median(api), p99: p99(api) },
      webhookBare: { median: median(bare), p99: p99(bare) },
      holdSettle: median(domain),
      holdSettleBare: median(statements),
      concurrentMs,
      holdLatency: { median: median(latencies), p99: p99(latencies) },
    };
  } finally {
    await handle.close();
    await client.end();
    await server.stop();
    await stand.close();
  }
}
