// Figures kept by the version of the user's maintained statistics (stats_versions): every function that
// writes the maintained rows raises it in the same transaction (stats_version_bump), and a read learns the
// version when it settles (stats_settle_read). A dashboard read again with nothing changed in between (the
// usual case: the trader looks more often than they trade) answers the rows its statement gave last time
// instead of running it again; a read after any change runs it. Per database handle, in the process's
// memory, bounded: the most recently read MAX_ENTRIES statements and MAX_ROWS rows at most.
import type { SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { buildQuery, executeReused } from "../db/rows.ts";

const MAX_ENTRIES = 64;
/** An equity curve over 100,000 trades is ~1,400 rows of 7 short strings; 20,000 rows are a few MB. */
const MAX_ROWS = 20_000;

type Entry = { version: string; rows: unknown[] };
type Kept = { entries: Map<string, Entry>; rows: number };

const kept = new WeakMap<Db, Kept>();

/**
 * The rows of `query` (a read of the maintained rows only: stats_groups, stats_drawdown_days and the
 * journal at the range's edges, all exact at `version`), from what the same statement with the same values
 * gave at the same version, else run (executeReused) and kept.
 */
export async function keptFigures<T>(db: Db, query: SQL, version: string): Promise<T[]> {
  const built = buildQuery(query);
  const key = `${built.sql}\u0000${JSON.stringify(built.params)}`;
  let store = kept.get(db);
  if (!store) {
    store = { entries: new Map(), rows: 0 };
    kept.set(db, store);
  }
  const hit = store.entries.get(key);
  if (hit) {
    // Most recently read last: the oldest go first.
    store.entries.delete(key);
    store.rows -= hit.rows.length;
    if (hit.version === version) {
      store.entries.set(key, hit);
      store.rows += hit.rows.length;
      return hit.rows as T[];
    }
  }
  const rows = await executeReused<T>(db, query, built);
  if (rows.length <= MAX_ROWS) {
    store.entries.set(key, { version, rows });
    store.rows += rows.length;
    for (const [oldest, entry] of store.entries) {
      if (store.entries.size <= MAX_ENTRIES && store.rows <= MAX_ROWS) break;
      store.entries.delete(oldest);
      store.rows -= entry.rows.length;
    }
  }
  return rows;
}
