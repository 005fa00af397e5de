// POST /api/billing/webhook: the payment provider's events (DESIGN.md section 9). The signature is checked
// on the raw bytes by the SDK (constructEventAsync, its default tolerance, so an old delivery is refused);
// each event is then handled by one SQL function call that records its id first, so a retried, replayed
// or concurrent delivery changes the wallet once. Purchases are credited once per event AND per checkout
// session, only when paid in the amount and currency the checkout asked for; refunds and disputes take
// credits back in proportion; subscription events move users.plan, newest event first.
import type Stripe from "stripe";
import { track } from "../analytics/index.ts";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { paymentClient } from "./payments.ts";

export type WebhookOutcome = { received: true; outcome: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function one(deps: Pick<Deps, "db">, query: ReturnType<typeof sql>): Promise<string> {
  const [row] = rowsOf<{ outcome: string }>(await deps.db.execute(query));
  return row!.outcome;
}

function record(deps: Pick<Deps, "db">, event: Stripe.Event, outcome: string, detail: Record<string, unknown> = {}): Promise<string> {
  return one(
    deps,
    sql`select case when payment_event_record(${event.id}, ${event.type}, ${outcome}, ${JSON.stringify(detail)}::jsonb) then ${outcome} else 'duplicate_event' end as outcome`,
  );
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === "string" ? value : (value?.id ?? null));

/** A paid checkout session of a credit pack: credited when it matches what the checkout asked for. */
async function creditSession(deps: Pick<Deps, "db" | "log" | "analytics">, event: Stripe.Event, session: Stripe.Checkout.Session): Promise<string> {
  if (session.mode === "subscription") return record(deps, event, "subscription_checkout", { session: session.id });
  if (session.payment_status !== "paid") return record(deps, event, "awaiting_payment", { session: session.id });
  const m = session.metadata ?? {};
  const credits = Number(m.credits);
  const expected = Number(m.expectedAmount);
  const problems = [
    !UUID.test(m.userId ?? "") && "user",
    !m.packId && "pack",
    !(Number.isSafeInteger(credits) && credits > 0) && "credits",
    session.amount_total !== expected && "amount",
    (session.currency ?? "").toLowerCase() !== (m.expectedCurrency ?? "").toLowerCase() && "currency",
  ].filter(Boolean);
  if (problems.length) {
    // Recorded and acknowledged, never credited: an operator sees it in payment_events.
    deps.log.warn("payment does not match its checkout; not credited", { event: event.id, session: session.id, problems });
    return record(deps, event, "mismatch", { session: session.id, problems, amount: session.amount_total, currency: session.currency });
  }
  const outcome = await one(
    deps,
    sql`select billing_credit_purchase(${event.id}, ${event.type}, ${session.id}, ${m.userId}::uuid, ${m.packId}, ${credits}::bigint,
      ${expected}::bigint, ${session.currency!.toLowerCase()}, ${idOf(session.payment_intent)}) as outcome`,
  );
  if (outcome === "credited") track(deps, "credits purchased", m.userId!, { pack: m.packId ?? null, credits });
  return outcome;
}

async function reverse(deps: Pick<Deps, "db">, event: Stripe.Event, paymentIntent: string | null, cents: number, kind: "refund" | "dispute", reference: string) {
  if (!paymentIntent) return record(deps, event, "unknown_payment", { reference });
  return one(
    deps,
    sql`select billing_reverse_purchase(${event.id}, ${event.type}, ${paymentIntent}, ${cents}::bigint, ${kind}, ${reference}) as outcome`,
  );
}

/** The user a subscription belongs to: its metadata (set at checkout), else the remembered customer. */
async function subscriber(deps: Pick<Deps, "db">, userId: string | undefined, customer: string | null): Promise<string | null> {
  if (userId && UUID.test(userId)) return userId;
  if (!customer) return null;
  const [row] = rowsOf<{ user_id: string }>(await deps.db.execute(sql`select user_id::text from billing_customers where customer_id = ${customer}`));
  return row?.user_id ?? null;
}

async function applySubscription(
  deps: Pick<Deps, "db" | "analytics">,
  event: Stripe.Event,
  subscriptionId: string | null,
  userId: string | null,
  status: string,
) {
  if (!subscriptionId || !userId) return record(deps, event, "unknown_subscriber", { subscription: subscriptionId });
  // The plan before, only to tell analytics whether it moved (the function returns the plan after).
  const [before] = deps.analytics ? rowsOf<{ plan: string }>(await deps.db.execute(sql`select plan from users where id = ${userId}::uuid`)) : [];
  const outcome = await one(
    deps,
    sql`select billing_apply_subscription(${event.id}, ${event.type}, ${subscriptionId}, ${userId}::uuid, ${status},
      to_timestamp(${event.created})) as outcome`,
  );
  if (before && (outcome === "pro" || outcome === "free") && outcome !== before.plan) track(deps, "plan changed", userId, { plan: outcome });
  return outcome;
}

/** The subscription an invoice is for, in the API's older and newer shapes. */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  const parent = (invoice as unknown as { parent?: { subscription_details?: { subscription?: string | { id: string } | null } | null } | null }).parent;
  return idOf(legacy ?? parent?.subscription_details?.subscription ?? null);
}

export async function handlePaymentWebhook(
  deps: Pick<Deps, "db" | "config" | "log" | "analytics">,
  payload: string,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  // The webhook path exists only when billing is configured (SPEC.md section 1).
  if (!deps.config.features.billing) throw new AppError("NOT_FOUND", "Not found.");
  const stripe = await paymentClient(deps.config);
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("no signature");
    event = await stripe.webhooks.constructEventAsync(payload, signature, deps.config.PAYMENT_WEBHOOK_SECRET!);
  } catch {
    throw new AppError("INVALID_SIGNATURE", "The webhook signature is missing, wrong or too old.");
  }
  let outcome: string;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      outcome = await creditSession(deps, event, event.data.object);
      break;
    case "checkout.session.async_payment_failed":
      outcome = await record(deps, event, "payment_failed", { session: event.data.object.id });
      break;
    case "charge.refunded": {
      const charge = event.data.object;
      outcome = await reverse(deps, event, idOf(charge.payment_intent), charge.amount_refunded, "refund", charge.id);
      break;
    }
    case "charge.dispute.created": {
      const dispute = event.data.object;
      outcome = await reverse(deps, event, idOf(dispute.payment_intent), dispute.amount, "dispute", dispute.id);
      break;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = event.data.object;
      const userId = await subscriber(deps, sub.metadata?.userId, idOf(sub.customer));
      outcome = await applySubscription(deps, event, sub.id, userId, event.type === "customer.subscription.deleted" ? "canceled" : sub.status);
      break;
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const userId = await subscriber(deps, undefined, idOf(invoice.customer));
      outcome = await applySubscription(deps, event, invoiceSubscription(invoice), userId, event.type === "invoice.paid" ? "active" : "past_due");
      break;
    }
    default:
      outcome = await record(deps, event, "ignored");
  }
  deps.log.info("payment event", { event: event.id, type: event.type, outcome });
  return { received: true, outcome };
}
