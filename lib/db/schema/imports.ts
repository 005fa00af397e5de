// Staged and committed CSV imports (docs/imports.md). One of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";
import { users } from "./auth.ts";

/**
 * A preview's fills in parts of at most IMPORT_PART_FILLS (lib/imports/imports.ts), each an array in the
 * order import_apply reads: no statement (and no buffer of the server's driver) carries a whole 10 MB file's
 * fills at once. Deleted with their import, and by the commit.
 */
export const csvImportParts = pgTable(
  "csv_import_parts",
  {
    importId: uuid("import_id")
      .notNull()
      .references(() => csvImports.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    fills: jsonb("fills").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.part] })],
);

/**
 * A CSV import: staged by a preview (the normalised fills in `staged`), then claimed (committing) and
 * applied (committed) by exactly one commit, possibly undone later. See migrations/0007.
 */
export const csvImports = pgTable(
  "csv_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["staged", "committing", "committed", "undone"] }).notNull().default("staged"),
    fileName: text("file_name"),
    presetId: text("preset_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    committedAt: timestamp("committed_at", { withTimezone: true }),
    undoneAt: timestamp("undone_at", { withTimezone: true }),
    /** Counts shown in the preview and the import history. */
    summary: jsonb("summary").notNull(),
    /** The broker's own rates the file carries ([{day, base, k}], lib/imports/normalize.ts): kept by the commit. */
    brokerRates: jsonb("broker_rates"),
    /**
     * The fills a commit would write, inline (no object storage; a pushed batch): emptied once committed. A
     * preview stages them in parts instead (csv_import_parts, `stagedParts` of them).
     */
    staged: jsonb("staged"),
    /** How many parts a preview staged its fills in (csv_import_parts); null when staged otherwise. */
    stagedParts: integer("staged_parts"),
    /**
     * With object storage: the key of the object holding the fills instead of `staged`. Cleared once the
     * object is no longer needed; clearing it or deleting the row queues the key in object_deletions
     * (trigger of migration 0010).
     */
    stagedKey: text("staged_key"),
    stagedBytes: integer("staged_bytes").notNull().default(0),
    fillsCreated: integer("fills_created"),
    /**
     * A batch pushed through the API (lib/imports/push.ts): its Idempotency-Key (one import per key and user),
     * the SHA-256 of its body (the same key with another batch is refused), and the answer, replayed to a retry.
     */
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    pushResult: jsonb("push_result"),
  },
  (t) => [
    uniqueIndex("csv_imports_idempotency_idx").on(t.userId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    index("csv_imports_account_idx").on(t.accountId, t.createdAt),
    index("csv_imports_status_idx").on(t.status, t.expiresAt),
    check("csv_imports_status_known", sql`${t.status} in ('staged', 'committing', 'committed', 'undone')`),
  ],
);

/**
 * The column mappings a trader used for files no preset reads (docs/imports.md, "Any CSV"), one per account
 * and header layout (`header_key`: the SHA-256 of the header's cells, trimmed and lowercased, joined), saved
 * by a preview that read rows with it and offered again for the next file with the same header.
 */
export const importMappings = pgTable(
  "import_mappings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    headerKey: text("header_key").notNull(),
    header: jsonb("header").notNull(),
    mapping: jsonb("mapping").notNull(),
    options: jsonb("options").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("import_mappings_account_header_idx").on(t.accountId, t.headerKey)],
);

/**
 * Objects to remove from object storage: filled by a trigger whenever a csv_imports row stops pointing at
 * its staged object (row deleted by any path, cascades included, or staged_key cleared), drained by the
 * code that caused it and, for whatever that missed, by the purge job.
 */
export const objectDeletions = pgTable("object_deletions", {
  key: text("key").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
