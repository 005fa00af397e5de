// Settling the maintained statistics (docs/trading.md, "Statistics at any depth"): writes note the trading
// days they change (stats_pending); a read settles its user's notes first (stats_settle) so the rows it reads
// are exact, and a periodic job settles what is left, so the first read after an import rarely waits.
import { sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../db/rows.ts";

/** The user's noted days refreshed: what a read of the maintained rows does first. */
export async function settleUser(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  await deps.db.execute(sql`select stats_settle(${userId}::uuid)`);
}

/**
 * Users with notes settled, `limit` at most per run (`only`: among these users), one statement (one
 * transaction) each. Returns how many.
 */
export async function settlePending(deps: Pick<Deps, "db">, options: { limit?: number; only?: string[] } = {}): Promise<number> {
  const only = options.only ? sql`where a.user_id::text in (${sql.join(options.only.map((u) => sql`${u}`), sql`, `)})` : sql``;
  const users = rowsOf<{ user_id: string }>(
    await deps.db.execute(
      sql`select distinct a.user_id::text as user_id from stats_pending p join accounts a on a.id = p.account_id ${only} limit ${options.limit ?? 50}`,
    ),
  );
  for (const u of users) await settleUser(deps, u.user_id);
  return users.length;
}
