// The maintained statistics (docs/trading.md, "Statistics at any depth"). One of lib/db/schema.ts's files (a file
// per domain).
import { sql } from "drizzle-orm";
import { bigint, date, index, integer, numeric, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";
import { money } from "./columns.ts";

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
