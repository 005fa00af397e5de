import { ROOT } from "../paths.ts";
import { join } from "node:path";
import { readdir, readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { isEmbeddedUrl, type DbHandle } from "./client.ts";
import { rowsOf } from "./rows.ts";
import { applyFunctionFiles, type FunctionsReport } from "./functions.ts";

export { rowsOf } from "./rows.ts";
import { createNodeDb } from "./node.ts";

export const MIGRATIONS_DIR = join(ROOT, "migrations");
export const POST_MIGRATIONS_DIR = join(ROOT, "migrations/post");

/** Any fixed 64-bit number; every migrator on the same database takes this lock first. */
const MIGRATION_LOCK_ID = 7_233_841_019;

export type MigrationReport = { postApplied: string[]; postSkipped: boolean };

export type MigrateOptions = {
  skipPost: boolean;
  /** The function files' folder (tests point it at a copy); migrations/functions by default. */
  functionsDir?: string;
  /** Told which function files were applied and what was dropped, when anything was. */
  onFunctions?: (report: FunctionsReport) => void;
};

/**
 * Applies the drizzle-kit migrations (tables, columns, indexes, data moves), then the function files that
 * are new or changed (lib/db/functions.ts), then the post-migrations (unless skipped), on an open handle.
 * Every step is idempotent: what was applied is recorded in the drizzle schema.
 */
export async function migrateHandle(handle: DbHandle, options: MigrateOptions): Promise<MigrationReport> {
  const config = { migrationsFolder: MIGRATIONS_DIR, migrationsSchema: "drizzle", migrationsTable: "__migrations" };
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, config);
  } else if (handle.kind === "pg") {
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    await migrate(handle.db as never, config);
  } else {
    throw new Error(`migrations run from Node, not over ${handle.kind}`);
  }
  const functions = await applyFunctionFiles(handle.db, options.functionsDir);
  if (functions.applied.length || functions.dropped.length) options.onFunctions?.(functions);
  if (options.skipPost) return { postApplied: [], postSkipped: true };
  return { postApplied: await runPostMigrations(handle), postSkipped: false };
}

/** Post-migrations: plain SQL files in migrations/post, each applied once, in name order. */
async function runPostMigrations(handle: DbHandle): Promise<string[]> {
  const { db } = handle;
  await db.execute(
    sql`create table if not exists drizzle.__post_migrations (name text primary key, applied_at timestamptz not null default now())`,
  );
  const files = (await readdir(POST_MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql")).sort();
  const appliedRows = await db.execute<{ name: string }>(sql`select name from drizzle.__post_migrations`);
  const applied = new Set(rowsOf<{ name: string }>(appliedRows).map((r) => r.name));
  const done: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const text = await readFile(`${POST_MIGRATIONS_DIR}/${file}`, "utf8");
    const statements = text
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => s.replace(/--.*$/gm, "").trim().length > 0);
    await db.transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__post_migrations (name) values (${file}) on conflict do nothing`);
    });
    done.push(file);
  }
  return done;
}


/**
 * Node: migrate a Postgres URL under an advisory lock, so several processes starting at once apply
 * each migration exactly once. An embedded URL is migrated through the handle that will serve it.
 */
export async function migrateUrl(url: string, options: MigrateOptions, embedded?: DbHandle): Promise<MigrationReport> {
  if (isEmbeddedUrl(url)) {
    if (!embedded) throw new Error("an embedded database is migrated through its open handle");
    return migrateHandle(embedded, options);
  }
  const { default: pg } = await import("pg");
  const lock = new pg.Client({ connectionString: url });
  lock.on("error", () => {});
  await lock.connect();
  const handle = await createNodeDb(url, { poolSize: 2, transactionPooler: false });
  try {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    return await migrateHandle(handle, options);
  } finally {
    await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    await lock.end();
    await handle.close();
  }
}
