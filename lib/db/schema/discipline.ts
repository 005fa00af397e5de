// Playbooks, rules, tag kinds and the daily journal (docs/discipline.md). One of lib/db/schema.ts's files (a file
// per domain).
import { sql } from "drizzle-orm";
import { boolean, check, date, index, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";

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
