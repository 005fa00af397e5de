// The payment provider (Stripe, through its official SDK): hosted checkout for credit packs and the Pro
// subscription, the customer portal, and the webhook that credits what was paid (DESIGN.md section 9). The
// SDK is loaded only when billing is configured and used. PAYMENT_API_BASE_URL points it elsewhere (tests).
import type Stripe from "stripe";
import { track } from "../analytics/index.ts";
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import type { Config } from "../config/index.ts";
import { billingCustomers } from "../db/schema.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { eq } from "drizzle-orm";

const clients = new WeakMap<Config, Promise<Stripe>>();

/** The SDK client of this configuration (one per process or isolate). */
export function paymentClient(config: Config): Promise<Stripe> {
  let client = clients.get(config);
  if (!client) {
    client = (async () => {
      const { default: StripeSdk } = await import("stripe");
      const base = config.PAYMENT_API_BASE_URL ? new URL(config.PAYMENT_API_BASE_URL) : undefined;
      return new StripeSdk(config.PAYMENT_SECRET_KEY!, {
        // A provider that does not answer costs the trader at most ~16 s (two tries of 8 s) before the 502;
        // the retry is safe, every call carries an idempotency key.
        maxNetworkRetries: 1,
        timeout: 8_000,
        telemetry: false,
        ...(base
          ? { host: base.hostname, port: Number(base.port || (base.protocol === "https:" ? 443 : 80)), protocol: base.protocol === "https:" ? "https" : "http" }
          : {}),
      });
    })();
    clients.set(config, client);
  }
  return client;
}

export function requireBilling(config: Config): void {
  if (!config.features.billing) {
    throw new AppError("BILLING_NOT_AVAILABLE", "Buying credits is not available on this instance (its payment provider is not configured).");
  }
}

/** A call to the provider; its failures become 502 PAYMENT_PROVIDER_ERROR (logged without the request). */
async function provider<T>(deps: Pick<Deps, "log">, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as { type?: string; statusCode?: number; code?: string };
    deps.log.warn("payment provider call failed", { what, type: e.type, status: e.statusCode, code: e.code });
    throw new AppError("PAYMENT_PROVIDER_ERROR", "The payment provider did not answer as expected. Nothing was charged; try again in a moment.");
  }
}

/** Where checkout returns: WEB_BASE_URL, else the request's own origin (config refuses that in cross-origin mode). */
function returnBase(config: Config, requestOrigin: string): string {
  return config.WEB_BASE_URL ?? requestOrigin;
}

/** The user's customer at the provider, created once (idempotently) and remembered. */
async function customerOf(deps: Pick<Deps, "db" | "log">, stripe: Stripe, user: AuthUser): Promise<string> {
  const [known] = await deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, user.id));
  if (known) return known.customerId;
  const created = await provider(deps, "customer", () =>
    stripe.customers.create({ email: user.email, metadata: { userId: user.id } }, { idempotencyKey: `customer-${user.id}` }),
  );
  const [stored] = rowsOf<{ customer_id: string }>(
    await deps.db.execute(sql`insert into billing_customers (user_id, customer_id) values (${user.id}, ${created.id})
      on conflict (user_id) do update set user_id = excluded.user_id returning customer_id`),
  );
  return stored!.customer_id;
}

/**
 * POST /api/billing/checkout: a hosted payment page for one pack, at the configured price, with what the
 * webhook checks in its metadata. No wallet write here: the webhook credits what was paid.
 */
export async function createPackCheckout(
  deps: Pick<Deps, "db" | "config" | "log" | "now" | "analytics">,
  user: AuthUser,
  packId: string,
  requestOrigin: string,
): Promise<{ url: string }> {
  requireBilling(deps.config);
  const pack = deps.config.creditPacks.find((p) => p.id === packId);
  if (!pack) throw new AppError("UNKNOWN_PACK", `There is no credit pack "${packId}".`, { fields: [{ path: "packId", message: "is not one of the packs" }] });
  const stripe = await paymentClient(deps.config);
  const customer = await customerOf(deps, stripe, user);
  const base = returnBase(deps.config, requestOrigin);
  const metadata = {
    userId: user.id,
    packId: pack.id,
    credits: String(pack.credits),
    expectedAmount: String(pack.priceCents),
    expectedCurrency: pack.currency,
  };
  // A double click within ten seconds opens the same page instead of a second one.
  const idempotencyKey = `checkout-${user.id}-${pack.id}-${Math.floor(deps.now().getTime() / 10_000)}`;
  const session = await provider(deps, "checkout", () =>
    stripe.checkout.sessions.create(
      {
        mode: "payment",
        customer,
        client_reference_id: user.id,
        line_items: [{ quantity: 1, price_data: { currency: pack.currency, unit_amount: pack.priceCents, product_data: { name: pack.name } } }],
        metadata,
        payment_intent_data: { metadata },
        success_url: `${base}/settings/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/settings/billing?checkout=cancelled`,
      },
      { idempotencyKey },
    ),
  );
  if (!session.url) throw new AppError("PAYMENT_PROVIDER_ERROR", "The payment provider gave no checkout page. Nothing was charged; try again.");
  track(deps, "checkout started", user.id, { kind: "credits", pack: pack.id, credits: pack.credits });
  return { url: session.url };
}

/** POST /api/billing/subscription/checkout: the Pro subscription's hosted page (PAYMENT_PRO_PRICE_ID). */
export async function createProCheckout(
  deps: Pick<Deps, "db" | "config" | "log" | "now" | "analytics">,
  user: AuthUser,
  requestOrigin: string,
): Promise<{ url: string }> {
  requireBilling(deps.config);
  if (!deps.config.features.pro) throw new AppError("BILLING_NOT_AVAILABLE", "The Pro plan is not sold on this instance.");
  if (user.plan === "pro") throw new AppError("CONFLICT", "You are already on the Pro plan. Manage it from the billing page.");
  const stripe = await paymentClient(deps.config);
  const customer = await customerOf(deps, stripe, user);
  const base = returnBase(deps.config, requestOrigin);
  const session = await provider(deps, "subscription checkout", () =>
    stripe.checkout.sessions.create(
      {
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price: deps.config.PAYMENT_PRO_PRICE_ID!, quantity: 1 }],
        metadata: { userId: user.id, kind: "pro" },
        subscription_data: { metadata: { userId: user.id } },
        success_url: `${base}/settings/billing?subscription=success`,
        cancel_url: `${base}/settings/billing?subscription=cancelled`,
      },
      { idempotencyKey: `pro-${user.id}-${Math.floor(deps.now().getTime() / 10_000)}` },
    ),
  );
  if (!session.url) throw new AppError("PAYMENT_PROVIDER_ERROR", "The payment provider gave no checkout page. Nothing was charged; try again.");
  track(deps, "checkout started", user.id, { kind: "pro", pack: null, credits: null });
  return { url: session.url };
}

/** POST /api/billing/subscription/portal: the provider's customer portal; 404 without a billing customer. */
export async function createPortal(deps: Pick<Deps, "db" | "config" | "log">, user: AuthUser, requestOrigin: string): Promise<{ url: string }> {
  requireBilling(deps.config);
  const [known] = await deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, user.id));
  if (!known) throw new AppError("NOT_FOUND", "You have no billing account yet: buy credits or subscribe first.");
  const stripe = await paymentClient(deps.config);
  const portal = await provider(deps, "portal", () =>
    stripe.billingPortal.sessions.create({ customer: known.customerId, return_url: `${returnBase(deps.config, requestOrigin)}/settings/billing` }),
  );
  return { url: portal.url };
}

export type ProPrice = { id: string; amountCents: number | null; currency: string | null; interval: string | null };

const PRICE_TTL_MS = 60 * 60_000;
const priceCache = new WeakMap<Config, { at: number; price: ProPrice }>();

/**
 * The Pro price as the provider describes it (amount, currency, interval), for the billing page; cached an
 * hour per process. When the provider cannot be asked, only its id is known and the page says "see checkout".
 */
export async function proPrice(deps: Pick<Deps, "config" | "log" | "now">): Promise<ProPrice | null> {
  const id = deps.config.PAYMENT_PRO_PRICE_ID;
  if (!deps.config.features.pro || !id) return null;
  const now = deps.now().getTime();
  const cached = priceCache.get(deps.config);
  if (cached && now - cached.at < PRICE_TTL_MS) return cached.price;
  try {
    const stripe = await paymentClient(deps.config);
    const p = await stripe.prices.retrieve(id);
    const price = { id, amountCents: p.unit_amount ?? null, currency: p.currency ?? null, interval: p.recurring?.interval ?? null };
    priceCache.set(deps.config, { at: now, price });
    return price;
  } catch (err) {
    deps.log.warn("payment provider call failed", { what: "pro price", type: (err as { type?: string }).type });
    return { id, amountCents: null, currency: null, interval: null };
  }
}

/** A subscription the provider may still bill (everything but its two ended statuses). */
const ENDED_STATUSES = ["canceled", "incomplete_expired"];

/**
 * Before a user deletes their account: every subscription of theirs that may still be billed is cancelled at
 * the provider, now, so nobody is charged for an account that is gone. A provider that fails is 502
 * PAYMENT_PROVIDER_ERROR (nothing deleted; the retry is safe: each cancel carries an idempotency key); one
 * the provider no longer knows counts as cancelled. Without a configured provider such a subscription cannot
 * be cancelled from here: 402 BILLING_NOT_AVAILABLE, and the account stays.
 */
export async function cancelSubscriptionsBeforeDeletion(deps: Pick<Deps, "db" | "config" | "log">, userId: string): Promise<number> {
  const live = rowsOf<{ id: string }>(
    await deps.db.execute(sql`select id from subscriptions where user_id = ${userId}
      and status not in (${sql.join(ENDED_STATUSES.map((s) => sql`${s}`), sql`, `)})`),
  );
  if (!live.length) return 0;
  if (!deps.config.features.billing) {
    throw new AppError(
      "BILLING_NOT_AVAILABLE",
      "Your Pro subscription cannot be cancelled from this instance right now (its payment provider is not configured), so your account was not deleted. Ask its operator to cancel it first.",
    );
  }
  const stripe = await paymentClient(deps.config);
  for (const { id } of live) {
    await provider(deps, "cancel subscription", async () => {
      try {
        await stripe.subscriptions.cancel(id, {}, { idempotencyKey: `cancel-${id}` });
      } catch (err) {
        if ((err as { code?: string }).code !== "resource_missing") throw err;
      }
    });
  }
  deps.log.info("subscriptions cancelled before an account deletion", { count: live.length });
  return live.length;
}

/** GET /api/billing/subscription: the user's plan, the newest subscription's status, and whether a portal exists. */
export async function subscriptionOf(deps: Pick<Deps, "db">, user: AuthUser) {
  const [row] = rowsOf<{ plan: "free" | "pro"; status: string | null; customer: string | null }>(
    await deps.db.execute(sql`select u.plan,
        (select s.status from subscriptions s where s.user_id = u.id order by s.event_created_at desc limit 1) as status,
        (select c.customer_id from billing_customers c where c.user_id = u.id) as customer
      from users u where u.id = ${user.id}`),
  );
  return { plan: row?.plan ?? user.plan, status: row?.status ?? null, portal: Boolean(row?.customer) };
}
