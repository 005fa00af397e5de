// Accounts and their brokerages (docs/accounts.md). One of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { money } from "./columns.ts";

export const brokerages = pgTable(
  "brokerages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("brokerages_user_name_idx").on(t.userId, sql`lower(${t.name})`)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    brokerageId: uuid("brokerage_id").references(() => brokerages.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    currency: text("currency").notNull(),
    startingBalance: money("starting_balance").notNull().default("0"),
    /** Canonical IANA zone; defines the account's trading day. */
    timezone: text("timezone").notNull().default("America/New_York"),
    /** The money a trade risks when it says nothing of its own (1R): trades' R falls back to it. */
    defaultRisk: money("default_risk"),
    /**
     * What the broker charges, per asset class (lib/accounts/fees.ts): applied on import to rows that carry no
     * fee, each such fee marked estimated on its fill. Null: none.
     */
    feeSchedule: jsonb("fee_schedule"),
    /** For tax (docs/tax.md): a taxable account's sales make lots; an IRA's purchases wash for good; an exempt one counts for nothing. */
    taxStatus: text("tax_status", { enum: ["taxable", "ira", "exempt"] }).notNull().default("taxable"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("accounts_user_name_idx").on(t.userId, sql`lower(${t.name})`),
    check("accounts_tax_status_known", sql`${t.taxStatus} in ('taxable', 'ira', 'exempt')`),
    index("accounts_user_id_idx").on(t.userId, t.createdAt),
    check("accounts_default_risk_positive", sql`${t.defaultRisk} is null or ${t.defaultRisk} > 0`),
  ],
);
