// Images staged by an archive import that never finished (its process stopped mid-way): discarded after a
// day with their objects (archive_restore_discard), by the staged-imports purge job.
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";

/** How long an archive import's staged images may wait for the statement that takes them. */
export const ARCHIVE_STAGING_TTL_MS = 24 * 60 * 60 * 1000;

export async function discardStaleArchiveImages(deps: Pick<Deps, "db" | "now">): Promise<number> {
  const before = new Date(deps.now().getTime() - ARCHIVE_STAGING_TTL_MS).toISOString();
  const [row] = rowsOf<{ gone: number }>(await deps.db.execute(sql`select archive_restore_discard(null, ${before}::timestamptz) as gone`));
  return Number(row?.gone ?? 0);
}
