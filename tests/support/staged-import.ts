// An import's fills written the way a commit writes them (import_apply), without the CSV and the HTTP around
// it: for property and concurrency tests that import many small files.
import { sql } from "drizzle-orm";
import type { Db } from "../../lib/db/client.ts";
import { rowsOf } from "../../lib/db/rows.ts";

/**
 * Stages `staged` (one array per fill, in lib/imports/imports.ts stagedJson's order: symbol, asset class,
 * multiplier, side, quantity, price, fees, executed_at, execution id, duplicate) as a claimed import of the
 * account and applies it. Returns the import's id (for import_undo).
 */
export async function applyStagedImport(db: Db, userId: string, accountId: string, staged: unknown[][]): Promise<string> {
  const [imp] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into csv_imports (user_id, account_id, status, expires_at, summary, staged, claimed_at)
      values (${userId}, ${accountId}, 'committing', now() + interval '1 hour', '{}'::jsonb, ${JSON.stringify(staged)}::jsonb, now())
      returning id::text`),
  );
  await db.execute(sql`select import_apply(${imp!.id}::uuid, false)`);
  return imp!.id;
}
