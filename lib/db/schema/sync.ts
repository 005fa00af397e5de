// Stored provider keys and broker connections (docs/advisor.md, docs/imports.md). One of lib/db/schema.ts's files
// (a file per domain).
import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";

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
