// Fills, positions, trades, option strategies and what a trader wrote on them (docs/trading.md). One of
// lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, foreignKey, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";
import { dayJournals, playbooks } from "./discipline.ts";
import { bytea, money } from "./columns.ts";

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
