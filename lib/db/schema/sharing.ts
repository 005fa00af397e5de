// Sharing, mentors, comments, the digest and the tax decisions (docs/sharing.md, docs/digest.md, docs/tax.md). One
// of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { bigint, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";
import { tradeJournals } from "./trades.ts";

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
