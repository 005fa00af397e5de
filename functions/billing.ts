import { CheckoutSchema, TransactionsQuerySchema } from "../lib/billing/schema.ts";
import { createPackCheckout, createPortal, createProCheckout, subscriptionOf } from "../lib/billing/payments.ts";
import { getWallet, listMovements } from "../lib/billing/wallet.ts";
import { handlePaymentWebhook } from "../lib/billing/webhook.ts";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { MovementListSchema, PackListSchema, RedirectSchema, SubscriptionSchema, WalletSchema, WebhookAckSchema, WebhookBodySchema } from "../lib/billing/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";

const origin = (url: string) => new URL(url).origin;

export const billing = createRouter()
  .get("/packs", describeRoute({ tag: "billing", summary: "The credit packs for sale", responses: { 200: { description: "The packs (from server configuration).", schema: PackListSchema } } }), requireUser, (c) => c.json({ packs: c.var.deps.config.creditPacks.map((p) => ({ ...p })) }))
  .get("/wallet", describeRoute({ tag: "billing", summary: "Your credits: balance, held for turns in progress, available", responses: { 200: { description: "The wallet.", schema: WalletSchema } } }), requireUser, async (c) => c.json(await getWallet(c.var.deps, currentUser(c).id)))
  .get("/transactions", describeRoute({ tag: "billing", summary: "Your wallet history, newest first", responses: { 200: { description: "A page of movements.", schema: MovementListSchema } } }), requireUser, validate("query", TransactionsQuerySchema), async (c) =>
    c.json(await listMovements(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .post("/checkout", describeRoute({ tag: "billing", summary: "Start buying a credit pack: the payment page to send the browser to", responses: { 200: { description: "The checkout page.", schema: RedirectSchema } }, errors: ["BILLING_NOT_AVAILABLE", "UNKNOWN_PACK", "PAYMENT_PROVIDER_ERROR"] }), requireUser, rateLimit(LIMITS.checkout, "user"), validate("json", CheckoutSchema), async (c) =>
    c.json(await createPackCheckout(c.var.deps, currentUser(c), c.req.valid("json").packId, origin(c.req.url))),
  )
  .get("/subscription", describeRoute({ tag: "billing", summary: "Your plan and subscription", responses: { 200: { description: "The plan, the latest subscription status, whether a billing portal exists.", schema: SubscriptionSchema } } }), requireUser, async (c) => c.json(await subscriptionOf(c.var.deps, currentUser(c))))
  .post("/subscription/checkout", describeRoute({ tag: "billing", summary: "Start the Pro subscription: the payment page", responses: { 200: { description: "The checkout page.", schema: RedirectSchema } }, errors: ["BILLING_NOT_AVAILABLE", "CONFLICT", "PAYMENT_PROVIDER_ERROR"] }), requireUser, rateLimit(LIMITS.checkout, "user"), async (c) =>
    c.json(await createProCheckout(c.var.deps, currentUser(c), origin(c.req.url))),
  )
  .post("/subscription/portal", describeRoute({ tag: "billing", summary: "The billing portal of the payment provider", responses: { 200: { description: "The portal page.", schema: RedirectSchema } }, errors: ["BILLING_NOT_AVAILABLE", "NOT_FOUND", "PAYMENT_PROVIDER_ERROR"] }), requireUser, rateLimit(LIMITS.checkout, "user"), async (c) =>
    c.json(await createPortal(c.var.deps, currentUser(c), origin(c.req.url))),
  )
  // The payment provider's events: no session, no anti-CSRF token (CSRF_EXEMPT_PATHS), the raw body as sent.
  .post(
    "/webhook",
    describeRoute({ tag: "billing", summary: "The events of the payment provider (signed; no session)", public: true, body: { contentType: "application/json", schema: WebhookBodySchema, description: "The raw event as the provider sent it, checked against the Stripe-Signature header." }, responses: { 200: { description: "Received (each event and each checkout session credited once).", schema: WebhookAckSchema } }, errors: ["INVALID_SIGNATURE", "NOT_FOUND", "VALIDATION_ERROR"] }), 
    async (c) => c.json(await handlePaymentWebhook(c.var.deps, await c.req.text(), c.req.header("Stripe-Signature"))));

export const billingGroup = { prefix: "/api/billing", app: billing } as const satisfies Group;
