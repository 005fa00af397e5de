// A database as an older release left it: the versioned migrations up to a given one, applied the way that
// release applied them (drizzle's migrator alone, before function files and later migrations existed).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { MIGRATIONS_DIR } from "../../lib/db/migrate.ts";

/** The last versioned migration when function files arrived (migrations/functions): today's older databases. */
export const LAST_MIGRATION_BEFORE_FUNCTION_FILES = 14;

/** A copy of migrations/ whose journal ends at migration `last`. */
export function migrationsUpTo(last: number): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "journal-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Applies the versioned migrations of a folder only. */
export async function applyVersionedOnly(url: string, migrationsFolder: string): Promise<void> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder, migrationsSchema: "drizzle", migrationsTable: "__migrations" });
  } finally {
    await pool.end();
  }
}
