// Settling the maintained statistics (docs/trading.md, "Statistics at any depth"): writes note the trading
// days they change (stats_pending); a read settles its user's notes first (stats_settle_read: up to
// SETTLE_READ_MAX_NOTES, else it answers from the journal) so what it reads is exact, and a periodic job
// settles what is left, so the first read after an import rarely waits.
import { sql, type SQL } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../db/rows.ts";

/** The user's noted days refreshed (the settle job's work, and the backfill's). */
export async function settleUser(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  await deps.db.execute(sql`select stats_settle(${userId}::uuid)`);
}

/**
 * The most notes (about one per trading day changed) a read settles before it reads the maintained rows
 * (stats_settle_read); with more (an import of a long history, a change of an account's zone or default risk)
 * it computes its figures from the journal instead and leaves them to the settle job. About 120 busy days
 * (72 trades each) took ~0.8 s to refresh on the 2-core machine; the journal's figures over 100,000 trades
 * take about 0.4 s (docs/trading.md, "Statistics at any depth").
 */
export const SETTLE_READ_MAX_NOTES = 120;

/**
 * What a read runs first (stats_settle_read): the version of the user's maintained rows (as text) when they
 * are exact for it after, null when too much was noted to settle now.
 */
export function settleForReadSql(user: SQL): SQL {
  return sql`stats_settle_read(${user}, ${SETTLE_READ_MAX_NOTES})::text`;
}

export async function settleForRead(deps: Pick<Deps, "db">, userId: string): Promise<string | null> {
  const [row] = rowsOf<{ version: string | null }>(await deps.db.execute(sql`select ${settleForReadSql(sql`${userId}::uuid`)} as version`));
  return row!.version;
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
