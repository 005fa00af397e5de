// Fills: the executions a broker reports, entered by hand or imported. Writing one goes through the
// fill_* SQL functions (migrations/0005), which keep the fill's ledger entry and the positions of its
// symbol in step in the same statement.
import { sql, type SQL } from "drizzle-orm";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { NUMERIC_OUT_OF_RANGE, pgError, UNIQUE_VIOLATION } from "../db/errors.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal } from "../money.ts";
import { resolveInstrument, type Instrument } from "../instruments/instruments.ts";
import type { FillListQuery, FillPatch, NewFill } from "./schema.ts";

export type Fill = {
  id: string;
  accountId: string;
  symbol: string;
  assetClass: "stock" | "option" | "future";
  multiplier: string;
  side: "buy" | "sell";
  quantity: string;
  price: string;
  fees: string;
  /** The fees are the account's fee schedule's estimate: the imported row carried none. */
  feesEstimated: boolean;
  executedAt: string;
  executionId: string | null;
  importId: string | null;
  /** "expiry": the journal closed an option still open after its expiry (docs/trading.md, "Option expiry and assignment"). */
  generated: "expiry" | null;
};

type FillRow = {
  id: string;
  account_id: string;
  symbol: string;
  asset_class: Fill["assetClass"];
  multiplier: string;
  side: Fill["side"];
  quantity: string;
  price: string;
  fees: string;
  fees_estimated: boolean;
  executed_at: string;
  execution_id: string | null;
  import_id: string | null;
  generated: "expiry" | null;
};

/** Every column as text, so all drivers answer alike. `f` is the fills row alias. */
export const fillColumns = sql.raw(`f.id::text as id, f.account_id::text as account_id, f.symbol, f.asset_class,
  f.multiplier::text as multiplier, f.side, f.quantity::text as quantity, f.price::text as price, f.fees::text as fees,
  f.fees_estimated, ${isoUtc("f.executed_at")} as executed_at, f.execution_id,
  f.import_id::text as import_id, f.generated`);

export function toFill(row: FillRow): Fill {
  return {
    id: row.id,
    accountId: row.account_id,
    symbol: row.symbol,
    assetClass: row.asset_class,
    multiplier: formatDecimal(row.multiplier),
    side: row.side,
    quantity: formatDecimal(row.quantity),
    price: formatDecimal(row.price),
    fees: formatDecimal(row.fees),
    feesEstimated: row.fees_estimated,
    executedAt: row.executed_at,
    executionId: row.execution_id,
    importId: row.import_id,
    generated: row.generated,
  };
}

async function run(deps: Pick<Deps, "db">, query: SQL): Promise<FillRow[]> {
  try {
    return rowsOf<FillRow>(await deps.db.execute(query));
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === UNIQUE_VIOLATION) {
      throw new AppError("CONFLICT", "This account already has a fill with that execution id.");
    }
    if (pg?.code === NUMERIC_OUT_OF_RANGE) {
      throw new AppError("VALIDATION_ERROR", "The fill's value is larger than the journal can hold.", {
        fields: [{ path: "quantity", message: "quantity x price is too large" }],
      });
    }
    throw err;
  }
}

const NO_FILL = () => new AppError("NOT_FOUND", "No such fill.");

/**
 * A futures contract settles in its own currency (lib/instruments/futures.ts): its fills go in an account of that
 * currency, since the journal never converts (DESIGN.md section 9). Other instruments are the account's.
 */
export function refuseOtherCurrency(instrument: Instrument, accountCurrency: string): void {
  if (!instrument.currency || instrument.currency === accountCurrency) return;
  throw new AppError("VALIDATION_ERROR", `${instrument.symbol} settles in ${instrument.currency}: record it in an account in ${instrument.currency} (this one is in ${accountCurrency}).`, {
    fields: [{ path: "symbol", message: `settles in ${instrument.currency}, not in this account's ${accountCurrency}` }],
  });
}

export async function addFill(deps: Pick<Deps, "db">, user: AuthUser, input: NewFill): Promise<Fill> {
  const instrument = resolveInstrument({ symbol: input.symbol, assetClass: input.assetClass, multiplier: input.multiplier });
  if (instrument.currency) refuseOtherCurrency(instrument, (await requireOwnAccount(deps, user, input.accountId)).currency);
  const rows = await run(
    deps,
    sql`select ${fillColumns} from fill_add(${user.id}, ${input.accountId}, ${instrument.symbol}, ${instrument.assetClass},
      ${instrument.multiplier}::numeric, ${input.side}, ${input.quantity}::numeric, ${input.price}::numeric,
      ${input.fees ?? "0"}::numeric, ${new Date(input.executedAt).toISOString()}::timestamptz, ${input.executionId ?? null},
      null) f`,
  );
  if (!rows[0]) throw new AppError("NOT_FOUND", "No such account.");
  return toFill(rows[0]);
}

export async function getFill(deps: Pick<Deps, "db">, user: AuthUser, fillId: string): Promise<Fill & { tradeIds: string[] }> {
  const rows = rowsOf<FillRow & { trade_ids: string[] | string }>(
    await deps.db.execute(sql`select ${fillColumns},
        (select coalesce(json_agg(p.id::text order by p.opened_at, p.id), '[]'::json) from position_fills pf join positions p on p.id = pf.position_id
          where pf.fill_id = f.id) as trade_ids
      from fills f join accounts a on a.id = f.account_id where f.id = ${fillId} and a.user_id = ${user.id}`),
  );
  if (!rows[0]) throw NO_FILL();
  const ids = rows[0].trade_ids;
  // The trades it is in now (two when it reversed a position): after a rebuild, where a page on its old trade goes.
  return { ...toFill(rows[0]), tradeIds: typeof ids === "string" ? (JSON.parse(ids) as string[]) : ids };
}

/**
 * Changes the fields `patch` names; fill_update (migration 0014) keeps every other one as the fill has it
 * under the account's lock, so concurrent edits of different fields never undo each other. A new symbol
 * brings its own asset class and multiplier; changing only those reads the fill's symbol first.
 */
export async function updateFill(deps: Pick<Deps, "db">, user: AuthUser, fillId: string, patch: FillPatch): Promise<Fill> {
  let instrument: Instrument | null = null;
  if (patch.symbol !== undefined) {
    instrument = resolveInstrument({ symbol: patch.symbol, assetClass: patch.assetClass, multiplier: patch.multiplier });
  } else if (patch.assetClass !== undefined || patch.multiplier !== undefined) {
    const current = await getFill(deps, user, fillId);
    instrument = resolveInstrument({
      symbol: current.symbol,
      assetClass: patch.assetClass ?? current.assetClass,
      multiplier: patch.multiplier ?? (patch.assetClass === undefined ? current.multiplier : undefined),
    });
  }
  if (instrument?.currency) {
    const [owner] = rowsOf<{ currency: string }>(
      await deps.db.execute(sql`select a.currency from fills f join accounts a on a.id = f.account_id where f.id = ${fillId} and a.user_id = ${user.id}`),
    );
    if (!owner) throw NO_FILL();
    refuseOtherCurrency(instrument, owner.currency);
  }
  const rows = await run(
    deps,
    sql`select ${fillColumns} from fill_update(${user.id}, ${fillId}, ${instrument?.symbol ?? null}, ${instrument?.assetClass ?? null},
      ${instrument?.multiplier ?? null}::numeric, ${patch.side ?? null}, ${patch.quantity ?? null}::numeric,
      ${patch.price ?? null}::numeric, ${patch.fees ?? null}::numeric,
      ${patch.executedAt ? new Date(patch.executedAt).toISOString() : null}::timestamptz) f`,
  );
  if (!rows[0]) throw NO_FILL();
  return toFill(rows[0]);
}

export async function deleteFill(deps: Pick<Deps, "db">, user: AuthUser, fillId: string): Promise<void> {
  const rows = rowsOf<{ id: string }>(await deps.db.execute(sql`select id::text as id from fill_delete(${user.id}, ${fillId}) as id`));
  if (!rows[0]) throw NO_FILL();
}

/** Fills of one account, newest first. */
export async function listFills(deps: Pick<Deps, "db">, user: AuthUser, query: FillListQuery) {
  await requireOwnAccount(deps, user, query.accountId);
  const offset = (query.page - 1) * query.pageSize;
  const rows = await run(
    deps,
    // The page is chosen first and only its rows are formatted: formatting every fill before the sort cost
    // 30-40 ms a page at 30,000 fills.
    sql`select ${fillColumns} from (
        select f.* from fills f join accounts a on a.id = f.account_id
        where a.id = ${query.accountId} and a.user_id = ${user.id}
        ${query.symbol ? sql`and f.symbol = ${query.symbol.trim().toUpperCase()}` : sql``}
        order by f.executed_at desc, f.id desc limit ${query.pageSize + 1} offset ${offset}
      ) f
      order by f.executed_at desc, f.id desc`,
  );
  return {
    fills: rows.slice(0, query.pageSize).map(toFill),
    hasMore: rows.length > query.pageSize,
    page: query.page,
    pageSize: query.pageSize,
  };
}
