// Brings a user's option strategies up to date with their trades (strategies_settle: nothing to do when no trade
// changed). Its own file, so the statistics can call it without importing the strategies' reads.
import { sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";

export async function settleStrategies(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  await deps.db.execute(sql`select strategies_settle(${userId}::uuid)`);
}
