import type { PgDatabase } from "drizzle-orm/pg-core";
import type { schema } from "./schema.ts";

/** The one database type domain code sees, whatever the transport underneath. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each driver has its own result HKT; domain code only uses the query builder
export type Db = PgDatabase<any, typeof schema>;

export type DbKind = "pg" | "pglite" | "neon-http";

export type DbHandle = {
  readonly db: Db;
  readonly kind: DbKind;
  /** Whether interactive transactions (db.transaction) are available on this transport. */
  readonly interactiveTransactions: boolean;
  /** The connection pool's state, where there is a pool (node-postgres): for the metrics listener. */
  connections?(): ConnectionStats;
  /**
   * Embedded only, when the database started fresh without a template: saves it, once migrated, as the
   * template later fresh starts load (lib/db/pglite-template.ts). Best effort.
   */
  saveTemplate?(): Promise<void>;
  close(): Promise<void>;
};

export type ConnectionStats = { total: number; idle: number; waiting: number };

const PGLITE_SCHEME = /^pglite:/;

/** `pglite:memory` (or `pglite:`) is in-memory; `pglite:./path` persists to a folder. */
export function isEmbeddedUrl(url: string): boolean {
  return PGLITE_SCHEME.test(url);
}

export function embeddedDataDir(url: string): string | undefined {
  const rest = url.replace(PGLITE_SCHEME, "").replace(/^\/\//, "");
  return rest === "" || rest === "memory" ? undefined : rest;
}
