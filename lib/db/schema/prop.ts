// Prop-firm evaluations (docs/prop-firms.md). One of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, index, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";

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
