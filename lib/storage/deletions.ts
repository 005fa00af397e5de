// Removing objects that rows no longer point at. A trigger queues the key in object_deletions in the same
// transaction that lets go of it (migration 0010), so a failed or skipped removal here is retried by the
// purge job instead of leaving an orphan in the bucket.
import { asc, inArray } from "drizzle-orm";
import { objectDeletions } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { StorageUnavailableError } from "./index.ts";

/** Objects removed per call at most, so one job run stays short on the edge. */
const BATCH = 500;
/** Deletes in flight at once. */
const PARALLEL = 8;

/**
 * Removes the given queued objects (or, without keys, the oldest queued ones) and their queue entries.
 * Never throws: a store that is down is logged and the queue keeps the keys for the next run.
 * Returns how many objects were removed.
 */
export async function drainObjectDeletions(deps: Pick<Deps, "db" | "storage" | "log">, keys?: readonly string[]): Promise<number> {
  const storage = deps.storage;
  if (!storage) return 0;
  try {
    const todo = keys
      ? [...new Set(keys)]
      : (await deps.db.select({ key: objectDeletions.key }).from(objectDeletions).orderBy(asc(objectDeletions.createdAt)).limit(BATCH)).map((r) => r.key);
    const done: string[] = [];
    for (let i = 0; i < todo.length; i += PARALLEL) {
      const slice = todo.slice(i, i + PARALLEL);
      const results = await Promise.allSettled(slice.map((key) => storage.delete(key)));
      results.forEach((r, j) => r.status === "fulfilled" && done.push(slice[j]!));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) {
        const err = failed.reason as unknown;
        deps.log.warn("object storage delete failed; will retry", {
          pending: todo.length - done.length,
          detail: err instanceof StorageUnavailableError ? err.detail : err instanceof Error ? err.name : "unknown",
        });
        break;
      }
    }
    if (done.length) await deps.db.delete(objectDeletions).where(inArray(objectDeletions.key, done));
    return done.length;
  } catch (err) {
    deps.log.warn("draining object deletions failed; will retry", { error: err instanceof Error ? err.message : String(err) });
    return 0;
  }
}
