// Wallets, credits and payments (docs/billing.md). One of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";

/**
 * Credits (lib/billing, docs/billing.md). One wallet per user: `balance` is what the user owns, `reserved`
 * what holds have set aside for advisor turns in flight, so `available` is balance - reserved. Both only ever
 * change together with a row appended to wallet_movements, in the same statement (migrations/functions/billing).
 */
export const wallets = pgTable(
  "wallets",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    balance: bigint("balance", { mode: "number" }).notNull().default(0),
    reserved: bigint("reserved", { mode: "number" }).notNull().default(0),
    /** Credits a refund or dispute should have taken back but could not without going below zero. */
    shortfall: bigint("shortfall", { mode: "number" }).notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("wallets_balance_not_negative", sql`${t.balance} >= 0`),
    check("wallets_reserved_in_balance", sql`${t.reserved} >= 0 and ${t.reserved} <= ${t.balance}`),
    check("wallets_shortfall_not_negative", sql`${t.shortfall} >= 0`),
  ],
);

/** Every change of a wallet, signed, never updated: the wallet's history (GET /api/billing/transactions). */
export const walletMovements = pgTable(
  "wallet_movements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["purchase", "hold", "charge", "release", "refund", "dispute", "admin_grant"] }).notNull(),
    /** Change of the balance. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** Change of the reserved credits. */
    reservedChange: bigint("reserved_change", { mode: "number" }).notNull().default(0),
    balanceAfter: bigint("balance_after", { mode: "number" }).notNull(),
    reservedAfter: bigint("reserved_after", { mode: "number" }).notNull(),
    holdId: uuid("hold_id"),
    /** The payment provider's object (checkout session, charge, dispute) or the admin's reason. */
    reference: text("reference"),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("wallet_movements_user_idx").on(t.userId, t.createdAt, t.id),
    check("wallet_movements_kind_known", sql`${t.kind} in ('purchase', 'hold', 'charge', 'release', 'refund', 'dispute', 'admin_grant')`),
  ],
);

/** Credits set aside for one advisor turn until it is settled (charged) or released; expires_at bounds it. */
export const creditHolds = pgTable(
  "credit_holds",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amount: bigint("amount", { mode: "number" }).notNull(),
    status: text("status", { enum: ["held", "settled", "released", "expired"] }).notNull().default("held"),
    charged: bigint("charged", { mode: "number" }).notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("credit_holds_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'held'`),
    check("credit_holds_status_known", sql`${t.status} in ('held', 'settled', 'released', 'expired')`),
    check("credit_holds_amounts", sql`${t.amount} >= 0 and ${t.charged} >= 0 and ${t.charged} <= ${t.amount}`),
  ],
);

/** Every payment-provider event handled, by its id: a retried or replayed event is handled once. */
export const paymentEvents = pgTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** What handling it did (credited, mismatch, ignored, ...), for operators. */
  outcome: text("outcome").notNull(),
  detail: jsonb("detail"),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A credit pack bought through a checkout session: credited once per session, refunds and disputes against it. */
export const creditPurchases = pgTable(
  "credit_purchases",
  {
    checkoutSessionId: text("checkout_session_id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    packId: text("pack_id").notNull(),
    credits: bigint("credits", { mode: "number" }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    paymentIntentId: text("payment_intent_id"),
    /** The largest share of the payment refunded or disputed so far, in cents. */
    reversedCents: bigint("reversed_cents", { mode: "number" }).notNull().default(0),
    /** Credits taken back for it (refunds, disputes), whatever the wallet could give. */
    creditsReversed: bigint("credits_reversed", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("credit_purchases_payment_intent_idx").on(t.paymentIntentId)],
);

/** The payment provider's customer of a user, created once and remembered. */
export const billingCustomers = pgTable("billing_customers", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  customerId: text("customer_id").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Pro subscriptions as the provider's events last described them; users.plan follows. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    /** The provider's creation time of the newest event applied: older events arriving late change nothing. */
    eventCreatedAt: timestamp("event_created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("subscriptions_user_idx").on(t.userId)],
);
