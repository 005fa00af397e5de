import { CheckoutSchema, TransactionsQuerySchema } from "../lib/billing/schema.ts";
import { createPackCheckout, createPortal, createProCheckout, subscriptionOf } from "../lib/billing/payments.ts";
import { getWallet, listMovements } from "../lib/billing/wallet.ts";
import { handlePaymentWebhook } from "../lib/billing/webhook.ts";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";

const origin = (url: string) => new URL(url).origin;

export const billing = createRouter()
  .get("/packs", requireUser, (c) => c.json({ packs: c.var.deps.config.creditPacks.map((p) => ({ ...p })) }))
  .get("/wallet", requireUser, async (c) => c.json(await getWallet(c.var.deps, currentUser(c).id)))
  .get("/transactions", requireUser, validate("query", TransactionsQuerySchema), async (c) =>
    c.json(await listMovements(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .post("/checkout", requireUser, rateLimit(LIMITS.checkout, "user"), validate("json", CheckoutSchema), async (c) =>
    c.json(await createPackCheckout(c.var.deps, currentUser(c), c.req.valid("json").packId, origin(c.req.url))),
  )
  .get("/subscription", requireUser, async (c) => c.json(await subscriptionOf(c.var.deps, currentUser(c))))
  .post("/subscription/checkout", requireUser, rateLimit(LIMITS.checkout, "user"), async (c) =>
    c.json(await createProCheckout(c.var.deps, currentUser(c), origin(c.req.url))),
  )
  .post("/subscription/portal", requireUser, rateLimit(LIMITS.checkout, "user"), async (c) =>
    c.json(await createPortal(c.var.deps, currentUser(c), origin(c.req.url))),
  )
  // The payment provider's events: no session, no anti-CSRF token (CSRF_EXEMPT_PATHS), the raw body as sent.
  .post("/webhook", async (c) => c.json(await handlePaymentWebhook(c.var.deps, await c.req.text(), c.req.header("Stripe-Signature"))));

export const billingGroup = { prefix: "/api/billing", app: billing } as const satisfies Group;
