import { sql } from "drizzle-orm";
import { bigint, boolean, check, customType, date, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";

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
    /** When a session of the user was last used (moved with the session's idle expiry), for the admin view. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /** When the user last opened the in-app changelog ("What's new"): releases after it are unread. */
    changelogViewedAt: timestamp("changelog_viewed_at", { withTimezone: true }),
  },
  (t) => [
    index("users_created_idx").on(t.createdAt, t.id),
    check("users_email_lowercase", sql`${t.email} = lower(${t.email})`),
    check("users_plan_known", sql`${t.plan} in ('free', 'pro')`),
  ],
);

/**
 * Failed sign-ins, by the SHA-256 of the lowercased email (known or not: an unknown email is locked the same
 * way, and no email typed by a stranger is stored). Ten in 15 minutes lock that email's sign-in (lib/auth/lockout.ts).
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    key: text("key").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The SHA-256 of the failing request's device cookie (lib/auth/devices.ts), if it sent a well-formed one. */
    deviceHash: text("device_hash"),
  },
  (t) => [index("sign_in_failures_key_idx").on(t.key, t.failedAt)],
);

/**
 * The second factor (lib/auth/two-factor.ts, docs/auth.md "Second factor"): a TOTP secret sealed like a stored
 * key (lib/crypto/envelope.ts; additional data: the user and "totp"), so the key rotation and the start-up
 * check cover it (the sealed_secrets view). `enabledAt` is null while set up but not yet confirmed with a
 * code; `lastStep` is the newest time step accepted, so each code signs in once.
 */
export const userTotp = pgTable("user_totp", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  ciphertext: text("ciphertext").notNull(),
  keyId: text("key_id").notNull(),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  lastStep: bigint("last_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One-time backup codes of the second factor, by the SHA-256 of the user id and the code; each used once. */
export const backupCodes = pgTable(
  "backup_codes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * The second step of a sign-in with the second factor on: the right password gave a challenge (only its
 * SHA-256 is stored) that lives 5 minutes and takes 5 codes.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The WebAuthn challenge asked of a passkey for this second step, once asked for (passkeys.ts). */
    webauthnChallenge: text("webauthn_challenge"),
  },
  (t) => [index("sign_in_challenges_user_idx").on(t.userId), index("sign_in_challenges_expires_idx").on(t.expiresAt)],
);

/**
 * Personal access tokens (lib/auth/tokens.ts, docs/auth.md "Personal access tokens"): for scripts and trading
 * platforms, `Authorization: Bearer <token>`; only the token's SHA-256 is stored. Scopes: read, import,
 * fills:write. A deleted token is gone (DELETE /api/auth/tokens/:id); an expired one stays listed, refused.
 */
export const accessTokens = pgTable(
  "access_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("access_tokens_hash_idx").on(t.tokenHash),
    index("access_tokens_user_idx").on(t.userId, t.createdAt),
    check("access_tokens_scopes_known", sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ array['read', 'import', 'fills:write']::text[]`),
  ],
);

/**
 * The browsers each user has signed in from (lib/auth/devices.ts): the SHA-256 of a long-lived random device
 * cookie. A sign-in from a browser not listed, for a user with some listed, mails its owner.
 */
export const knownDevices = pgTable(
  "known_devices",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceHash: text("device_hash").notNull(),
    userAgent: text("user_agent"),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] }), index("known_devices_seen_idx").on(t.lastSeenAt)],
);

/**
 * Passkeys (lib/auth/passkeys.ts, docs/auth.md "Passkeys"): WebAuthn credentials, a second factor after the
 * password and a sign-in of their own. The public key and the signature counter.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialId: text("credential_id").notNull(),
    /** COSE algorithm: -7 (ES256; the key as SEC1 bytes, base64url) or -257 (RS256; "n.e", each base64url). */
    algorithm: integer("algorithm").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").notNull().default(sql`'[]'::jsonb`),
    name: text("name").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("passkeys_credential_idx").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

/**
 * A WebAuthn ceremony in progress: its challenge, for whom (null: a passkey sign-in, whoever it turns out to
 * be) and until when (5 minutes). Only the SHA-256 of the flow id handed to the browser is stored.
 */
export const webauthnFlows = pgTable(
  "webauthn_flows",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["register", "login"] }).notNull(),
    challenge: text("challenge").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webauthn_flows_expires_idx").on(t.expiresAt), check("webauthn_flows_purpose_known", sql`${t.purpose} in ('register', 'login')`)],
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

/**
 * The cash record of an account, in days (UTC days of `occurredAt`, migration 0046; docs/accounts.md, "The
 * ledger at any depth"): each entry holds its place and the running balance within its day (`dayRank`,
 * 1 = the day's oldest; `dayBalance`), and ledger_days each day's count and total. An entry's rank and
 * balance are the days before it plus its place in its day, so a write rewrites its own day only (an entry
 * backdated by years costs what an appended one does), and any page is a read of the day totals and an index
 * range read of entries. Both are kept by a trigger on every write (ledger_days_follow).
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Its account: checked and cascaded once per statement (account_rows.sql), not by a foreign key. */
    accountId: uuid("account_id").notNull(),
    /** prop_fee and payout: a prop firm's fees paid and payouts received (docs/prop-firms.md), stored negative. */
    type: text("type", { enum: ["opening", "deposit", "withdrawal", "fill", "adjustment", "prop_fee", "payout"] }).notNull(),
    /** Signed: money in is positive, money out negative. */
    amount: money("amount").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    note: text("note"),
    fillId: uuid("fill_id"),
    /** The UTC day of occurredAt: the entry's place in ledger_days. */
    day: date("day", { mode: "string" })
      .notNull()
      .generatedAlwaysAs(sql`((occurred_at AT TIME ZONE 'UTC')::date)`),
    /** Its place in its day (1 = the day's oldest, in (occurredAt, id) order) and the day's running sum up to it. */
    dayRank: integer("day_rank").notNull().default(0),
    dayBalance: money("day_balance").notNull().default("0"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_entries_account_day_idx").on(t.accountId, t.day, t.dayRank),
    index("ledger_entries_account_order_idx").on(t.accountId, t.occurredAt, t.id),
    // The opening entry of an account, found without reading the ledger (it must stay the oldest entry).
    index("ledger_entries_opening_idx").on(t.accountId).where(sql`${t.type} = 'opening'`),
    // A fill's entry, found without reading the account's ledger: undoing an import, deleting or editing a
    // fill and settling futures cash join entries to fills, and without it a join the planner misjudges (a
    // table just written, its statistics not yet taken) read the whole ledger once per fill.
    index("ledger_entries_fill_idx").on(t.fillId).where(sql`${t.fillId} is not null`),
    check("ledger_entries_type_known", sql`${t.type} in ('opening', 'deposit', 'withdrawal', 'fill', 'adjustment', 'prop_fee', 'payout')`),
  ],
);

/**
 * Days whose ledger entries changed inside a batch (ledger_batch_begin .. ledger_batch_end: an import that
 * writes and then settles many symbols' entries), made right once at its end instead of after every statement.
 */
export const ledgerDaysPending = pgTable(
  "ledger_days_pending",
  {
    accountId: uuid("account_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/** Each month of an account's ledger (UTC): the sums of its days, so a page finds its days among a few dozen rows. */
export const ledgerMonths = pgTable(
  "ledger_months",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The month's first day. */
    month: date("month", { mode: "string" }).notNull(),
    entries: integer("entries").notNull(),
    total: money("total").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);

/** Each day of an account's ledger (UTC days): how many entries and their total, kept by ledger_days_follow. */
export const ledgerDays = pgTable(
  "ledger_days",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    entries: integer("entries").notNull(),
    total: money("total").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/** One execution: what the broker reports. Positions and the fill's ledger entry derive from fills. */
export const fills = pgTable(
  "fills",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Its account: checked and cascaded once per statement (account_rows.sql), not by a foreign key. */
    accountId: uuid("account_id").notNull(),
    symbol: text("symbol").notNull(),
    assetClass: text("asset_class", { enum: ["stock", "option", "future"] }).notNull(),
    multiplier: money("multiplier").notNull(),
    side: text("side", { enum: ["buy", "sell"] }).notNull(),
    quantity: money("quantity").notNull(),
    price: money("price").notNull(),
    fees: money("fees").notNull().default("0"),
    /** The fees were estimated from the account's fee schedule (the row carried none), not reported. */
    feesEstimated: boolean("fees_estimated").notNull().default(false),
    executedAt: timestamp("executed_at", { withTimezone: true }).notNull(),
    /** The broker's execution id, when the source has one (de-duplication key). */
    executionId: text("execution_id"),
    /**
     * The broker's order the fill belongs to, when the source names one (IBKR's IBOrderID, tastytrade's Order #,
     * a thinkorswim spread's rows): the legs of one multi-leg order make one option strategy (docs/options.md).
     */
    orderId: text("order_id"),
    importId: uuid("import_id"),
    /**
     * Written by the journal, not the trader or a broker: "expiry" closes an option still open after its
     * expiry at 0 (options_expire). Provisional: the symbol's next fills replace it; the trader may delete it
     * (the option is then kept open: option_expiry_kept) or edit it (it becomes theirs).
     */
    generated: text("generated", { enum: ["expiry"] }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("fills_account_symbol_time_idx").on(t.accountId, t.symbol, t.executedAt, t.id),
    index("fills_generated_idx").on(t.accountId, t.symbol).where(sql`${t.generated} is not null`),
    check("fills_generated_known", sql`${t.generated} is null or ${t.generated} = 'expiry'`),
    uniqueIndex("fills_account_execution_id_idx").on(t.accountId, t.executionId).where(sql`${t.executionId} is not null`),
    index("fills_account_order_idx").on(t.accountId, t.orderId).where(sql`${t.orderId} is not null`),
    check("fills_quantity_positive", sql`${t.quantity} > 0`),
    check("fills_price_not_negative", sql`${t.price} >= 0`),
    check("fills_fees_not_negative", sql`${t.fees} >= 0`),
    check("fills_multiplier_positive", sql`${t.multiplier} > 0`),
    check("fills_side_known", sql`${t.side} in ('buy', 'sell')`),
    check("fills_asset_class_known", sql`${t.assetClass} in ('stock', 'option', 'future')`),
  ],
);

/**
 * A fill the trader deleted by hand (fill_delete): what it was, so that bringing it back (re-importing the file
 * it came from, after an undo) is said in the import's preview (lib/imports/imports.ts, markRestored), and a
 * sync can leave it out. Not written when an import is undone (that is not the trader's choice about a fill).
 */
export const fillTombstones = pgTable(
  "fill_tombstones",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    side: text("side").notNull(),
    quantity: money("quantity").notNull(),
    price: money("price").notNull(),
    executedAt: timestamp("executed_at", { withTimezone: true }).notNull(),
    executionId: text("execution_id"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("fill_tombstones_account_symbol_idx").on(t.accountId, t.symbol, t.executedAt)],
);

/**
 * An option the trader keeps open past its expiry: they deleted the closing fill options_expire generated
 * for it, so it is not generated again (docs/trading.md, "Option expiry and assignment").
 */
export const optionExpiryKept = pgTable(
  "option_expiry_kept",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol] })],
);

/**
 * A trade: from flat to flat in one account and symbol. Rebuilt from the fills by positions_rebuild
 * (migrations/functions/trades); a position keeps its id while the fill that opened it does. What a trader
 * writes about a trade is not here but in trade_journals, which follows the fills through any rebuild.
 */
export const positions = pgTable(
  "positions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Its account: checked and cascaded once per statement (account_rows.sql), not by a foreign key. */
    accountId: uuid("account_id").notNull(),
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
    /** Set by every rebuild that writes the row (now(), the transaction's time): journals_follow reads it. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("positions_account_opened_idx").on(t.accountId, t.openedAt),
    index("positions_account_closed_idx").on(t.accountId, t.closedAt),
    // (opened_at, open_fill_id) within a symbol: the position a fill belongs to is the last one opened at or
    // before it, in the replay's order (positions_rebuild_from's start, journals_follow's lookups).
    index("positions_account_symbol_opened_idx").on(t.accountId, t.symbol, t.openedAt, t.openFillId),
  ],
);

/**
 * Option strategies (lib/options/strategies.ts, docs/options.md): the option trades (and a covered call's
 * shares) of one account and underlying taken as one trade. Every option trade is a leg of exactly one. Grouped by
 * strategies_settle (opening fills within 60 seconds of the first: `auto`) or by the trader (`manual`, which no
 * settle regroups). What is written on the strategy as a whole is here; `rollOfId` links a roll to the strategy it
 * replaced. Its kind, figures and payoff are computed from its legs when read.
 */
export const strategies = pgTable(
  "strategies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    underlying: text("underlying").notNull(),
    source: text("source", { enum: ["auto", "manual"] }).notNull(),
    rollOfId: uuid("roll_of_id"),
    notes: text("notes"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    setup: text("setup"),
    rating: smallint("rating"),
    plannedRisk: money("planned_risk"),
    /** The playbook it was taken from (its checklist stays on each leg's trade journal). */
    playbookId: uuid("playbook_id").references(() => playbooks.id, { onDelete: "set null" }),
    /** When its first leg opened, and its last closed (null while one is open): kept by strategies_settle. */
    openedAt: timestamp("opened_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("strategies_account_underlying_opened_idx").on(t.accountId, t.underlying, t.openedAt),
    index("strategies_account_opened_idx").on(t.accountId, t.openedAt),
    /** Rolls: the strategies of an underlying that closed within a minute of another's opening. */
    index("strategies_account_underlying_closed_idx").on(t.accountId, t.underlying, t.closedAt),
    index("strategies_roll_of_idx").on(t.rollOfId),
    foreignKey({ columns: [t.rollOfId], foreignColumns: [t.id], name: "strategies_roll_of_id_fk" }).onDelete("set null"),
    check("strategies_source_known", sql`${t.source} in ('auto', 'manual')`),
    check("strategies_rating_range", sql`${t.rating} is null or ${t.rating} between 1 and 5`),
    check("strategies_planned_risk_positive", sql`${t.plannedRisk} is null or ${t.plannedRisk} > 0`),
  ],
);

/**
 * A strategy's legs: each by the fill that opens its trade, and that fill's identity (so a leg whose fill was
 * deleted or undone finds the same execution again when it comes back, as a journal does). A fill opens one leg.
 */
export const strategyLegs = pgTable(
  "strategy_legs",
  {
    strategyId: uuid("strategy_id")
      .notNull()
      .references(() => strategies.id, { onDelete: "cascade" }),
    fillId: uuid("fill_id").notNull().unique(),
    symbol: text("symbol").notNull(),
    side: text("side", { enum: ["buy", "sell"] }).notNull(),
    quantity: money("quantity").notNull(),
    price: money("price").notNull(),
    executedAt: timestamp("executed_at", { withTimezone: true }).notNull(),
    executionId: text("execution_id"),
  },
  (t) => [primaryKey({ columns: [t.strategyId, t.fillId] })],
);

/**
 * Accounts whose option or stock trades changed since strategies_settle last grouped them: noted by a trigger on
 * every statement that writes trades (strategies_follow), under the writing transaction's id, and taken by the next
 * settle (a note of a transaction not yet committed waits for the one after).
 */
export const strategyPending = pgTable(
  "strategy_pending",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    tx: bigint("tx", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.tx] })],
);

/**
 * A stock split of a symbol, for one user's accounts (lib/trades/splits.ts): from `effective_at` on, every
 * `old_shares` shares are `new_shares` (2 for 1 in a 2-for-1 split, 1 for 10 in a 1-for-10 reverse split; kept
 * apart so a 1-for-3 split is exact). Trade matching reads
 * every fill of the symbol before it in post-split shares and prices, so a position held through a split
 * closes flat; the ledger is untouched (a split moves no cash).
 */
export const splits = pgTable(
  "splits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    newShares: money("new_shares").notNull(),
    oldShares: money("old_shares").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("splits_user_symbol_at_idx").on(t.userId, t.symbol, t.effectiveAt),
    check("splits_shares_positive", sql`${t.newShares} > 0 and ${t.oldShares} > 0 and ${t.newShares} <> ${t.oldShares}`),
  ],
);

/**
 * Price bars (OHLCV) of a symbol (docs/charts.md): 1-minute ("1m") and daily ("1d"), each bar by its start
 * instant. A user's own: fetched on their key from the bar provider (source "provider") or uploaded as a
 * candle CSV ("upload"). Coarser resolutions of the chart (5m, 15m, 1h) are read from the 1-minute bars.
 */
export const bars = pgTable(
  "bars",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    resolution: text("resolution", { enum: ["1m", "1d"] }).notNull(),
    t: timestamp("t", { withTimezone: true }).notNull(),
    open: money("open").notNull(),
    high: money("high").notNull(),
    low: money("low").notNull(),
    close: money("close").notNull(),
    volume: money("volume").notNull().default("0"),
    source: text("source", { enum: ["provider", "upload"] }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.symbol, t.resolution, t.t] }),
    check("bars_resolution_known", sql`${t.resolution} in ('1m', '1d')`),
    check("bars_source_known", sql`${t.source} in ('provider', 'upload')`),
    check("bars_prices", sql`${t.low} >= 0 and ${t.low} <= ${t.open} and ${t.low} <= ${t.close} and ${t.high} >= ${t.open} and ${t.high} >= ${t.close} and ${t.volume} >= 0`),
  ],
);

/**
 * Which days of a symbol's bars a user has, and the fetch queue (lib/market/bars.ts): one row per user,
 * symbol, resolution and New York trading day ("1m") or month ("1d": the month's first day). `queued` rows
 * wait for the provider (not before next_attempt_at), one `fetching` claim at a time; `ok` holds bars,
 * `empty` had none (a holiday), `failed` gave up. Uploads mark the days they cover `ok`.
 */
export const barDays = pgTable(
  "bar_days",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    resolution: text("resolution", { enum: ["1m", "1d"] }).notNull(),
    day: text("day").notNull(),
    status: text("status", { enum: ["queued", "fetching", "ok", "empty", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    detail: text("detail"),
    /**
     * The day's bars as the chart reads them, one JSON array of [epoch seconds, open, high, low, close, volume]
     * (decimals without trailing zeros), written with them by bars_store: a chart reads a day in one row.
     */
    barsJson: text("bars_json"),
    /** Who wrote the day's bars last: "provider" or "upload". */
    source: text("source", { enum: ["provider", "upload"] }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.symbol, t.resolution, t.day] }),
    index("bar_days_queue_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    check("bar_days_status_known", sql`${t.status} in ('queued', 'fetching', 'ok', 'empty', 'failed')`),
  ],
);

/**
 * A closed trade's excursions (docs/charts.md, "Excursions"), computed from the bars covering it
 * (trade_excursions_compute). `basis` is the trade's updated_at when computed: a rebuild of the trade (its
 * fills changed) makes the row stale; new bars of its symbol delete it. Recomputed by the compute-excursions
 * job and on reading the trade. No foreign key to positions, as position_fills (migration 0013): rebuilds
 * replace positions in bulk, and the job deletes rows whose trade is gone.
 */
export const tradeExcursions = pgTable("trade_excursions", {
  positionId: uuid("position_id").primaryKey(),
  basis: timestamp("basis", { withTimezone: true }).notNull(),
  priceMae: money("price_mae"),
  priceMfe: money("price_mfe"),
  positionMae: money("position_mae"),
  positionMfe: money("position_mfe"),
  bestExitPnl: money("best_exit_pnl"),
  barsFrom: text("bars_from", { enum: ["1m", "1d"] }),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A trader's playbook: a setup they trade, with its entry and exit criteria and a checklist of items
 * (`items`: [{id, kind: checkbox|number|text|choice, label, options?}]) a trade taken from it answers
 * (trade_journals.playbook_answers). Archived, not deleted, while trades use it.
 */
export const playbooks = pgTable(
  "playbooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    entryCriteria: text("entry_criteria"),
    exitCriteria: text("exit_criteria"),
    items: jsonb("items").notNull().default(sql`'[]'::jsonb`),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("playbooks_user_name_idx").on(t.userId, sql`lower(${t.name})`)],
);

/**
 * A trading rule of an account (lib/rules): a limit the trader sets themselves (max daily loss, max trades a
 * day, trading hours...), with its parameters (`params`, by type) and its weight in the compliance score.
 * Scored after the fact from the trades; it never blocks a fill.
 */
export const tradingRules = pgTable(
  "trading_rules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    params: jsonb("params").notNull(),
    /** 3 critical, 2 important, 1 nice to have. */
    weight: smallint("weight").notNull().default(2),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("trading_rules_account_idx").on(t.accountId), check("trading_rules_weight_range", sql`${t.weight} between 1 and 3`)],
);

/** What a tag means to its user: a setup, a mistake or an emotion (lib/tags). A tag without a row has no kind. */
export const tagKinds = pgTable(
  "tag_kinds",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tag: text("tag").notNull(),
    kind: text("kind", { enum: ["setup", "mistake", "emotion"] }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tag] }), check("tag_kinds_kind_known", sql`${t.kind} in ('setup', 'mistake', 'emotion')`)],
);

/**
 * The daily journal: one entry per account and trading day (the day on the account's clock): the plan
 * written before the open, the review after the close, the mood (1-5) and the day's tags.
 */
export const dayJournals = pgTable(
  "day_journals",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    plan: text("plan"),
    review: text("review"),
    mood: smallint("mood"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] }), check("day_journals_mood_range", sql`${t.mood} is null or ${t.mood} between 1 and 5`)],
);

/**
 * What a trader wrote about a trade: notes, tags, setup, rating and screenshots (trade_images). A journal is
 * not part of the position it is on: it follows the fills. After any rebuild (fills added, edited, deleted,
 * imported, undone) journals_follow moves it to the trade that holds the most of its previous fills; when
 * none does, it is detached (position_id null) and listed as a detached note until a trade with those fills
 * returns (matched by fill id, execution id, or account, symbol, time to the second, side, quantity and
 * price) or the trader attaches or deletes it. Only the trader deletes one (or deletes the account).
 */
export const tradeJournals = pgTable(
  "trade_journals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The trade it is on; null when detached. A position deleted by any path detaches it, never deletes it. */
    positionId: uuid("position_id")
      .unique()
      .references(() => positions.id, { onDelete: "set null" }),
    /** The trade it was last on (kept when detached), and every earlier one: old links find it by these. */
    lastPositionId: uuid("last_position_id"),
    formerPositionIds: uuid("former_position_ids").array().notNull().default(sql`'{}'::uuid[]`),
    notes: text("notes"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    setup: text("setup"),
    rating: smallint("rating"),
    /** The plan: where the trader would have been wrong (stop), where they meant to take profit, and what they risked. */
    stopPrice: money("stop_price"),
    targetPrice: money("target_price"),
    plannedRisk: money("planned_risk"),
    /**
     * The trade's entry when last refreshed: the average price of its opening fills (those before its first
     * reducing fill). Kept by journals_follow with the trade, so R reads need no walk over fills.
     */
    entryPrice: money("entry_price"),
    /** The playbook the trade was taken from (lib/playbooks), and the answers to its checklist by item id. */
    playbookId: uuid("playbook_id").references(() => playbooks.id, { onDelete: "set null" }),
    playbookAnswers: jsonb("playbook_answers").notNull().default(sql`'{}'::jsonb`),
    /** The trade it was last on, as it was then: what the detached notes page shows. */
    symbol: text("symbol").notNull(),
    direction: text("direction", { enum: ["long", "short"] }),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    netPnl: money("net_pnl"),
    fillCount: integer("fill_count").notNull().default(0),
    detachedAt: timestamp("detached_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("trade_journals_account_symbol_idx").on(t.accountId, t.symbol),
    index("trade_journals_former_idx").using("gin", t.formerPositionIds),
    index("trade_journals_last_position_idx").on(t.lastPositionId),
    index("trade_journals_playbook_idx").on(t.playbookId),
    check("trade_journals_rating_range", sql`${t.rating} is null or ${t.rating} between 1 and 5`),
    check("trade_journals_plan_prices", sql`(${t.stopPrice} is null or ${t.stopPrice} >= 0) and (${t.targetPrice} is null or ${t.targetPrice} >= 0)`),
    check("trade_journals_planned_risk_positive", sql`${t.plannedRisk} is null or ${t.plannedRisk} > 0`),
  ],
);

/**
 * The fills of the trade a journal was last on (their identity, not a reference: a fill that is deleted or
 * undone stays described here), so the journal can find them again when they come back.
 */
export const journalFills = pgTable(
  "journal_fills",
  {
    journalId: uuid("journal_id")
      .notNull()
      .references(() => tradeJournals.id, { onDelete: "cascade" }),
    fillId: uuid("fill_id").notNull(),
    symbol: text("symbol").notNull(),
    side: text("side", { enum: ["buy", "sell"] }).notNull(),
    quantity: money("quantity").notNull(),
    price: money("price").notNull(),
    /** To the second, as the duplicate rule compares them. */
    executedAt: timestamp("executed_at", { withTimezone: true }).notNull(),
    executionId: text("execution_id"),
  },
  (t) => [primaryKey({ columns: [t.journalId, t.fillId] })],
);

/** Which part of which fill belongs to which position (a reversing fill belongs to two). */
export const positionFills = pgTable(
  "position_fills",
  {
    // No foreign keys: shares are derived, rebuilt with their fills, and deleted with their position by a
    // trigger (migrations/0013).
    positionId: uuid("position_id").notNull(),
    fillId: uuid("fill_id").notNull(),
    /** The position's account, so an account's shares of a day are found by index (the statistics' edges and refreshes). */
    accountId: uuid("account_id").notNull(),
    quantity: money("quantity").notNull(),
    fees: money("fees").notNull(),
    role: text("role", { enum: ["open", "add", "reduce", "close"] }).notNull(),
    /** The fill's time, so realised P&L is dated without reading fills. */
    executedAt: timestamp("executed_at", { withTimezone: true }).notNull(),
    /** Gross P&L this share realised (reduce and close legs; 0 when it opens or adds). */
    realized: money("realized").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.fillId] }), index("position_fills_account_time_idx").on(t.accountId, t.executedAt)],
);

/**
 * The statistics, maintained (docs/trading.md, "Statistics at any depth"): per account and trading day (the
 * account's zone; grain 'day') and per month (grain 'month', the sums of its days), per dimension (`dim`: ''
 * for the totals, symbol, direction, weekday, hour, setup, tag) and key, and per 1R of the trades closed
 * (`oneR`, null for none and for what the fill shares realised and paid): the money the shares moved, the
 * trades closed, and on the totals' row (no 1R) the day's or month's drawdown summary (its cumulative high
 * and low and deepest fall, in time order). Written only by stats_refresh (migrations/functions/stats), after
 * every statement that changes what a day reads.
 */
export const statsGroups = pgTable(
  "stats_groups",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    grain: text("grain", { enum: ["day", "month"] }).notNull(),
    dim: text("dim").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    key: text("key").notNull(),
    oneR: money("one_r"),
    net: money("net").notNull(),
    gross: money("gross").notNull(),
    fees: money("fees").notNull(),
    /** Fill shares that realised or paid something. */
    moved: integer("moved").notNull(),
    trades: integer("trades").notNull(),
    wins: integer("wins").notNull(),
    losses: integer("losses").notNull(),
    tradesNet: money("trades_net").notNull(),
    winsNet: money("wins_net"),
    lossesNet: money("losses_net"),
    largest: money("largest"),
    smallest: money("smallest"),
    /**
     * On a day's totals row (no 1R): the trades closed that day over every 1R, the sum of their R per 1R
     * (each 1R's net / 1R, unrounded, as the calendar sums them) and how many had a 1R: the calendar and the
     * daily equity curve read one row per day.
     */
    dayTrades: integer("day_trades"),
    dayR: numeric("day_r"),
    dayWithRisk: integer("day_with_risk"),
    ddHigh: money("dd_high"),
    ddLow: money("dd_low"),
    ddDrop: money("dd_drop"),
  },
  (t) => [
    unique("stats_groups_key").on(t.accountId, t.grain, t.dim, t.day, t.key, t.oneR).nullsNotDistinct(),
    // The day totals' rows in order, for the calendar, the daily equity curve and the drawdown: migration 0048
    // adds their columns to the index (INCLUDE, which drizzle cannot declare), so those reads never visit the
    // table, where a day's totals row sits among its symbols' and hours' rows.
    index("stats_groups_days").on(t.accountId, t.day).where(sql`grain = 'day' and dim = '' and one_r is null`),
  ],
);

/**
 * The drawdown summary of each UTC day over all of a user's accounts in one currency (their fill shares
 * merged in time order): what a figure over several accounts reads. Written by stats_refresh.
 */
export const statsDrawdownDays = pgTable(
  "stats_drawdown_days",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    net: money("net").notNull(),
    high: money("high").notNull(),
    low: money("low").notNull(),
    drop: money("drop").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency, t.day] })],
);

/**
 * A change count per user and month of their maintained day rows (stats_groups), raised by a trigger on every
 * write of those rows (migrations/functions/stats/stats_month_bump.sql): what says a month in the base
 * currency (stats_base_months) still holds.
 */
export const statsMonthVersions = pgTable(
  "stats_month_versions",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    month: date("month", { mode: "string" }).notNull(),
    v: bigint("v", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
);

/**
 * A month of a user's statistics in their base currency (docs/currencies.md), built from the day rows of all
 * their accounts, each day at its rate: for the base, the rates' version (fx_version) and the month's change
 * count (v) it was built at; a read uses it only while all three are still the user's. `missing`: the
 * (currency, day) pairs left out for want of a rate.
 */
export const statsBaseMonths = pgTable(
  "stats_base_months",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    month: date("month", { mode: "string" }).notNull(),
    base: text("base").notNull(),
    fxVersion: bigint("fx_version", { mode: "number" }).notNull(),
    v: bigint("v", { mode: "number" }).notNull(),
    missing: integer("missing").notNull(),
    /**
     * The month as one segment of the drawdown on each day's converted close (lib/stats/stats.ts, chainSql):
     * its net, the highest and lowest running sum of its days from its start, the deepest fall within it.
     */
    ddNet: numeric("dd_net").notNull(),
    ddHigh: numeric("dd_high").notNull(),
    ddLow: numeric("dd_low").notNull(),
    ddDrop: numeric("dd_drop").notNull(),
    builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] }), index("stats_base_months_month").on(t.month)],
);

/**
 * The rows of a month in the base (stats_base_months): stats_groups' columns summed over the user's accounts,
 * what was realised and paid converted (net, gross, fees), the closed trades' sums as they are for their R and
 * converted beside them (b_...). Unconstrained numerics: a converted amount keeps its rate's decimals, so the
 * month equals its days converted and summed exactly.
 */
export const statsBaseGroups = pgTable(
  "stats_base_groups",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    month: date("month", { mode: "string" }).notNull(),
    base: text("base").notNull(),
    fxVersion: bigint("fx_version", { mode: "number" }).notNull(),
    v: bigint("v", { mode: "number" }).notNull(),
    dim: text("dim").notNull(),
    key: text("key").notNull(),
    oneR: numeric("one_r"),
    net: numeric("net").notNull(),
    gross: numeric("gross").notNull(),
    fees: numeric("fees").notNull(),
    moved: integer("moved").notNull(),
    trades: integer("trades").notNull(),
    wins: integer("wins").notNull(),
    losses: integer("losses").notNull(),
    tradesNet: numeric("trades_net").notNull(),
    winsNet: numeric("wins_net"),
    lossesNet: numeric("losses_net"),
    largest: numeric("largest"),
    smallest: numeric("smallest"),
    bTradesNet: numeric("b_trades_net").notNull(),
    bWinsNet: numeric("b_wins_net"),
    bLossesNet: numeric("b_losses_net"),
    bLargest: numeric("b_largest"),
    bSmallest: numeric("b_smallest"),
  },
  (t) => [unique("stats_base_groups_key").on(t.userId, t.month, t.base, t.fxVersion, t.v, t.dim, t.key, t.oneR).nullsNotDistinct()],
);

/**
 * Trading days whose statistics changed, noted by the transaction that changed them (`tx`, its id: a note is
 * never merged into another transaction's, which a reader could settle before this one commits), and
 * refreshed by the next read of the user's statistics (stats_settle).
 */
export const statsPending = pgTable(
  "stats_pending",
  {
    accountId: uuid("account_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    tx: bigint("tx", { mode: "number" }).notNull().default(sql`txid_current()`),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.tx] })],
);

/**
 * A preview's fills in parts of at most IMPORT_PART_FILLS (lib/imports/imports.ts), each an array in the
 * order import_apply reads: no statement (and no buffer of the server's driver) carries a whole 10 MB file's
 * fills at once. Deleted with their import, and by the commit.
 */
export const csvImportParts = pgTable(
  "csv_import_parts",
  {
    importId: uuid("import_id")
      .notNull()
      .references(() => csvImports.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    fills: jsonb("fills").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.part] })],
);

/**
 * The version of each user's maintained statistics (stats_groups, stats_drawdown_days): raised by every
 * function that writes them (stats_version_bump), so a read that finds the same version finds the same rows
 * (lib/maintained/cache.ts keeps figures by it).
 */
export const statsVersions = pgTable("stats_versions", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

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
    /** The broker's own rates the file carries ([{day, base, k}], lib/imports/normalize.ts): kept by the commit. */
    brokerRates: jsonb("broker_rates"),
    /**
     * The fills a commit would write, inline (no object storage; a pushed batch): emptied once committed. A
     * preview stages them in parts instead (csv_import_parts, `stagedParts` of them).
     */
    staged: jsonb("staged"),
    /** How many parts a preview staged its fills in (csv_import_parts); null when staged otherwise. */
    stagedParts: integer("staged_parts"),
    /**
     * With object storage: the key of the object holding the fills instead of `staged`. Cleared once the
     * object is no longer needed; clearing it or deleting the row queues the key in object_deletions
     * (trigger of migration 0010).
     */
    stagedKey: text("staged_key"),
    stagedBytes: integer("staged_bytes").notNull().default(0),
    fillsCreated: integer("fills_created"),
    /**
     * A batch pushed through the API (lib/imports/push.ts): its Idempotency-Key (one import per key and user),
     * the SHA-256 of its body (the same key with another batch is refused), and the answer, replayed to a retry.
     */
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    pushResult: jsonb("push_result"),
  },
  (t) => [
    uniqueIndex("csv_imports_idempotency_idx").on(t.userId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    index("csv_imports_account_idx").on(t.accountId, t.createdAt),
    index("csv_imports_status_idx").on(t.status, t.expiresAt),
    check("csv_imports_status_known", sql`${t.status} in ('staged', 'committing', 'committed', 'undone')`),
  ],
);

/**
 * The column mappings a trader used for files no preset reads (docs/imports.md, "Any CSV"), one per account
 * and header layout (`header_key`: the SHA-256 of the header's cells, trimmed and lowercased, joined), saved
 * by a preview that read rows with it and offered again for the next file with the same header.
 */
export const importMappings = pgTable(
  "import_mappings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    headerKey: text("header_key").notNull(),
    header: jsonb("header").notNull(),
    mapping: jsonb("mapping").notNull(),
    options: jsonb("options").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("import_mappings_account_header_idx").on(t.accountId, t.headerKey)],
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

/**
 * Bytes in Postgres. Read and written only through encode()/decode() in SQL (lib/trades/images.ts), so every
 * driver (node-postgres, PGlite, the HTTP driver) sees the same base64 text.
 */
const bytea = customType<{ data: string }>({ dataType: () => "bytea" });

/**
 * Screenshots of a trade, held by its journal (so they follow it through rebuilds and detaching): the bytes
 * inline (`data`) or in object storage (`storage_key`), exactly one of the two. Deleted with their journal,
 * account or user; a trigger queues a stored object's key
 * in object_deletions whenever its row goes (migrations/functions/trades/trade_images_queue_object_deletion.sql).
 */
export const tradeImages = pgTable(
  "trade_images",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Whose image: a trade journal's (a screenshot), a playbook's (an example), or a day's (exactly one). */
    journalId: uuid("journal_id").references(() => tradeJournals.id, { onDelete: "cascade" }),
    playbookId: uuid("playbook_id").references(() => playbooks.id, { onDelete: "cascade" }),
    dayAccountId: uuid("day_account_id"),
    day: date("day", { mode: "string" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contentType: text("content_type", { enum: ["image/png", "image/jpeg", "image/webp"] }).notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    data: bytea("data"),
    storageKey: text("storage_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("trade_images_journal_idx").on(t.journalId, t.createdAt),
    index("trade_images_playbook_idx").on(t.playbookId, t.createdAt),
    index("trade_images_day_idx").on(t.dayAccountId, t.day, t.createdAt),
    foreignKey({ columns: [t.dayAccountId, t.day], foreignColumns: [dayJournals.accountId, dayJournals.day], name: "trade_images_day_fk" }).onDelete("cascade"),
    check("trade_images_one_owner", sql`num_nonnulls(${t.journalId}, ${t.playbookId}, ${t.dayAccountId}) = 1 and (${t.dayAccountId} is null) = (${t.day} is null)`),
    check("trade_images_one_place", sql`(${t.data} is null) <> (${t.storageKey} is null)`),
    check("trade_images_type", sql`${t.contentType} in ('image/png', 'image/jpeg', 'image/webp')`),
    check("trade_images_bytes", sql`${t.bytes} > 0`),
  ],
);

/**
 * The images of an archive being imported (lib/archive/restore.ts), kept here while the rest of the archive is
 * read: each becomes a trade_images row (the same id) in the statement that writes the archive
 * (archive_restore), or is discarded with its object (archive_restore_discard: a refused archive, or one left
 * behind by a stopped process, after a day).
 */
export const archiveRestoreImages = pgTable(
  "archive_restore_images",
  {
    id: uuid("id").primaryKey(),
    restoreId: uuid("restore_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Its entry in the archive (screenshots/<id>.<ext>), which screenshots.json gives its owner. */
    file: text("file").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    data: bytea("data"),
    storageKey: text("storage_key"),
    /** When the image was first added (kept from the archive). */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    stagedAt: timestamp("staged_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("archive_restore_images_restore_idx").on(t.restoreId, t.file), index("archive_restore_images_staged_idx").on(t.stagedAt)],
);

/**
 * A user's own keys (bring-your-own-key): one per language-model provider and one market-data key
 * (provider "market-data"). Only the sealed envelope (lib/crypto/envelope.ts, base64) and the last four
 * characters are stored, never the plaintext. `keyId` is the envelope's key id, for rotation.
 */
export const storedKeys = pgTable(
  "stored_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["openai", "anthropic", "gemini", "openrouter", "market-data", "bars"] }).notNull(),
    ciphertext: text("ciphertext").notNull(),
    keyId: text("key_id").notNull(),
    keyHint: text("key_hint").notNull(),
    defaultModel: text("default_model"),
    verified: boolean("verified").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    index("stored_keys_key_id_idx").on(t.keyId),
    check("stored_keys_provider_known", sql`${t.provider} in ('openai', 'anthropic', 'gemini', 'openrouter', 'market-data', 'bars')`),
  ],
);

/**
 * Broker sync (lib/sync, docs/imports.md "Broker sync"): at most one connection per account. The token is
 * sealed like a provider key (its additional data names the user and "broker:<account id>", so the key
 * rotation and the start-up check read it through the sealed_secrets view); only its last four characters
 * are kept in the clear, to show. `broken` says why the service refused it (expired, invalid...): a broken
 * connection is not pulled on the schedule until the trader saves a new token.
 */
export const brokerConnections = pgTable(
  "broker_connections",
  {
    accountId: uuid("account_id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["ibkr-flex", "alpaca", "tastytrade", "tradovate", "schwab", "kraken", "coinbase"] }).notNull(),
    /** The provider's secret (a token; keys as JSON), sealed. */
    ciphertext: text("ciphertext").notNull(),
    keyId: text("key_id").notNull(),
    tokenTail: text("token_tail").notNull(),
    /** What the trader gave that may be shown (IBKR's query id, Alpaca's paper flag). */
    settings: jsonb("settings").$type<Record<string, string | boolean>>().notNull().default({}),
    /** Where the next run starts (the newest execution time a run committed, or a provider's id); null: from the start date. */
    cursor: text("cursor"),
    /** Nothing executed before this day (in the account's zone) is imported by a run; null: everything the statement has. */
    startDate: date("start_date"),
    verified: boolean("verified").notNull().default(false),
    broken: text("broken"),
    /** Paused by the trader: the schedule leaves it alone (Sync now still pulls). */
    paused: boolean("paused").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("broker_connections_key_id_idx").on(t.keyId),
    check("broker_connections_provider_known", sql`${t.provider} in ('ibkr-flex', 'alpaca', 'tastytrade', 'tradovate', 'schwab', 'kraken', 'coinbase')`),
  ],
);

/**
 * A Schwab sign-in under way (lib/sync/schwab-oauth.ts): its OAuth state, the PKCE verifier and what the trader
 * chose, for ten minutes at most, used once by the callback of the same user.
 */
export const brokerOauthFlows = pgTable(
  "broker_oauth_flows",
  {
    state: text("state").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    verifier: text("verifier").notNull(),
    startDate: date("start_date"),
    accountTail: text("account_tail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("broker_oauth_flows_created_idx").on(t.createdAt)],
);

/**
 * A user's own settings (GET/PUT /api/settings, docs/currencies.md): the base currency every account's
 * figures convert to (null: off). `fxVersion` rises with every change of the base or of an override, so
 * figures kept by version (lib/maintained/cache.ts) are never those of an older rate.
 */
export const userSettings = pgTable("user_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  baseCurrency: text("base_currency"),
  /** Amounts hidden on the screens (privacyMode): stored for the screens, which read it from GET /api/settings. */
  privacyMode: boolean("privacy_mode").notNull().default(false),
  /** The weekly digest's schedule ({weekly, weekday, hour, zone}), null until set. */
  digest: jsonb("digest").$type<{ weekly: boolean; weekday: number; hour: number; zone: string }>(),
  fxVersion: bigint("fx_version", { mode: "number" }).notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The daily reference rates (lib/fx/rates.ts): units of `currency` per 1 EUR on `day`, as the rate service
 * (FX_RATES_BASE_URL, the ECB's rates through Frankfurter) published them; EUR itself is stored as 1.
 */
export const fxRates = pgTable(
  "fx_rates",
  {
    day: date("day", { mode: "string" }).notNull(),
    currency: text("currency").notNull(),
    perEur: numeric("per_eur").notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.day] }), check("fx_rates_positive", sql`per_eur > 0`)],
);

/**
 * The dates asked of the rate service, with whether it had rates of their own (a weekend or a holiday has
 * none: the latest earlier date's apply, at most 7 days back). A date is recorded once it is settled: not a
 * recent date still without rates (they are published the afternoon of the day).
 */
export const fxRateDays = pgTable("fx_rate_days", {
  day: date("day", { mode: "string" }).primaryKey(),
  hasRates: boolean("has_rates").notNull(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each asked date's reference rate per currency, walked back (lib/fx/rates.ts): the latest published rate of
 * the currency at most 7 days before, and its date. Written with the rates, so a conversion is one lookup.
 */
export const fxDaily = pgTable(
  "fx_daily",
  {
    currency: text("currency").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    perEur: numeric("per_eur").notNull(),
    rateDay: date("rate_day", { mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.day] })],
);

/** A trader's own rate for a date: units of `currency` per 1 of their base currency, winning over the reference rate. */
export const fxOverrides = pgTable(
  "fx_overrides",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    currency: text("currency").notNull(),
    base: text("base").notNull(),
    rate: numeric("rate").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency, t.day] }), check("fx_overrides_positive", sql`rate > 0`)],
);

/**
 * An account's prop-firm evaluation or funded account (docs/prop-firms.md): the firm's rules it runs under from
 * the trading day `start_date` on (lib/prop/engine.ts, PropRules, as JSON). One per account.
 */
export const propEvaluations = pgTable("prop_evaluations", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  firm: text("firm").notNull(),
  phase: text("phase", { enum: ["evaluation", "funded"] }).notNull(),
  startDate: date("start_date", { mode: "string" }).notNull(),
  rules: jsonb("rules").notNull(),
  /**
   * The engine's state after the fills up to (through_at, through_id) (lib/prop/engine.ts, EngineState): the
   * status after one more fill runs that fill only. Dropped when the rules change, and by prop_state_follow
   * when a fill at or before it is written, changed or deleted.
   */
  state: jsonb("state"),
  throughAt: timestamp("through_at", { withTimezone: true }),
  throughId: uuid("through_id"),
  /** Raised by every fill written, changed or deleted in the account: a state is kept only at the count it was run at. */
  stateV: bigint("state_v", { mode: "number" }).notNull().default(0),
  /**
   * The trader's warning thresholds (lib/prop/warnings.ts): warn when the distance to the floor, or the day's
   * loss left, falls under them; null: no warning of that kind. `warnEmail`: by email too, not only in the app.
   */
  warnFloor: numeric("warn_floor"),
  warnDaily: numeric("warn_daily"),
  warnEmail: boolean("warn_email").notNull().default(false),
  /** The state_v the warnings were last checked at: the job looks again only after a fill was written. */
  warnedV: bigint("warned_v", { mode: "number" }).notNull().default(-1),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index("prop_evaluations_user_idx").on(t.userId)]);

/**
 * The warnings given (lib/prop/warnings.ts): at most one of each kind per account and trading day (the firm's
 * day), the value that crossed the threshold, and whether it was emailed.
 */
export const propWarnings = pgTable(
  "prop_warnings",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => propEvaluations.accountId, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    kind: text("kind").notNull(),
    value: numeric("value").notNull(),
    threshold: numeric("threshold").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    emailed: boolean("emailed").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.kind] }), check("prop_warnings_kind_known", sql`${t.kind} in ('floor', 'daily_loss')`)],
);

/**
 * A broker's own rate for an account's date (IBKR Flex's fxRateToBase): what 1 of the account's `currency` is
 * in the broker account's `base`, as the broker booked that day's trades of the account. Used for the account's
 * figures on that date when the user's base is `base`, before their overrides and the reference rate
 * (docs/currencies.md). Written by import commits.
 */
export const fxBrokerRates = pgTable(
  "fx_broker_rates",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    base: text("base").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    /** Units of `base` per 1 `currency`, as the broker gives it. */
    k: numeric("k").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.base, t.day] }),
    index("fx_broker_rates_user_base_idx").on(t.userId, t.base),
    check("fx_broker_rates_positive", sql`k > 0`),
  ],
);

/**
 * Each pull of a broker connection, its counts and its error. A partial unique index keeps one run at a time
 * per account, whichever process starts it (the schedule on two Node processes, a cron and a click).
 */
export const brokerSyncRuns = pgTable(
  "broker_sync_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    status: text("status", { enum: ["running", "succeeded", "failed"] }).notNull().default("running"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    imported: integer("imported").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    /** Fills of the statement the trader had deleted by hand (fill_tombstones): never brought back by a run. */
    skippedDeleted: integer("skipped_deleted").notNull().default(0),
    /** The rows the run left out, counted per reason ([{reason, count}]): not trades, before the start date, deleted... */
    skipped: jsonb("skipped").$type<Array<{ reason: string; count: number }>>().notNull().default([]),
    error: text("error"),
    importId: uuid("import_id"),
  },
  (t) => [
    index("broker_sync_runs_account_idx").on(t.accountId, t.startedAt),
    uniqueIndex("broker_sync_runs_running_idx").on(t.accountId).where(sql`${t.status} = 'running'`),
    check("broker_sync_runs_status_known", sql`${t.status} in ('running', 'succeeded', 'failed')`),
    check("broker_sync_runs_trigger_known", sql`${t.trigger} in ('schedule', 'manual')`),
  ],
);

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

/** Advisor conversations; `turnId`/`turnUntil` hold the one turn allowed at a time (claimed by a conditional update). */
export const advisorConversations = pgTable(
  "advisor_conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    /** A summary of the messages before `summaryUntil`, sent instead of them once the history nears the context window. */
    summary: text("summary"),
    summaryUntil: timestamp("summary_until", { withTimezone: true }),
    turnId: uuid("turn_id"),
    turnUntil: timestamp("turn_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("advisor_conversations_user_idx").on(t.userId, t.updatedAt, t.id)],
);

export const advisorMessages = pgTable(
  "advisor_messages",
  {
    id: uuid("id").primaryKey(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => advisorConversations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    text: text("text").notNull().default(""),
    /** [{id, name, arguments, summary, ok}] */
    toolCalls: jsonb("tool_calls").notNull().default(sql`'[]'::jsonb`),
    /** {inputTokens, outputTokens, credits?} */
    usage: jsonb("usage"),
    status: text("status", { enum: ["complete", "incomplete", "failed"] }).notNull(),
    finishReason: text("finish_reason"),
    /** The client's id of a user message: the same id sent again replays the answer (per conversation). */
    clientMessageId: uuid("client_message_id"),
    /** For an answer: the user message it answers. */
    replyTo: uuid("reply_to"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("advisor_messages_conversation_idx").on(t.conversationId, t.createdAt, t.id),
    uniqueIndex("advisor_messages_client_idx").on(t.conversationId, t.clientMessageId).where(sql`${t.clientMessageId} is not null`),
    check("advisor_messages_role_known", sql`${t.role} in ('user', 'assistant')`),
    check("advisor_messages_status_known", sql`${t.status} in ('complete', 'incomplete', 'failed')`),
  ],
);

/** Per-user advisor settings: whether journal data may be sent to the model provider (off until turned on). */
export const advisorSettings = pgTable("advisor_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  shareJournal: boolean("share_journal").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The regulator's ticker file, one generation per load (lib/market/tickers.ts). Search reads only the
 * generation `symbol_loads` names, so a load is swapped in by one statement and a failed one is never seen.
 */
export const symbols = pgTable(
  "symbols",
  {
    generation: integer("generation").notNull(),
    ticker: text("ticker").notNull(),
    name: text("name").notNull(),
    exchange: text("exchange"),
    /** The name lower-cased with a leading space, so a word prefix is `like '% word%'`. */
    words: text("words").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.generation, t.ticker] }),
    index("symbols_ticker_prefix_idx").using("btree", t.generation, sql`${t.ticker} text_pattern_ops`),
  ],
);

/** The one row that says which symbol generation is live, when it was loaded, and who is loading now. */
export const symbolLoads = pgTable(
  "symbol_loads",
  {
    id: smallint("id").primaryKey().default(1),
    generation: integer("generation").notNull().default(0),
    rows: integer("rows").notNull().default(0),
    loadedAt: timestamp("loaded_at", { withTimezone: true }),
    claimToken: uuid("claim_token"),
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (t) => [check("symbol_loads_single_row", sql`${t.id} = 1`)],
);

/** Every administrator action: who did what to whom, when and why. Written in the action's own statement. */
export const adminAudit = pgTable(
  "admin_audit",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** The actor's email at the time, so the entry still says who after the account is gone. */
    actorEmail: text("actor_email").notNull(),
    action: text("action", { enum: ["promote", "demote", "set_plan", "credit_grant", "end_sessions", "disable_2fa"] }).notNull(),
    targetUserId: uuid("target_user_id").references(() => users.id, { onDelete: "set null" }),
    targetEmail: text("target_email").notNull(),
    reason: text("reason"),
    details: jsonb("details").notNull().default(sql`'{}'::jsonb`),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("admin_audit_at_idx").on(t.at, t.id),
    check("admin_audit_action_known", sql`${t.action} in ('promote', 'demote', 'set_plan', 'credit_grant', 'end_sessions', 'disable_2fa')`),
  ],
);

/** The cached releases of CHANGELOG_RELEASES_REPO (one row: the last good copy and when it was fetched). */
export const changelogCache = pgTable(
  "changelog_cache",
  {
    id: smallint("id").primaryKey().default(1),
    repo: text("repo").notNull(),
    releases: jsonb("releases").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
    /** A refresh in progress (single flight across processes): its lease. */
    refreshingUntil: timestamp("refreshing_until", { withTimezone: true }),
  },
  (t) => [check("changelog_cache_single_row", sql`${t.id} = 1`)],
);

export const schema = {
  users,
  sessions,
  emailTokens,
  brokerages,
  accounts,
  ledgerEntries,
  ledgerDays,
  ledgerMonths,
  ledgerDaysPending,
  fills,
  positions,
  positionFills,
  statsGroups,
  statsDrawdownDays,
  statsPending,
  tradeJournals,
  journalFills,
  playbooks,
  dayJournals,
  tradingRules,
  tagKinds,
  signInFailures,
  userTotp,
  backupCodes,
  signInChallenges,
  accessTokens,
  knownDevices,
  passkeys,
  webauthnFlows,
  splits,
  csvImports,
  objectDeletions,
  tradeImages,
  archiveRestoreImages,
  storedKeys,
  wallets,
  walletMovements,
  creditHolds,
  paymentEvents,
  creditPurchases,
  billingCustomers,
  subscriptions,
  advisorConversations,
  advisorMessages,
  advisorSettings,
  symbols,
  symbolLoads,
  adminAudit,
  changelogCache,
  userSettings,
  fxRates,
  fxRateDays,
  fxDaily,
  fxOverrides,
  statsMonthVersions,
  statsBaseMonths,
  statsBaseGroups,
};

/**
 * A public link (issue 59, docs/sharing.md): a trade (by its journal, which follows the trade through any
 * rebuild) or a report (accounts and a period), showing only what `show` chose. The token is 32 random bytes,
 * stored as its SHA-256 only; `views` counts every answered view (one atomic update each).
 */
export const shares = pgTable(
  "shares",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["trade", "report"] }).notNull(),
    journalId: uuid("journal_id").references(() => tradeJournals.id, { onDelete: "cascade" }),
    accountIds: uuid("account_ids").array().notNull(),
    /** A report's period, as the statistics take it (from inclusive, to exclusive); null: open-ended. */
    fromAt: timestamp("from_at", { withTimezone: true }),
    toAt: timestamp("to_at", { withTimezone: true }),
    show: jsonb("show").$type<{ money: boolean; notes: boolean; images: boolean; chart: boolean }>().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    views: bigint("views", { mode: "number" }).notNull().default(0),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("shares_user_idx").on(t.userId, t.createdAt),
    check("shares_kind_target", sql`(${t.kind} = 'trade') = (${t.journalId} is not null)`),
  ],
);

/**
 * A mentor's read access to a trader's chosen accounts and views (issue 59, docs/sharing.md): invited by email,
 * `mentorId` set when the user with that email accepts. Deleting the row ends the access at the next request.
 */
export const mentorGrants = pgTable(
  "mentor_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    mentorId: uuid("mentor_id").references(() => users.id, { onDelete: "cascade" }),
    accountIds: uuid("account_ids").array().notNull(),
    scopes: text("scopes").array().notNull(),
    status: text("status", { enum: ["invited", "active"] }).notNull().default("invited"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  },
  (t) => [unique("mentor_grants_owner_email").on(t.ownerId, t.email), index("mentor_grants_email_idx").on(t.email), index("mentor_grants_mentor_idx").on(t.mentorId)],
);

/** Every read a mentor made of a trader's journal: the owner's list of who read what and when. */
export const mentorViews = pgTable(
  "mentor_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    grantId: uuid("grant_id")
      .notNull()
      .references(() => mentorGrants.id, { onDelete: "cascade" }),
    route: text("route").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mentor_views_grant_idx").on(t.grantId, t.at)],
);

/**
 * A comment on a trade (by its journal: it follows the trade through rebuilds, and keeps the journal from
 * being dropped as blank) or on an account's day, by the trader or a mentor of theirs.
 */
export const comments = pgTable(
  "comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    journalId: uuid("journal_id").references(() => tradeJournals.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    /** Who wrote it, for a comment restored from an archive whose author is not a user here (their email then). */
    authorLabel: text("author_label"),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("comments_journal_idx").on(t.journalId, t.createdAt),
    index("comments_day_idx").on(t.accountId, t.day, t.createdAt),
    check("comments_one_target", sql`(${t.journalId} is null) <> (${t.day} is null)`),
  ],
);

/**
 * The weekly digest's deliveries (lib/digest/delivery.ts, docs/digest.md): one row per user and week (`week`:
 * the local date of the send day), claimed by the one job run that inserts it, so overlapping runs send once.
 * `sending` while a run holds it (a run that died leaves it to be taken again after DIGEST_CLAIM_MINUTES),
 * `retry` after a passing failure, `sent`, or `failed` (refused for good, or tried DIGEST_ATTEMPTS times, or
 * email not configured): never retried after that, and counted for the operator in GET /api/admin/stats.
 */
export const digestSends = pgTable(
  "digest_sends",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    week: date("week", { mode: "string" }).notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(1),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.week] }),
    index("digest_sends_status_idx").on(t.status, t.claimedAt),
    check("digest_sends_status_known", sql`${t.status} in ('sending', 'retry', 'sent', 'failed')`),
  ],
);

/**
 * The trader's decisions on possible wash sales through options (lib/tax/tax.ts, docs/tax.md): a loss on a
 * stock and an option on it bought within the window, decided a wash sale (`wash`: the loss goes into the option
 * lot) or not (`not_wash`). Kept by what names them, so they survive every rebuild of the lots.
 */
export const taxWashDecisions = pgTable(
  "tax_wash_decisions",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    lossSoldAt: date("loss_sold_at", { mode: "string" }).notNull(),
    replacementSymbol: text("replacement_symbol").notNull(),
    replacementAt: date("replacement_at", { mode: "string" }).notNull(),
    decision: text("decision").notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.symbol, t.lossSoldAt, t.replacementSymbol, t.replacementAt] }),
    check("tax_wash_decisions_known", sql`${t.decision} in ('wash', 'not_wash')`),
  ],
);
