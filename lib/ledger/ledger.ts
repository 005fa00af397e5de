// The cash ledger of an account. Reads are one indexed range query whatever the page; writes go through
// the ledger_* SQL functions (migrations/0003), which keep `rank` and the running balance per entry.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { pgError } from "../db/errors.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal, fromUnits, toUnits } from "../money.ts";
import type { LedgerPageQuery, NewLedgerEntry } from "./schema.ts";

export type LedgerEntry = {
  id: string;
  type: "opening" | "deposit" | "withdrawal" | "fill" | "adjustment";
  amount: string;
  occurredAt: string;
  note: string | null;
  fillId?: string;
};

export type LedgerPage = {
  entries: LedgerEntry[];
  hasMore: boolean;
  page: number;
  pageSize: number;
  runningBalanceAtFirstRow: string;
};

type EntryRow = {
  id: string;
  type: LedgerEntry["type"];
  amount: string;
  occurred_at: string;
  note: string | null;
  fill_id: string | null;
};

const NUMERIC_OUT_OF_RANGE = "22003";
const NO_ACCOUNT = () => new AppError("NOT_FOUND", "No such account.");

/** Columns every driver returns as text, so the result is the same over pg, PGlite and HTTP. */
const entryColumns = sql.raw(`e.id::text as id, e.type, e.amount::text as amount,
  ${isoUtc("e.occurred_at")} as occurred_at, e.note, e.fill_id::text as fill_id`);

function toEntry(row: EntryRow): LedgerEntry {
  return {
    id: row.id,
    type: row.type,
    amount: formatDecimal(row.amount),
    occurredAt: row.occurred_at,
    note: row.note,
    ...(row.fill_id ? { fillId: row.fill_id } : {}),
  };
}

/**
 * One page, newest first. Entry ranks run 1..total from the oldest, so page p is the rank range
 * (total - p * size, total - (p - 1) * size]: an index range read that costs the same at any depth.
 */
export async function getLedgerPage(deps: Pick<Deps, "db">, user: AuthUser, accountId: string, query: LedgerPageQuery): Promise<LedgerPage> {
  const offset = (query.page - 1) * query.pageSize;
  const rows = rowsOf<EntryRow & { total: string | null; balance_after: string | null; account_found: number }>(
    await deps.db.execute(ledgerPageSql(user.id, accountId, query)),
  );
  if (rows.length === 0) throw NO_ACCOUNT();
  const total = Number(rows[0]!.total ?? 0);
  const entries = rows.filter((r) => r.id !== null).map(toEntry);
  return {
    entries,
    hasMore: total - offset - query.pageSize > 0,
    page: query.page,
    pageSize: query.pageSize,
    runningBalanceAtFirstRow: formatDecimal(rows[0]!.balance_after ?? "0"),
  };
}

/** The page query itself (exported for the benchmark, which times it without HTTP). */
export function ledgerPageSql(userId: string, accountId: string, query: LedgerPageQuery) {
  const offset = (query.page - 1) * query.pageSize;
  return sql`
      select 1 as account_found, t.total::text as total, e.balance_after::text as balance_after, ${entryColumns}
      from accounts a
      left join lateral (
        select rank as total from ledger_entries where account_id = a.id order by rank desc limit 1
      ) t on true
      left join lateral (
        select * from ledger_entries le
        where le.account_id = a.id and le.rank <= t.total - ${offset}
        order by le.rank desc limit ${query.pageSize}
      ) e on true
      where a.id = ${accountId} and a.user_id = ${userId}
      order by e.rank desc`;
}

/** Records a deposit, withdrawal (stored negative) or signed adjustment. */
export async function addLedgerEntry(
  deps: Pick<Deps, "db" | "now">,
  user: AuthUser,
  accountId: string,
  input: NewLedgerEntry,
): Promise<LedgerEntry> {
  const amount = input.type === "withdrawal" ? fromUnits(-toUnits(input.amount)) : input.amount;
  const occurredAt = input.occurredAt ? new Date(input.occurredAt) : deps.now();
  let rows: EntryRow[];
  try {
    rows = rowsOf<EntryRow>(
      await deps.db.execute(sql`
        select ${entryColumns}
        from ledger_add(${user.id}, ${accountId}, ${input.type}, ${amount}::numeric, ${occurredAt.toISOString()}::timestamptz,
                        ${input.note ?? null}, null) e`),
    );
  } catch (err) {
    if (pgError(err)?.code === NUMERIC_OUT_OF_RANGE) {
      throw new AppError("VALIDATION_ERROR", "The balance would exceed what the ledger can hold.", {
        fields: [{ path: "amount", message: "makes the balance too large" }],
      });
    }
    throw err;
  }
  if (!rows[0]) throw NO_ACCOUNT();
  return toEntry(rows[0]);
}

/** Deletes a manual entry (deposit, withdrawal, adjustment); opening and fill entries follow their source. */
export async function deleteLedgerEntry(deps: Pick<Deps, "db">, user: AuthUser, accountId: string, entryId: string): Promise<void> {
  const rows = rowsOf<{ id: string }>(
    await deps.db.execute(sql`select id::text as id from ledger_delete_manual(${user.id}, ${accountId}, ${entryId}) as id`),
  );
  if (!rows[0]) throw new AppError("NOT_FOUND", "No such manual entry in this account.");
}
