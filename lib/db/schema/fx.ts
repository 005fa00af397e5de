// The user's settings and the exchange rates (docs/currencies.md). One of lib/db/schema.ts's files (a file per
// domain).
import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, index, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";

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
