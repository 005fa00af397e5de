// Option expiry (docs/trading.md, "Option expiry and assignment"): an option position still open after its
// expiry is closed at 0 by a fill the journal generates (migrations/functions/trades/options_expire.sql).
// Every write of fills asks for it for the symbols it touches; this job asks for every account once an
// option it holds expires, one transaction per account.
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";

/** Closes the options of every account still open after their expiry; returns how many it closed. */
export async function expireOptions(deps: Pick<Deps, "db" | "now">): Promise<number> {
  const now = deps.now().toISOString();
  const due = rowsOf<{ id: string }>(await deps.db.execute(sql`select id::text from options_expire_due(${now}::timestamptz) as id`));
  let closed = 0;
  for (const { id } of due) {
    const [row] = rowsOf<{ closed: number | string }>(await deps.db.execute(sql`select options_expire(${id}::uuid, null, ${now}::timestamptz) as closed`));
    closed += Number(row?.closed ?? 0);
  }
  return closed;
}
