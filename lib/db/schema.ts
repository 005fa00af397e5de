import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

// Tables grow with the issues that need them; this file is the single source drizzle-kit generates
// migrations from (`npm run db:generate`).

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Always stored lowercase (enforced by the check below as well as by the code). */
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    isAdmin: boolean("is_admin").notNull().default(false),
    plan: text("plan", { enum: ["free", "pro"] }).notNull().default("free"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("users_email_lowercase", sql`${t.email} = lower(${t.email})`),
    check("users_plan_known", sql`${t.plan} in ('free', 'pro')`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    /** Public, random session id (the cookie carries id + secret; only the secret's hash is stored). */
    id: text("id").primaryKey(),
    secretHash: text("secret_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** Idle expiry: slides forward while the session is used. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Absolute expiry: never moves. */
    absoluteExpiresAt: timestamp("absolute_expires_at", { withTimezone: true }).notNull(),
    /** Shown in the sessions list so a user can tell devices apart (truncated; no IP address is kept). */
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_created_at_idx").on(t.userId, t.createdAt)],
);

/** Single-use tokens mailed to a user: email verification and password reset. Only a hash is stored. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify_email", "reset_password"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("email_tokens_user_id_idx").on(t.userId),
    check("email_tokens_purpose_known", sql`${t.purpose} in ('verify_email', 'reset_password')`),
  ],
);

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

/** Money and quantities: exact decimals, never floats. */
const money = (name: string) => numeric(name, { precision: 28, scale: 10 });

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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("accounts_user_name_idx").on(t.userId, sql`lower(${t.name})`),
    index("accounts_user_id_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * The cash record of an account. `rank` (1 = oldest) and `balanceAfter` are maintained by the
 * ledger_* SQL functions (migration 0003) so any page, however deep, is an index range read.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["opening", "deposit", "withdrawal", "fill", "adjustment"] }).notNull(),
    /** Signed: money in is positive, money out negative. */
    amount: money("amount").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    note: text("note"),
    fillId: uuid("fill_id"),
    rank: bigint("rank", { mode: "number" }).notNull().default(0),
    balanceAfter: money("balance_after").notNull().default("0"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_entries_account_rank_idx").on(t.accountId, t.rank),
    index("ledger_entries_account_order_idx").on(t.accountId, t.occurredAt, t.id),
    check("ledger_entries_type_known", sql`${t.type} in ('opening', 'deposit', 'withdrawal', 'fill', 'adjustment')`),
  ],
);

/** One execution: what the broker reports. Positions and the fill's ledger entry derive from fills. */
export const fills = pgTable(
  "fills",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    assetClass: text("asset_class", { enum: ["stock", "option", "future"] }).notNull(),
    multiplier: money("multiplier").notNull(),
    side: text("side", { enum: ["buy", "sell"] }).notNull(),
    quantity: money("quantity").notNull(),
    price: money("price").notNull(),
    fees: money("fees").notNull().default("0"),
    executedAt: timestamp("executed_at", { withTimezone: true }).notNull(),
    /** The broker's execution id, when the source has one (de-duplication key). */
    executionId: text("execution_id"),
    importId: uuid("import_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("fills_account_symbol_time_idx").on(t.accountId, t.symbol, t.executedAt, t.id),
    uniqueIndex("fills_account_execution_id_idx").on(t.accountId, t.executionId).where(sql`${t.executionId} is not null`),
    check("fills_quantity_positive", sql`${t.quantity} > 0`),
    check("fills_price_not_negative", sql`${t.price} >= 0`),
    check("fills_fees_not_negative", sql`${t.fees} >= 0`),
    check("fills_multiplier_positive", sql`${t.multiplier} > 0`),
    check("fills_side_known", sql`${t.side} in ('buy', 'sell')`),
    check("fills_asset_class_known", sql`${t.assetClass} in ('stock', 'option', 'future')`),
  ],
);

/**
 * A trade: from flat to flat in one account and symbol. Rebuilt from the fills by positions_rebuild
 * (migrations/0005); identified by the fill that opened it, so journal fields survive a rebuild.
 */
export const positions = pgTable(
  "positions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    openFillId: uuid("open_fill_id").notNull().unique(),
    symbol: text("symbol").notNull(),
    assetClass: text("asset_class", { enum: ["stock", "option", "future"] }).notNull(),
    multiplier: money("multiplier").notNull(),
    direction: text("direction", { enum: ["long", "short"] }).notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** Still open (absolute), 0 once closed. */
    openQuantity: money("open_quantity").notNull(),
    maxQuantity: money("max_quantity").notNull(),
    entryQuantity: money("entry_quantity").notNull(),
    entryValue: money("entry_value").notNull(),
    exitQuantity: money("exit_quantity").notNull(),
    exitValue: money("exit_value").notNull(),
    fees: money("fees").notNull(),
    grossPnl: money("gross_pnl").notNull(),
    netPnl: money("net_pnl").notNull(),
    notes: text("notes"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    setup: text("setup"),
    rating: smallint("rating"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("positions_account_opened_idx").on(t.accountId, t.openedAt),
    index("positions_account_closed_idx").on(t.accountId, t.closedAt),
    index("positions_account_symbol_idx").on(t.accountId, t.symbol),
    check("positions_rating_range", sql`${t.rating} is null or ${t.rating} between 1 and 5`),
  ],
);

/** Which part of which fill belongs to which position (a reversing fill belongs to two). */
export const positionFills = pgTable(
  "position_fills",
  {
    // No foreign keys: shares are derived, rebuilt with their fills, and deleted with their position by a
    // trigger (migrations/0013).
    positionId: uuid("position_id").notNull(),
    fillId: uuid("fill_id").notNull(),
    quantity: money("quantity").notNull(),
    fees: money("fees").notNull(),
    role: text("role", { enum: ["open", "add", "reduce", "close"] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.fillId] })],
);

/**
 * A CSV import: staged by a preview (the normalised fills in `staged`), then claimed (committing) and
 * applied (committed) by exactly one commit, possibly undone later. See migrations/0007.
 */
export const csvImports = pgTable(
  "csv_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["staged", "committing", "committed", "undone"] }).notNull().default("staged"),
    fileName: text("file_name"),
    presetId: text("preset_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    committedAt: timestamp("committed_at", { withTimezone: true }),
    undoneAt: timestamp("undone_at", { withTimezone: true }),
    /** Counts shown in the preview and the import history. */
    summary: jsonb("summary").notNull(),
    /** The fills a commit would write, inline (no object storage); emptied once committed. */
    staged: jsonb("staged"),
    /**
     * With object storage: the key of the object holding the fills instead of `staged`. Cleared once the
     * object is no longer needed; clearing it or deleting the row queues the key in object_deletions
     * (trigger of migration 0010).
     */
    stagedKey: text("staged_key"),
    stagedBytes: integer("staged_bytes").notNull().default(0),
    fillsCreated: integer("fills_created"),
  },
  (t) => [
    index("csv_imports_account_idx").on(t.accountId, t.createdAt),
    index("csv_imports_status_idx").on(t.status, t.expiresAt),
    check("csv_imports_status_known", sql`${t.status} in ('staged', 'committing', 'committed', 'undone')`),
  ],
);

/**
 * Objects to remove from object storage: filled by a trigger whenever a csv_imports row stops pointing at
 * its staged object (row deleted by any path, cascades included, or staged_key cleared), drained by the
 * code that caused it and, for whatever that missed, by the purge job.
 */
export const objectDeletions = pgTable("object_deletions", {
  key: text("key").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const schema = { users, sessions, emailTokens, brokerages, accounts, ledgerEntries, fills, positions, positionFills, csvImports, objectDeletions };
