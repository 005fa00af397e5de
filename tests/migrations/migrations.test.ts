import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { migrateUrl, POST_MIGRATIONS_DIR } from "../../lib/db/migrate.ts";
import { readdirSync, readFileSync } from "node:fs";
import { createDatabase, dropDatabase } from "../support/database.ts";

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

async function state(url: string) {
  const [tables] = await query<{ names: string[] }>(
    url,
    "select coalesce(array_agg(tablename::text order by tablename), '{}') as names from pg_tables where schemaname = 'public'",
  );
  const [journal] = await query<{ n: number }>(url, "select count(*)::int as n from drizzle.__migrations");
  const post = await query<{ name: string }>(url, "select name from drizzle.__post_migrations order by name");
  const [index] = await query<{ n: number }>(url, "select count(*)::int as n from pg_indexes where indexname = 'sessions_expires_at_idx'");
  return { tables: tables!.names, migrations: journal!.n, post: post.map((r) => r.name), postIndex: index!.n };
}

const journal = JSON.parse(readFileSync(new URL("../../migrations/meta/_journal.json", import.meta.url), "utf8")) as {
  entries: unknown[];
};
const postFiles = readdirSync(POST_MIGRATIONS_DIR).filter((f) => f.endsWith(".sql")).sort();

describe("migrations", () => {
  it("apply from empty, then a second run changes nothing", async () => {
    const url = inject("migrateUrl");
    const [before] = await query<{ n: number }>(url, "select count(*)::int as n from pg_tables where schemaname = 'public'");
    expect(before!.n).toBe(0);

    const first = await migrateUrl(url, { skipPost: false });
    expect(first.postApplied).toEqual(postFiles);
    const after = await state(url);
    expect(after.tables).toEqual(expect.arrayContaining(["sessions", "users"]));
    expect(after.migrations).toBeGreaterThan(0);
    expect(after.post).toEqual(postFiles);
    expect(after.postIndex).toBe(1);

    const second = await migrateUrl(url, { skipPost: false });
    expect(second.postApplied).toEqual([]);
    expect(await state(url)).toEqual(after);
  });

  it("apply as a role without superuser, post-migrations skipped until asked for", async () => {
    const url = inject("migrateUserUrl");
    const [role] = await query<{ rolsuper: boolean }>(url, "select rolsuper from pg_roles where rolname = current_user");
    expect(role!.rolsuper).toBe(false);

    const skipped = await migrateUrl(url, { skipPost: true });
    expect(skipped).toEqual({ postApplied: [], postSkipped: true });
    const [index] = await query<{ n: number }>(url, "select count(*)::int as n from pg_indexes where indexname = 'sessions_expires_at_idx'");
    expect(index!.n).toBe(0);

    const full = await migrateUrl(url, { skipPost: false });
    expect(full.postApplied).toEqual(postFiles);
    const again = await migrateUrl(url, { skipPost: false });
    expect(again.postApplied).toEqual([]);
    expect((await state(url)).postIndex).toBe(1);
  });

  it("are applied exactly once when several processes migrate a fresh database at the same time", async () => {
    const db = await createDatabase("journal_migrate_race");
    try {
      const results = await Promise.all(Array.from({ length: 4 }, () => migrateUrl(db.url, { skipPost: false })));
      expect(results.flatMap((r) => r.postApplied)).toEqual(postFiles);
      expect((await state(db.url)).migrations).toBe(journal.entries.length);
    } finally {
      await dropDatabase(db.name);
    }
  });
});
