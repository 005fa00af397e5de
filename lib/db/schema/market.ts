// Bars and the symbol directory (docs/charts.md, docs/market-data.md). One of lib/db/schema.ts's files (a file
// per domain).
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { money } from "./columns.ts";

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
