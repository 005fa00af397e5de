// A local HTTP server standing in for the payment provider's API (Stripe), reached by the official SDK through
// PAYMENT_API_BASE_URL: form-encoded requests like the real API, JSON answers in its shapes. It records what it
// receives, and `fail` makes the next calls answer an error (or reset the connection). Webhook events are
// built here too and signed with the SDK's own test-header helper.
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import Stripe from "stripe";

export type Recorded = { method: string; path: string; form: Record<string, string>; idempotencyKey: string | undefined };

export type PaymentServer = {
  url: string;
  requests: Recorded[];
  /**
   * While set, every call answers this status, or: "reset" destroys the connection, "hang" never answers,
   * "garbage" answers 200 with a body that is not JSON.
   */
  fail: number | "reset" | "hang" | "garbage" | null;
  /** The checkout sessions created, by id (with what they were created with). */
  sessions: Map<string, Record<string, string>>;
  close(): Promise<void>;
};

export const WEBHOOK_SECRET = "whsec_test_journal_0123456789";

export async function startPaymentServer(): Promise<PaymentServer> {
  const requests: Recorded[] = [];
  const sessions = new Map<string, Record<string, string>>();
  const byIdempotencyKey = new Map<string, unknown>();
  const sockets = new Set<Socket>();
  let n = 0;
  // Ids unique across stand-ins, as the provider's are: test files share a database, and billing_customers
  // refuses a customer id twice.
  const run = crypto.randomUUID().slice(0, 8);
  const state: PaymentServer = {
    url: "",
    requests,
    fail: null,
    sessions,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    const form = Object.fromEntries(new URLSearchParams(body));
    const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
    requests.push({ method: req.method ?? "GET", path, form, idempotencyKey });
    if (state.fail === "reset") return req.socket.destroy();
    if (state.fail === "hang") return;
    if (state.fail === "garbage") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end("<html><body>Service temporarily unavailable</body></html>");
    }
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${++n}` });
      res.end(JSON.stringify(json));
    };
    if (state.fail) return send(state.fail, { error: { type: "api_error", message: "Something went wrong on the stand-in." } });
    // The hosted pages a browser is sent to, and what a test in another process needs to sign a webhook.
    if (req.method === "GET" && path.startsWith("/pay/")) {
      const id = path.slice(5);
      const back = (sessions.get(id)?.success_url ?? "/").replace("{CHECKOUT_SESSION_ID}", id);
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><title>Test checkout</title><h1>Test checkout ${id}</h1><a href="${back}">Pay</a>`);
    }
    if (req.method === "GET" && path.startsWith("/__sessions/")) {
      const id = path.slice(12);
      return sessions.has(id) ? send(200, paidSession(state, id)) : send(404, { error: "no such session" });
    }
    if (!(req.headers.authorization ?? "").startsWith("Bearer sk_")) return send(401, { error: { type: "invalid_request_error", message: "No API key" } });
    const replay = idempotencyKey ? byIdempotencyKey.get(`${path}:${idempotencyKey}`) : undefined;
    if (replay) return send(200, replay);
    let answer: unknown;
    if (req.method === "POST" && path === "/v1/customers") {
      answer = { id: `cus_${run}${++n}`, object: "customer", email: form.email ?? null, metadata: { userId: form["metadata[userId]"] } };
    } else if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const id = `cs_test_${run}${++n}`;
      sessions.set(id, form);
      const amount = form["line_items[0][price_data][unit_amount]"];
      answer = {
        id,
        object: "checkout.session",
        url: `${state.url}/pay/${id}`,
        mode: form.mode,
        customer: form.customer,
        status: "open",
        payment_status: "unpaid",
        amount_total: amount ? Number(amount) : 1500,
        currency: form["line_items[0][price_data][currency]"] ?? "usd",
      };
    } else if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      answer = { id: `bps_${++n}`, object: "billing_portal.session", url: `${state.url}/portal/${form.customer}`, customer: form.customer };
    } else if (req.method === "DELETE" && path.startsWith("/v1/subscriptions/")) {
      // Cancelled at once; an id containing "gone" is one the provider no longer knows.
      const id = path.split("/").pop()!;
      if (id.includes("gone")) return send(404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such subscription: '${id}'` } });
      answer = { id, object: "subscription", status: "canceled" };
    } else if (req.method === "GET" && path.startsWith("/v1/prices/")) {
      answer = { id: path.split("/").pop(), object: "price", unit_amount: 1500, currency: "usd", recurring: { interval: "month" } };
    } else {
      return send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path})` } });
    }
    if (idempotencyKey) byIdempotencyKey.set(`${path}:${idempotencyKey}`, answer);
    send(200, answer);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The payment variables of an instance whose provider is the stand-in. */
export function billingEnv(server: PaymentServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PAYMENT_SECRET_KEY: "sk_test_journal",
    PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PAYMENT_PRO_PRICE_ID: "price_pro_monthly",
    PAYMENT_API_BASE_URL: server.url,
    WEB_BASE_URL: "https://journal.example.com",
    ...extra,
  };
}

let eventCount = 0;

/** A webhook event as the provider sends it, and its Stripe-Signature header (signed by the SDK's helper). */
export async function signedEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number; timestamp?: number; secret?: string } = {},
): Promise<{ body: string; signature: string; id: string }> {
  const id = options.id ?? `evt_test_${Date.now()}_${++eventCount}`;
  const body = JSON.stringify({
    id,
    object: "event",
    api_version: "2026-01-01",
    created: options.created ?? Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  const stripe = new Stripe("sk_test_unused");
  const signature = await stripe.webhooks.generateTestHeaderStringAsync({
    payload: body,
    secret: options.secret ?? WEBHOOK_SECRET,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
  return { body, signature, id };
}

/** The checkout.session object of a paid session the stand-in created (as checkout.session.completed carries it). */
export function paidSession(server: PaymentServer, sessionId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const form = server.sessions.get(sessionId);
  if (!form) throw new Error(`no session ${sessionId}`);
  const metadata = Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k.startsWith("metadata["))
      .map(([k, v]) => [k.slice(9, -1), v]),
  );
  return {
    id: sessionId,
    object: "checkout.session",
    mode: form.mode,
    customer: form.customer,
    status: "complete",
    payment_status: "paid",
    amount_total: Number(form["line_items[0][price_data][unit_amount]"]),
    currency: form["line_items[0][price_data][currency]"],
    payment_intent: `pi_${sessionId}`,
    metadata,
    ...overrides,
  };
}

/** The payment provider confirming a checkout session (by id) to the journal's webhook, as after the card is charged. */
export async function confirmCheckout(journalUrl: string, paymentUrl: string, sessionId: string): Promise<Response> {
  const session = (await (await fetch(`${paymentUrl}/__sessions/${sessionId}`)).json()) as Record<string, unknown>;
  const event = await signedEvent("checkout.session.completed", session);
  return fetch(`${journalUrl}/api/billing/webhook`, {
    method: "POST",
    body: event.body,
    headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
  });
}
