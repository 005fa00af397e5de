// Billing against a local stand-in for the payment provider's API (the official SDK, form-encoded requests)
// and webhooks signed with the SDK's own helper, on the real Postgres: checkout writes nothing; the webhook
// credits exactly once per event and per checkout session, only what was paid as asked; refunds and disputes
// take back in proportion, never below zero; subscription events move the plan, newest first.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { placeHold, settleHold } from "../../lib/billing/wallet.ts";
import { testApp, signUp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { inOneWindow } from "../support/window.ts";
import { billingEnv, paidSession, signedEvent, startPaymentServer, type PaymentServer } from "../support/payment-server.ts";

const url = () => inject("databaseUrl");
let stand: PaymentServer;
let t: TestApp;
beforeAll(async () => {
  stand = await startPaymentServer();
  t = await testApp(url(), billingEnv(stand), { peer: "per-request" });
});
afterAll(() => stand?.close());

async function wallet(client: TestClient) {
  const res = await client.get("/api/billing/wallet");
  expect(res.status).toBe(200);
  return res.json() as Promise<{ balance: number; reserved: number; available: number }>;
}

const deliver = (body: string, signature: string | null) =>
  t.client().request("/api/billing/webhook", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", ...(signature ? { "Stripe-Signature": signature } : {}) },
  });

async function checkout(client: TestClient, packId = "starter") {
  const res = await client.post("/api/billing/checkout", { packId });
  expect(res.status, await res.clone().text()).toBe(200);
  const { url: page } = (await res.json()) as { url: string };
  return page.split("/").pop()!;
}

async function events(where: string) {
  return rowsOf<{ id: string; outcome: string }>(await t.deps.db.execute(sql.raw(`select id, outcome from payment_events where ${where}`)));
}

describe("packs, wallet and checkout", () => {
  it("a new user has an empty wallet; the packs come from configuration", async () => {
    const { client } = await signUp(t, "wallet");
    expect(await wallet(client)).toEqual({ balance: 0, reserved: 0, available: 0 });
    const packs = await (await client.get("/api/billing/packs")).json();
    expect(packs.packs.map((p: { id: string }) => p.id)).toEqual(["starter", "standard", "large"]);
    expect(packs.packs[0]).toEqual({ id: "starter", name: "Starter: 500 credits", credits: 500, priceCents: 500, currency: "usd" });
    const config = await (await client.get("/api/config")).json();
    expect(config).toMatchObject({ billing: true, pro: true, packs: packs.packs, proPrice: { id: "price_pro_monthly", amountCents: 1500, currency: "usd", interval: "month" } });
  });

  it("checkout opens the provider's page for the configured price, with what the webhook checks, and writes nothing", async () => {
    const { client, userId } = await signUp(t, "checkout");
    const sessionId = await checkout(client, "standard");
    const sent = stand.requests.find((r) => r.path === "/v1/checkout/sessions" && r.form["metadata[userId]"] === userId)!;
    expect(sent.form).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1000",
      "metadata[packId]": "standard",
      "metadata[credits]": "1050",
      "metadata[expectedAmount]": "1000",
      "metadata[expectedCurrency]": "usd",
      success_url: "https://journal.example.com/settings/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://journal.example.com/settings/billing?checkout=cancelled",
    });
    expect(sent.idempotencyKey).toEqual(expect.stringContaining(userId));
    expect(stand.sessions.has(sessionId)).toBe(true);
    // One customer per user, remembered.
    await checkout(client, "large");
    expect(stand.requests.filter((r) => r.path === "/v1/customers" && r.form["metadata[userId]"] === userId)).toHaveLength(1);
    expect(await wallet(client)).toEqual({ balance: 0, reserved: 0, available: 0 });
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from wallet_movements where user_id = ${userId}`))).toEqual([]);
  });

  it("refuses an unknown pack (400 UNKNOWN_PACK), a bad body (400), an 11th checkout in a minute (429), and maps a provider failure to 502", async () => {
    // The minute is a fixed window aligned to the clock: a run across its edge is counted again, so it is run
    // once more, by a new user, when it straddled one; what it saw is checked after.
    const seen = await inOneWindow(60, async () => {
      const { client } = await signUp(t, "refusals");
      const unknown = await client.post("/api/billing/checkout", { packId: "gold" });
      const bad: number[] = [];
      for (const body of [{}, { packId: "" }, { packId: 5 }, { packId: "starter", priceCents: 1 }]) bad.push((await client.post("/api/billing/checkout", body)).status);
      stand.fail = 500;
      const down = await client.post("/api/billing/checkout", { packId: "starter" });
      stand.fail = null;
      // Every checkout request counts, refused ones included: six so far, four more make ten.
      const allowed: number[] = [];
      for (let i = 0; i < 4; i++) allowed.push((await client.post("/api/billing/checkout", { packId: "starter" })).status);
      const limited = await client.post("/api/billing/checkout", { packId: "starter" });
      return { unknown: { status: unknown.status, body: await unknown.json() }, bad, down: { status: down.status, body: await down.json() }, allowed, limited: { status: limited.status, retryAfter: limited.headers.get("Retry-After") } };
    });
    expect(seen.unknown.status).toBe(400);
    expect(seen.unknown.body.error.code).toBe("UNKNOWN_PACK");
    expect(seen.bad).toEqual([400, 400, 400, 400]);
    expect(seen.down.status).toBe(502);
    expect(seen.down.body.error).toMatchObject({ code: "PAYMENT_PROVIDER_ERROR", message: expect.stringContaining("Nothing was charged") });
    expect(seen.allowed).toEqual([200, 200, 200, 200]);
    expect(seen.limited.status).toBe(429);
    expect(seen.limited.retryAfter).toMatch(/^\d+$/);
  });

  it("without a configured provider: packs still listed, checkout 402 BILLING_NOT_AVAILABLE, no webhook path", async () => {
    const off = await testApp(url(), {}, { peer: "per-request" });
    const { client } = await signUp(off, "off");
    expect((await client.get("/api/billing/packs")).status).toBe(200);
    const res = await client.post("/api/billing/checkout", { packId: "starter" });
    expect(res.status).toBe(402);
    expect((await res.json()).error.code).toBe("BILLING_NOT_AVAILABLE");
    expect((await client.post("/api/billing/subscription/checkout")).status).toBe(402);
    expect((await off.client().request("/api/billing/webhook", { method: "POST", body: "{}" })).status).toBe(404);
    expect(await (await client.get("/api/config")).json()).toMatchObject({ billing: false, pro: false });
  });
});

describe("the webhook credits exactly once", () => {
  it("the same event ten times at once credits once; a second event for the session credits nothing", async () => {
    const { client, userId } = await signUp(t, "once");
    const sessionId = await checkout(client);
    const completed = await signedEvent("checkout.session.completed", paidSession(stand, sessionId));
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(completed.body, completed.signature)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const outcomes = await Promise.all(answers.map(async (a) => (await a.json()).outcome));
    expect(outcomes.filter((o) => o === "credited")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate_event")).toHaveLength(9);
    expect(await wallet(client)).toEqual({ balance: 500, reserved: 0, available: 500 });

    const async = await signedEvent("checkout.session.async_payment_succeeded", paidSession(stand, sessionId));
    expect(await (await deliver(async.body, async.signature)).json()).toMatchObject({ outcome: "duplicate_session" });
    expect(await wallet(client)).toMatchObject({ balance: 500 });
    const history = await (await client.get("/api/billing/transactions")).json();
    expect(history.transactions).toEqual([
      expect.objectContaining({ kind: "purchase", amount: 500, balanceAfter: 500, reference: sessionId, note: "starter" }),
    ]);
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from credit_purchases where user_id = ${userId}`))).toHaveLength(1);
  });

  it("refuses a bad or missing signature and a delivery signed 10 minutes ago with 400, writing nothing", async () => {
    const { client } = await signUp(t, "signature");
    const sessionId = await checkout(client);
    const event = await signedEvent("checkout.session.completed", paidSession(stand, sessionId));
    const forged = await signedEvent("checkout.session.completed", paidSession(stand, sessionId), { id: event.id, secret: "whsec_not_ours" });
    const stale = await signedEvent("checkout.session.completed", paidSession(stand, sessionId), { id: event.id, timestamp: Math.floor(Date.now() / 1000) - 600 });
    for (const [body, signature] of [
      [forged.body, forged.signature],
      [event.body, null],
      [stale.body, stale.signature],
      [event.body.replace('"paid"', '"PAID"'), event.signature], // the body changed after signing
    ] as const) {
      const res = await deliver(body, signature);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("INVALID_SIGNATURE");
    }
    expect(await events(`id = '${event.id}'`)).toEqual([]);
    expect(await wallet(client)).toMatchObject({ balance: 0 });
    // The genuine delivery still credits.
    expect(await (await deliver(event.body, event.signature)).json()).toMatchObject({ outcome: "credited" });
  });

  it("records and acknowledges, but never credits, a payment that differs from its checkout or is not paid yet", async () => {
    const { client } = await signUp(t, "mismatch");
    const sessionId = await checkout(client);
    for (const overrides of [{ amount_total: 400 }, { currency: "eur" }, { metadata: { userId: "not-a-user" } }]) {
      const event = await signedEvent("checkout.session.completed", paidSession(stand, sessionId, overrides));
      const res = await deliver(event.body, event.signature);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ outcome: "mismatch" });
    }
    const pending = await signedEvent("checkout.session.completed", paidSession(stand, sessionId, { payment_status: "unpaid" }));
    expect(await (await deliver(pending.body, pending.signature)).json()).toMatchObject({ outcome: "awaiting_payment" });
    expect(await wallet(client)).toMatchObject({ balance: 0 });
    // The bank transfer arrives later: credited then.
    const paid = await signedEvent("checkout.session.async_payment_succeeded", paidSession(stand, sessionId));
    expect(await (await deliver(paid.body, paid.signature)).json()).toMatchObject({ outcome: "credited" });
    expect(await wallet(client)).toMatchObject({ balance: 500 });
    const unknown = await signedEvent("customer.created", { id: "cus_x", object: "customer" });
    expect(await (await deliver(unknown.body, unknown.signature)).json()).toMatchObject({ outcome: "ignored" });
  });
});

describe("refunds and disputes", () => {
  async function bought(tag: string) {
    const { client, userId } = await signUp(t, tag);
    const sessionId = await checkout(client, "standard"); // 1,050 credits for 10.00
    const paid = await signedEvent("checkout.session.completed", paidSession(stand, sessionId));
    await deliver(paid.body, paid.signature);
    return { client, userId, paymentIntent: `pi_${sessionId}` };
  }
  const refunded = (paymentIntent: string, cents: number) =>
    signedEvent("charge.refunded", { id: `ch_${paymentIntent}`, object: "charge", payment_intent: paymentIntent, amount: 1000, amount_refunded: cents, refunded: cents === 1000 });

  it("a partial refund takes back its share, the full refund only the rest, a replay nothing", async () => {
    const { client, paymentIntent } = await bought("refund");
    const half = await refunded(paymentIntent, 500);
    expect(await (await deliver(half.body, half.signature)).json()).toMatchObject({ outcome: "reversed" });
    expect(await wallet(client)).toMatchObject({ balance: 525 });
    expect(await (await deliver(half.body, half.signature)).json()).toMatchObject({ outcome: "duplicate_event" });
    const full = await refunded(paymentIntent, 1000);
    await deliver(full.body, full.signature);
    expect(await wallet(client)).toMatchObject({ balance: 0 });
    const again = await refunded(paymentIntent, 1000);
    expect(await (await deliver(again.body, again.signature)).json()).toMatchObject({ outcome: "nothing_to_take" });
    const kinds = (await (await client.get("/api/billing/transactions")).json()).transactions.map((m: { kind: string; amount: number }) => [m.kind, m.amount]);
    expect(kinds).toEqual([["refund", -525], ["refund", -525], ["purchase", 1050]]);
  });

  it("a dispute takes back what is left, never below zero or into held credits: the shortfall is recorded", async () => {
    const { client, userId, paymentIntent } = await bought("dispute");
    // 1,000 of the 1,050 credits were spent, 30 are held by a turn in flight.
    await placeHold(t.deps, userId, crypto.randomUUID(), 1000).then((h) => settleHold(t.deps, h.id, 1000));
    await placeHold(t.deps, userId, crypto.randomUUID(), 30);
    expect(await wallet(client)).toEqual({ balance: 50, reserved: 30, available: 20 });
    const dispute = await signedEvent("charge.dispute.created", { id: "dp_1", object: "dispute", payment_intent: paymentIntent, charge: `ch_${paymentIntent}`, amount: 1000 });
    expect(await (await deliver(dispute.body, dispute.signature)).json()).toMatchObject({ outcome: "reversed" });
    expect(await wallet(client)).toEqual({ balance: 30, reserved: 30, available: 0 });
    const [w] = rowsOf<{ shortfall: string }>(await t.deps.db.execute(sql`select shortfall::text from wallets where user_id = ${userId}`));
    expect(w!.shortfall).toBe("1030");
  });
});

describe("the Pro subscription", () => {
  const subEvent = (type: string, userId: string, status: string, created: number, id = "sub_1") =>
    signedEvent(type, { id: `${id}_${userId}`, object: "subscription", customer: "cus_x", status, metadata: { userId } }, { created });
  const plan = async (userId: string) =>
    rowsOf<{ plan: string }>(await t.deps.db.execute(sql`select plan from users where id = ${userId}`))[0]!.plan;

  it.each(["reset", "garbage", "hang"] as const)(
    "a provider that %s: checkout and the Pro checkout answer 502 with nothing charged and nothing stored; the retry works",
    async (fault) => {
      const { client, userId } = await signUp(t, `fault-${fault}`);
      stand.fail = fault;
      try {
        // A provider that hangs is given up after two tries of 8 s: one call is enough to see it.
        for (const path of fault === "hang" ? ["/api/billing/checkout"] : ["/api/billing/checkout", "/api/billing/subscription/checkout"]) {
          const res = await client.post(path, path.endsWith("/checkout") && !path.includes("subscription") ? { packId: "starter" } : {});
          expect(res.status, path).toBe(502);
          expect((await res.json()).error).toMatchObject({ code: "PAYMENT_PROVIDER_ERROR", message: expect.stringContaining("Nothing was charged") });
        }
      } finally {
        stand.fail = null;
      }
      const stored = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from billing_customers where user_id = ${userId}`));
      expect(stored[0]!.n).toBe(0);
      expect(await wallet(client)).toEqual({ balance: 0, reserved: 0, available: 0 });
      await checkout(client);
    },
    40_000,
  );

  it("subscription events move the plan; an older event arriving late changes nothing", async () => {
    const { client, userId } = await signUp(t, "pro");
    const checkoutRes = await client.post("/api/billing/subscription/checkout");
    expect(checkoutRes.status).toBe(200);
    const sent = stand.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(sent.form).toMatchObject({ mode: "subscription", "line_items[0][price]": "price_pro_monthly", "subscription_data[metadata][userId]": userId });

    const now = Math.floor(Date.now() / 1000);
    for (const [type, status, at, expected] of [
      ["customer.subscription.created", "active", now, "pro"],
      ["customer.subscription.updated", "past_due", now + 10, "pro"],
      ["customer.subscription.deleted", "canceled", now + 20, "free"],
      ["customer.subscription.updated", "active", now + 5, "free"], // late: older than the deletion
    ] as const) {
      const e = await subEvent(type, userId, status, at);
      expect((await deliver(e.body, e.signature)).status).toBe(200);
      expect(await plan(userId), `${type} ${status}`).toBe(expected);
    }
    // Pro again with a new subscription; the user cannot buy it twice.
    const renewed = await subEvent("customer.subscription.created", userId, "active", now + 30, "sub_2");
    await deliver(renewed.body, renewed.signature);
    expect(await plan(userId)).toBe("pro");
    const twice = await client.post("/api/billing/subscription/checkout");
    expect(twice.status).toBe(409);
    // Its portal opens on the remembered customer.
    const portal = await client.post("/api/billing/subscription/portal");
    expect(portal.status).toBe(200);
    expect((await portal.json()).url).toMatch(/\/portal\/cus_/);
  });

  it("invoice events follow the subscription; a user with no billing customer has no portal", async () => {
    const { client, userId } = await signUp(t, "invoice");
    expect((await client.post("/api/billing/subscription/portal")).status).toBe(404);
    await client.post("/api/billing/subscription/checkout"); // creates and remembers the customer
    const [customer] = rowsOf<{ customer_id: string }>(await t.deps.db.execute(sql`select customer_id from billing_customers where user_id = ${userId}`));
    const now = Math.floor(Date.now() / 1000);
    const invoice = (type: string, created: number) =>
      signedEvent(type, { id: `in_${created}`, object: "invoice", customer: customer!.customer_id, parent: { subscription_details: { subscription: `sub_inv_${userId}` } } }, { created });
    const paidInvoice = await invoice("invoice.paid", now);
    expect(await (await deliver(paidInvoice.body, paidInvoice.signature)).json()).toMatchObject({ outcome: "pro" });
    const failed = await invoice("invoice.payment_failed", now + 60);
    await deliver(failed.body, failed.signature);
    expect(await plan(userId)).toBe("pro"); // past_due keeps Pro while the provider retries
  });

  it("Pro is not sold without PAYMENT_PRO_PRICE_ID", async () => {
    const noPro = await testApp(url(), billingEnv(stand, { PAYMENT_PRO_PRICE_ID: "" }), { peer: "per-request" });
    const { client } = await signUp(noPro, "nopro");
    const res = await client.post("/api/billing/subscription/checkout");
    expect(res.status).toBe(402);
    expect(await (await client.get("/api/config")).json()).toMatchObject({ billing: true, pro: false });
  });
});
