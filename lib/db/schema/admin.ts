// Administration and the release notes (docs/admin.md). One of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";

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
