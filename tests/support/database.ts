// Fresh databases on the real local Postgres, migrated with the real migrations.
import pg from "pg";
import { migrateUrl } from "../../lib/db/migrate.ts";
import { ADMIN_DATABASE_URL, databaseUrl } from "./env.ts";

export async function adminQuery(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Creates an empty database and returns its URL. */
export async function createDatabase(prefix = "journal_test", owner?: string): Promise<{ name: string; url: string }> {
  const name = uniqueName(prefix);
  await adminQuery(`create database "${name}"${owner ? ` owner "${owner}"` : ""}`);
  return { name, url: databaseUrl(name) };
}

/** Creates a database with every migration applied. */
export async function createMigratedDatabase(prefix = "journal_test"): Promise<{ name: string; url: string }> {
  const db = await createDatabase(prefix);
  await migrateUrl(db.url, { skipPost: false });
  return db;
}

export async function dropDatabase(name: string): Promise<void> {
  await adminQuery(`drop database if exists "${name}" with (force)`);
}
