// The user's base currency as the figures in it read it (docs/currencies.md); lib/settings sets it.
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";

/** The user's base currency and its version (raised with every change of the base or of an override), or null. */
export async function baseOf(deps: Pick<Deps, "db">, userId: string): Promise<{ base: string; fxVersion: string } | null> {
  const [row] = rowsOf<{ base_currency: string | null; fx_version: string }>(await deps.db.execute(sql`select base_currency, fx_version::text from user_settings where user_id = ${userId}::uuid`));
  return row?.base_currency ? { base: row.base_currency, fxVersion: row.fx_version } : null;
}
