import { PgDialect } from "drizzle-orm/pg-core";
import type { Query, SQL } from "drizzle-orm";
import type { Db } from "./client.ts";

/** Rows from db.execute, whose result shape differs between drivers. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * A timestamptz column as ISO-8601 UTC text ("2026-03-02T14:31:00.000Z"), formatted in SQL so every
 * driver (pg, PGlite, HTTP) answers the same string. `column` is trusted code, never user input.
 */
export function isoUtc(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * A Postgres array literal (`{"a","b"}`) for a parameter cast to `::uuid[]`, `::text[]` or `::date[]`: each
 * element quoted, a quote or a backslash in it escaped (a symbol may hold either).
 */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
}

/**
 * JSON text a statement built (json_build_object(...)::text), of a value of type T: sent as it is, never
 * parsed and serialised again by the server (lib/http/index.ts, jsonText).
 */
export type JsonText<T> = string & { readonly __jsonOf?: T };

const dialect = new PgDialect();

/** A statement's text and parameters, as the driver sends them. */
export const buildQuery = (query: SQL): Query => dialect.sqlToQuery(query);

/**
 * A statement run under a fixed name, so the server parses and plans it once per connection instead of on
 * every call. Its SQL is built once, with `sql.placeholder(name)` for every input; a call passes the values.
 * Transports that cannot keep named statements (HTTP, PGlite, a transaction pooler: lib/db/node.ts) run it
 * unnamed. Mind the planner: after five runs a named statement keeps its generic plan only when that plan's
 * estimate is about as good as a plan made for the actual values (see lib/ledger/ledger.ts, pageSql).
 */
export function preparedStatement<T>(name: string, query: SQL): (db: Db, params: Record<string, unknown>) => Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const perDb = new WeakMap<Db, ReturnType<Db["_"]["session"]["prepareQuery"]>>();
  return async (db, params) => {
    let prepared = perDb.get(db);
    if (!prepared) {
      prepared = db._.session.prepareQuery(built, undefined, name, false);
      perDb.set(db, prepared);
    }
    return rowsOf<T>(await prepared.execute(params));
  };
}

/**
 * How many distinct statements executeReused names per process; any more run unnamed, as db.execute does.
 * Each one named costs every pool connection that runs it about 0.3 MB of the server's memory (the
 * statistics' statements: 44 shapes held 13 MB in one connection), so only the first few texts, in practice
 * the dashboard's usual views, are kept: at most ~5 MB a connection.
 */
const MAX_REUSED = 16;
const reusedNames = new Map<string, string>();

/**
 * A statement built at run time (values as parameters, never in its text) run under a name given to its text,
 * so the server parses it once per connection and can keep its plan, as preparedStatement does for statements
 * built once: for reads whose text takes a few shapes (a range open or not, a dimension) and costs more to
 * plan than to run (the maintained statistics, lib/stats/stats.ts). The same text gets the same name on every
 * connection of the process.
 */
export async function executeReused<T>(db: Db, query: SQL, built: Query = buildQuery(query)): Promise<T[]> {
  let name = reusedNames.get(built.sql);
  if (name === undefined) {
    if (reusedNames.size >= MAX_REUSED) return rowsOf<T>(await db.execute(query));
    name = `reused_${reusedNames.size + 1}`;
    reusedNames.set(built.sql, name);
  }
  return rowsOf<T>(await db._.session.prepareQuery(built, undefined, name, false).execute());
}
