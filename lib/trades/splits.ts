// Stock splits (docs/trading.md, "Stock splits"): recorded by the trader per symbol, for all of their
// accounts. Trade matching then reads fills before a split in post-split shares and prices, so a position
// held through a 2-for-1 split closes flat instead of turning into a short (migrations/functions/trades:
// split_factor, split_add). A split moves no cash: the ledger is untouched.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal } from "../money.ts";
import type { NewSplit } from "./schema.ts";
import { zonedTimeToUtc } from "../time/zoned.ts";
import { CANONICAL_TIME_ZONES } from "../time/zones.ts";
import { resolveInstrument } from "../instruments/instruments.ts";

/** Where a split takes effect when the trader names only its day: midnight in New York, before any U.S. session of the day. */
export const SPLIT_DEFAULT_ZONE = "America/New_York";

type SplitRow = { id: string; symbol: string; effective_at: string; new_shares: string; old_shares: string };
const toSplit = (r: SplitRow) => ({
  id: r.id,
  symbol: r.symbol,
  effectiveAt: r.effective_at,
  newShares: formatDecimal(r.new_shares),
  oldShares: formatDecimal(r.old_shares),
});
const splitColumns = (alias: string) =>
  sql.raw(`${alias}.id::text, ${alias}.symbol, ${isoUtc(`${alias}.effective_at`)} as effective_at, ${alias}.new_shares::text as new_shares, ${alias}.old_shares::text as old_shares`);

/** GET /api/splits: the user's splits, newest first. */
export async function listSplits(deps: Pick<Deps, "db">, user: AuthUser, symbol?: string) {
  const rows = rowsOf<SplitRow>(
    await deps.db.execute(sql`select ${splitColumns("s")} from splits s where s.user_id = ${user.id}::uuid ${symbol ? sql`and s.symbol = ${symbol.trim().toUpperCase()}` : sql``}
      order by s.effective_at desc, s.symbol`),
  );
  return { splits: rows.map(toSplit) };
}

/** POST /api/splits: records a split and rebuilds the symbol's trades in every account of the user. */
export async function addSplit(deps: Pick<Deps, "db">, user: AuthUser, input: NewSplit) {
  const instrument = resolveInstrument({ symbol: input.symbol });
  if (instrument.assetClass !== "stock") {
    throw new AppError("VALIDATION_ERROR", "Splits are of stocks.", { fields: [{ path: "symbol", message: "must be a stock ticker" }] });
  }
  const zone = input.timezone ?? SPLIT_DEFAULT_ZONE;
  if (!CANONICAL_TIME_ZONES.has(zone)) throw new AppError("INVALID_TIMEZONE", `Unknown time zone "${zone}": use a canonical IANA name.`);
  const [year, month, day] = input.date.split("-").map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || year < 1900) {
    throw new AppError("VALIDATION_ERROR", "The date is not a day.", { fields: [{ path: "date", message: "is not a real date" }] });
  }
  const at = zonedTimeToUtc({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
  let rows: SplitRow[];
  try {
    rows = rowsOf<SplitRow>(
      await deps.db.execute(sql`select ${splitColumns("s")}
        from split_add(${user.id}::uuid, ${instrument.symbol}, ${at.toISOString()}::timestamptz, ${input.newShares}::numeric, ${input.oldShares}::numeric) s`),
    );
  } catch (err) {
    if (isUniqueViolation(err, "splits_user_symbol_at_idx")) {
      throw new AppError("CONFLICT", `A split of ${instrument.symbol} on ${input.date} is already recorded.`);
    }
    throw err;
  }
  return toSplit(rows[0]!);
}

/** DELETE /api/splits/:id. */
export async function deleteSplit(deps: Pick<Deps, "db">, user: AuthUser, id: string) {
  const [row] = rowsOf<{ symbol: string | null }>(await deps.db.execute(sql`select split_delete(${user.id}::uuid, ${id}::uuid) as symbol`));
  if (!row?.symbol) throw new AppError("NOT_FOUND", "No such split.");
}
