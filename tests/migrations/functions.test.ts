// Function files (migrations/functions): one current definition per function, trigger and view, applied
// after the versioned migrations when new or changed, under the same lock; whatever the tree no longer
// defines is dropped. A fresh database and an upgraded one end with the same catalogue.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { FUNCTIONS_DIR, loadFunctionFiles, type FunctionsReport } from "../../lib/db/functions.ts";
import { MIGRATIONS_DIR, migrateUrl } from "../../lib/db/migrate.ts";
import { createDatabase, dropDatabase } from "../support/database.ts";
import { applyVersionedOnly, LAST_MIGRATION_BEFORE_FUNCTION_FILES, migrationsUpTo } from "../support/migrations.ts";

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function database(prefix: string) {
  const db = await createDatabase(prefix);
  cleanups.push(() => dropDatabase(db.name));
  return db;
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A copy of the function files a test may change. */
function functionsCopy(): string {
  const dir = tempDir("journal-functions-");
  cpSync(FUNCTIONS_DIR, dir, { recursive: true });
  return dir;
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Everything a migration defines in the public schema, in a form two databases can be compared by. */
async function catalogue(url: string) {
  const q = (text: string) => query<Record<string, unknown>>(url, text);
  return {
    functions: await q(`select p.oid::regprocedure::text as sig, pg_get_functiondef(p.oid) as def
      from pg_proc p where p.pronamespace = 'public'::regnamespace order by 1`),
    triggers: await q(`select t.tgname, c.relname, pg_get_triggerdef(t.oid) as def
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal order by 1, 2`),
    views: await q(`select viewname, definition from pg_views where schemaname = 'public' order by 1`),
    columns: await q(`select table_name, column_name, data_type, column_default, is_nullable, numeric_precision, numeric_scale
      from information_schema.columns where table_schema = 'public' order by 1, 2`),
    indexes: await q(`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2`),
    constraints: await q(`select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def
      from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`),
  };
}

describe("function files", () => {
  it("hold one definition per object, each with a header, in an order where every file comes after what it uses", async () => {
    const files = await loadFunctionFiles();
    expect(files.length).toBeGreaterThan(0);
    const position = new Map(files.map((f, i) => [f.file, i]));
    for (const f of files) {
      expect(f.file).toMatch(/^[a-z]+\/[a-z0-9_]+\.sql$/);
      expect(f.names.length + f.triggers.length).toBeGreaterThan(0);
      const text = readFileSync(join(FUNCTIONS_DIR, f.file), "utf8");
      expect(text.startsWith("-- "), `${f.file} starts with a header comment`).toBe(true);
      for (const dep of f.dependsOn) expect(position.get(dep)!).toBeLessThan(position.get(f.file)!);
    }
    const fillAdd = files.find((f) => f.file === "trades/fill_add.sql")!;
    expect(fillAdd.dependsOn).toEqual(expect.arrayContaining(["ledger/ledger_renumber.sql", "trades/fill_cash.sql"]));
  });

  it("give a database migrated from empty the same catalogue as one upgraded from the last migration before them", async () => {
    const fresh = await database("journal_fn_fresh");
    await migrateUrl(fresh.url, { skipPost: false });

    const upgraded = await database("journal_fn_upgraded");
    const folder = migrationsUpTo(LAST_MIGRATION_BEFORE_FUNCTION_FILES);
    cleanups.push(folder.cleanup);
    await applyVersionedOnly(upgraded.url, folder.dir);
    const [before] = await query<{ exists: boolean }>(upgraded.url, "select to_regclass('drizzle.__functions') is not null as exists");
    expect(before!.exists).toBe(false);
    const reports: FunctionsReport[] = [];
    await migrateUrl(upgraded.url, { skipPost: false, onFunctions: (r) => reports.push(r) });

    expect(reports).toHaveLength(1);
    expect([...reports[0]!.applied].sort()).toEqual((await loadFunctionFiles()).map((f) => f.file).sort());
    const a = await catalogue(fresh.url);
    expect(a.functions.length).toBeGreaterThan(0);
    expect(a.triggers.length).toBeGreaterThan(0);
    expect(await catalogue(upgraded.url)).toEqual(a);
  });

  it("apply a changed file, drop what the tree no longer defines, and change nothing on a run with no change", async () => {
    const db = await database("journal_fn_change");
    const dir = functionsCopy();
    await migrateUrl(db.url, { skipPost: false, functionsDir: dir });

    const quiet: FunctionsReport[] = [];
    await migrateUrl(db.url, { skipPost: false, functionsDir: dir, onFunctions: (r) => quiet.push(r) });
    expect(quiet).toEqual([]);

    // A parameter renamed (CREATE OR REPLACE refuses it: dropped and created again), a new overload
    // replacing the old signature, and a file removed from the tree.
    writeFileSync(
      join(dir, "ledger/format_decimal.sql"),
      `-- format_decimal(value): renamed parameter.\nCREATE OR REPLACE FUNCTION format_decimal(value numeric) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT 'x' || value::text $$;\n`,
    );
    writeFileSync(
      join(dir, "trades/fill_cash.sql"),
      `-- fill_cash with a currency.\nCREATE OR REPLACE FUNCTION fill_cash(p_side text, p_quantity numeric, p_price numeric, p_multiplier numeric, p_fees numeric, p_extra numeric)
RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT p_extra $$;\n`,
    );
    rmSync(join(dir, "imports/csv_imports_queue_object_deletion.sql"));
    const reports: FunctionsReport[] = [];
    await migrateUrl(db.url, { skipPost: false, functionsDir: dir, onFunctions: (r) => reports.push(r) });

    expect(reports).toHaveLength(1);
    expect([...reports[0]!.applied].sort()).toEqual(["ledger/format_decimal.sql", "trades/fill_cash.sql"]);
    expect([...reports[0]!.dropped].sort()).toEqual([
      "function:csv_imports_queue_object_deletion()",
      "function:fill_cash(text,text,numeric,numeric,numeric,numeric,numeric)",
      "trigger:csv_imports_queue_object_deletion on csv_imports",
    ]);
    const [row] = await query<{ formatted: string; cash: string }>(
      db.url,
      "select format_decimal(1.5) as formatted, fill_cash('buy', 1, 2, 3, 4, 5)::text as cash",
    );
    expect(row).toEqual({ formatted: "x1.5", cash: "5" });
    const names = await query<{ proname: string; n: number }>(
      db.url,
      `select proname, count(*)::int as n from pg_proc where pronamespace = 'public'::regnamespace
       and proname in ('fill_cash', 'csv_imports_queue_object_deletion') group by 1`,
    );
    expect(names).toEqual([{ proname: "fill_cash", n: 1 }]);
    const triggers = await query(db.url, "select 1 from pg_trigger where tgname = 'csv_imports_queue_object_deletion'");
    expect(triggers).toEqual([]);
    const recorded = await query<{ file: string }>(db.url, "select file from drizzle.__functions where file like 'imports/%' order by 1");
    expect(recorded.map((r) => r.file)).toEqual(["imports/import_apply.sql", "imports/import_commit.sql", "imports/import_undo.sql"]);
  });

  it("apply a changed file exactly once when four migrators run at the same time", async () => {
    const db = await database("journal_fn_race");
    const dir = functionsCopy();
    await migrateUrl(db.url, { skipPost: false, functionsDir: dir });
    await query(db.url, "create table function_file_runs (at timestamptz not null default now())");

    const file = join(dir, "ledger/ledger_add.sql");
    writeFileSync(file, `${readFileSync(file, "utf8")}--> statement-breakpoint\nINSERT INTO function_file_runs DEFAULT VALUES;\n`);
    const reports: FunctionsReport[] = [];
    await Promise.all(
      Array.from({ length: 4 }, () => migrateUrl(db.url, { skipPost: false, functionsDir: dir, onFunctions: (r) => reports.push(r) })),
    );

    expect(reports.map((r) => r.applied)).toEqual([["ledger/ledger_add.sql"]]);
    const [runs] = await query<{ n: number }>(db.url, "select count(*)::int as n from function_file_runs");
    expect(runs!.n).toBe(1);
  });

  it("leave nothing half-applied when a file fails, naming the file", async () => {
    const db = await database("journal_fn_fail");
    const dir = functionsCopy();
    await migrateUrl(db.url, { skipPost: false, functionsDir: dir });
    const [before] = await query<{ def: string }>(db.url, "select pg_get_functiondef('fill_cash'::regproc) as def");

    writeFileSync(join(dir, "trades/fill_cash.sql"), "-- broken\nCREATE OR REPLACE FUNCTION fill_cash(p numeric) RETURNS numeric LANGUAGE sql AS $$ SELECT 1 $$;\n");
    writeFileSync(join(dir, "trades/fill_delete.sql"), "-- broken\nCREATE OR REPLACE FUNCTION fill_delete() RETURNS numeric LANGUAGE sql AS $$ SELECT nope $$;\n");
    await expect(migrateUrl(db.url, { skipPost: false, functionsDir: dir })).rejects.toThrow(/function file trades\/fill_delete\.sql/);

    const after = await query<{ def: string }>(db.url, "select pg_get_functiondef(p.oid) as def from pg_proc p where proname = 'fill_cash'");
    expect(after).toEqual([before]);
  });
});

describe("npm run db:generate", () => {
  it("still reads the versioned migrations beside the function files, and finds the schema up to date", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const { stdout } = await promisify(execFile)(join(process.cwd(), "node_modules/.bin/drizzle-kit"), ["generate"], {
      cwd: join(MIGRATIONS_DIR, ".."),
      timeout: 60_000,
    });
    expect(stdout).toContain("No schema changes");
  });
});
