// The cash ledger and its maintained days and months (docs/trading.md). One of lib/db/schema.ts's files (a file per
// domain).
import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { money } from "./columns.ts";

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
