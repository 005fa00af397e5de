// The database's logic (functions, trigger functions with their triggers, views) has one source file per
// object under migrations/functions/<domain>/, holding its current definition. Versioned migrations change
// tables; these files are applied after them, when new or changed (a content hash per file), in dependency
// order, in one transaction under the migrator's lock. Whatever the files no longer define is dropped, so a
// database migrated from empty and one upgraded from any earlier state end with the same catalogue.
// docs/architecture.md ("Two kinds of schema change") says when to use which.
import { ROOT } from "../paths.ts";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { rowsOf } from "./rows.ts";

export const FUNCTIONS_DIR = join(ROOT, "migrations/functions");

export const STATEMENT_BREAKPOINT = "--> statement-breakpoint";

export type FunctionFile = {
  /** Path relative to the functions folder, with forward slashes: the file's identity. */
  file: string;
  hash: string;
  statements: string[];
  /** Functions and views the file creates, by name. */
  names: string[];
  triggers: Array<{ name: string; table: string }>;
  /** Files whose objects this one calls or reads. */
  dependsOn: string[];
};

/** An object in the catalogue: a function (by signature), a trigger (by name and table) or a view. */
type CatalogObject = { kind: "function" | "trigger" | "view"; name: string; table?: string };

export type FunctionsReport = { applied: string[]; dropped: string[] };

const stripComments = (text: string) => text.replace(/--[^\n]*/g, "");
const IDENT = String.raw`"?([a-z_][a-z0-9_]*)"?`;
const CREATES_ROUTINE = new RegExp(String.raw`create\s+(?:or\s+replace\s+)?function\s+(?:public\.)?${IDENT}\s*\(`, "gi");
const CREATES_VIEW = new RegExp(String.raw`create\s+(?:or\s+replace\s+)?(?:materialized\s+)?view\s+(?:public\.)?${IDENT}`, "gi");
const CREATES_TRIGGER = new RegExp(
  String.raw`create\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+${IDENT}[\s\S]*?\son\s+(?:public\.)?${IDENT}`,
  "gi",
);

function matchAll(re: RegExp, text: string): RegExpExecArray[] {
  return [...text.matchAll(re)] as RegExpExecArray[];
}

async function listSqlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".sql"))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

/** Reads the function files of a folder, in dependency order (ties broken by path). */
export async function loadFunctionFiles(dir: string = FUNCTIONS_DIR): Promise<FunctionFile[]> {
  return parseFunctionFiles(await readFunctionSources(dir));
}

type FunctionSource = { file: string; text: string; hash: string };

/** The function files' text and content hash: all a start needs when nothing changed. */
async function readFunctionSources(dir: string): Promise<FunctionSource[]> {
  const paths = await listSqlFiles(dir);
  return Promise.all(
    paths.map(async (file) => {
      const text = await readFile(join(dir, file), "utf8");
      return { file, text, hash: createHash("sha256").update(text).digest("hex") };
    }),
  );
}

/** What each file defines and calls, in dependency order (ties broken by path). */
function parseFunctionFiles(sources: FunctionSource[]): FunctionFile[] {
  const files: FunctionFile[] = [];
  for (const { file, text, hash } of sources) {
    const code = stripComments(text).toLowerCase();
    files.push({
      file,
      hash,
      statements: text
        .split(STATEMENT_BREAKPOINT)
        .map((s) => s.trim())
        .filter((s) => stripComments(s).trim().length > 0),
      names: [...matchAll(CREATES_ROUTINE, code), ...matchAll(CREATES_VIEW, code)].map((m) => m[1]!),
      triggers: matchAll(CREATES_TRIGGER, code).map((m) => ({ name: m[1]!, table: m[2]! })),
      dependsOn: [],
    });
  }
  const owner = new Map<string, string>();
  for (const f of files) {
    for (const name of f.names) {
      const other = owner.get(name);
      if (other) throw new Error(`${name} is defined in two function files: ${other} and ${f.file}`);
      owner.set(name, f.file);
    }
  }
  for (const f of files) {
    const code = stripComments(f.statements.join("\n")).toLowerCase();
    const used = new Set<string>();
    for (const m of code.matchAll(/\b([a-z_][a-z0-9_]*)\b/g)) {
      const file = owner.get(m[1]!);
      if (file && file !== f.file) used.add(file);
    }
    f.dependsOn = [...used].sort();
  }
  return orderByDependency(files);
}

/**
 * True when drizzle.__functions records exactly these files with these hashes. A database that has no such
 * table yet (its first migration) fails the read: false, and the full path creates it.
 */
async function allRecorded(db: Db, sources: FunctionSource[]): Promise<boolean> {
  const [row] = rowsOf<{ recorded: string | null }>(
    await db.execute(sql`select jsonb_object_agg(file, hash)::text as recorded from drizzle.__functions`).catch(() => []),
  );
  if (!row?.recorded) return false;
  const recorded = JSON.parse(row.recorded) as Record<string, string>;
  return Object.keys(recorded).length === sources.length && sources.every((f) => recorded[f.file] === f.hash);
}

function orderByDependency(files: FunctionFile[]): FunctionFile[] {
  const byFile = new Map(files.map((f) => [f.file, f]));
  const ordered: FunctionFile[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (f: FunctionFile, path: string[]) => {
    if (state.get(f.file) === "done") return;
    if (state.get(f.file) === "visiting") {
      throw new Error(`function files depend on each other in a cycle: ${[...path, f.file].join(" -> ")}`);
    }
    state.set(f.file, "visiting");
    for (const dep of f.dependsOn) visit(byFile.get(dep)!, [...path, f.file]);
    state.set(f.file, "done");
    ordered.push(f);
  };
  for (const f of files) visit(f, []);
  return ordered;
}

const key = (o: CatalogObject) => `${o.kind}:${o.name}${o.table ? ` on ${o.table}` : ""}`;

/**
 * Every function, non-internal trigger and view of the public schema (extension members excluded), with
 * the physical address of its catalogue row: CREATE OR REPLACE writes a new row version even when nothing
 * changed, so the addresses that moved while a file ran are exactly the objects it defines.
 */
async function catalogue(db: Db): Promise<Map<string, { object: CatalogObject; ctid: string }>> {
  const rows = rowsOf<{ kind: CatalogObject["kind"]; name: string; tbl: string | null; ctid: string }>(
    await db.execute(sql`
      select 'function' as kind, p.oid::regprocedure::text as name, null::text as tbl, p.ctid::text as ctid
      from pg_proc p
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
      union all
      select 'trigger', t.tgname::text, c.relname::text, t.ctid::text
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal
      union all
      select 'view', c.relname::text, null, r.ctid::text
      from pg_class c join pg_rewrite r on r.ev_class = c.oid and r.rulename = '_RETURN'
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('v', 'm')`),
  );
  return new Map(
    rows.map((r) => {
      const object: CatalogObject = r.tbl ? { kind: r.kind, name: r.name, table: r.tbl } : { kind: r.kind, name: r.name };
      return [key(object), { object, ctid: r.ctid }];
    }),
  );
}

async function dropObjects(db: Db, objects: CatalogObject[]): Promise<void> {
  const rank = { trigger: 0, view: 1, function: 2 } as const;
  for (const o of [...objects].sort((a, b) => rank[a.kind] - rank[b.kind])) {
    if (o.kind === "trigger") await db.execute(sql.raw(`drop trigger if exists "${o.name}" on "${o.table}"`));
    else if (o.kind === "view") await db.execute(sql.raw(`drop view if exists "${o.name}"`));
    // regprocedure text is already quoted where it must be.
    else await db.execute(sql.raw(`drop function if exists ${o.name}`));
  }
}

function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

async function runStatements(db: Db, f: FunctionFile): Promise<void> {
  for (const statement of f.statements) await db.execute(sql.raw(statement));
}

/**
 * Applies one file. CREATE OR REPLACE cannot change a function's result type or parameter names
 * (SQLSTATE 42P13): then the file's own objects are dropped and created again, inside the transaction.
 */
async function applyFile(db: Db, f: FunctionFile): Promise<void> {
  await db.execute(sql.raw("savepoint function_file"));
  try {
    await runStatements(db, f);
    await db.execute(sql.raw("release savepoint function_file"));
    return;
  } catch (err) {
    await db.execute(sql.raw("rollback to savepoint function_file"));
    if (sqlState(err) !== "42P13") throw withFile(err, f.file);
  }
  const existing = rowsOf<{ name: string }>(
    await db.execute(
      sql`select p.oid::regprocedure::text as name from pg_proc p
          where p.pronamespace = 'public'::regnamespace
            and p.proname in (select jsonb_array_elements_text(${JSON.stringify(f.names)}::jsonb))`,
    ),
  );
  await dropObjects(db, [
    ...f.triggers.map((t): CatalogObject => ({ kind: "trigger", name: t.name, table: t.table })),
    ...existing.map((r): CatalogObject => ({ kind: "function", name: r.name })),
  ]);
  try {
    await runStatements(db, f);
  } catch (err) {
    throw withFile(err, f.file);
  }
}

function withFile(err: unknown, file: string): Error {
  const cause = err as { message?: string; cause?: { message?: string } };
  return new Error(`function file ${file}: ${cause?.cause?.message ?? cause?.message ?? String(err)}`, { cause: err });
}

/**
 * Applies the function files that are new or changed since the last run, records what each defines, and
 * then drops every function, trigger or view of the public schema that no file defines. One transaction: the
 * caller holds the migration lock (Node) or the only connection (PGlite).
 */
export async function applyFunctionFiles(db: Db, dir: string = FUNCTIONS_DIR): Promise<FunctionsReport> {
  const sources = await readFunctionSources(dir);
  // Every start of a server migrates: when the recorded hashes are the files' own (the usual case), that is
  // one read, without parsing the files or opening a transaction.
  if (await allRecorded(db, sources)) return { applied: [], dropped: [] };
  const files = parseFunctionFiles(sources);
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // Signatures print unqualified and unqualified names resolve the same way on every run.
    await t.execute(sql`select set_config('search_path', 'public', true)`);
    await t.execute(sql`create schema if not exists drizzle`);
    await t.execute(
      sql`create table if not exists drizzle.__functions (file text primary key, hash text not null,
          objects jsonb not null, applied_at timestamptz not null default now())`,
    );
    const recorded = new Map(
      rowsOf<{ file: string; hash: string; objects: CatalogObject[] }>(
        await t.execute(sql`select file, hash, objects from drizzle.__functions`),
      ).map((r) => [r.file, r]),
    );
    const applied: string[] = [];
    for (const f of files) {
      if (recorded.get(f.file)?.hash === f.hash) continue;
      const before = await catalogue(t);
      await applyFile(t, f);
      const objects = [...(await catalogue(t)).entries()]
        .filter(([k, v]) => before.get(k)?.ctid !== v.ctid)
        .map(([, v]) => v.object);
      await t.execute(
        sql`insert into drizzle.__functions (file, hash, objects) values (${f.file}, ${f.hash}, ${JSON.stringify(objects)}::jsonb)
            on conflict (file) do update set hash = excluded.hash, objects = excluded.objects, applied_at = now()`,
      );
      recorded.set(f.file, { file: f.file, hash: f.hash, objects });
      applied.push(f.file);
    }
    const present = new Set(files.map((f) => f.file));
    const removed = [...recorded.keys()].filter((file) => !present.has(file));
    if (removed.length) {
      await t.execute(
        sql`delete from drizzle.__functions where file in (select jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb))`,
      );
    }

    // Only a change to the tree can leave an object no file defines (versioned migrations define none).
    if (!applied.length && !removed.length) return { applied, dropped: [] };
    const wanted = new Set(files.flatMap((f) => recorded.get(f.file)!.objects.map(key)));
    const stale = [...(await catalogue(t)).entries()].filter(([k]) => !wanted.has(k)).map(([, v]) => v.object);
    await dropObjects(t, stale);
    return { applied, dropped: stale.map(key) };
  });
}
