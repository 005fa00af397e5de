// The cash ledger of an account. A page read is one statement, session check included, and costs the same
// whatever the page; writes go through the ledger_* SQL functions, and the trigger ledger_days_follow keeps
// each entry's place and running sum in its day and each day's count and total (migration 0046).
import { sql, type SQL } from "drizzle-orm";
import {
  SESSION_CTE,
  SESSION_OWNER_COLUMNS,
  confirmSessionOwner,
  sessionParams,
  type AuthUser,
  type SessionClaim,
  type SessionOwnerRow,
} from "../auth/session.ts";
import { NUMERIC_OUT_OF_RANGE, pgError } from "../db/errors.ts";
import { isoUtc, preparedStatement, rowsOf, type JsonText } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal, fromUnits, multiplyDecimals, roundDecimal10, toUnits } from "../money.ts";
import { ratesOnDays } from "../fx/base.ts";
import { dayIn } from "../time/zoned.ts";
import { OUTGOING_TYPES, type LedgerPageQuery, type NewLedgerEntry } from "./schema.ts";

export type LedgerEntry = {
  id: string;
  type: "opening" | "deposit" | "withdrawal" | "fill" | "adjustment" | "prop_fee" | "payout";
  amount: string;
  occurredAt: string;
  note: string | null;
  fillId?: string;
  /** On a fill's entry in a ledger page: what the fill was, so the ledger can say "Buy 100 AAPL at 191.50". */
  fill?: { symbol: string; side: "buy" | "sell"; quantity: string; price: string };
  /** In a page, when the user's base currency is not the account's: the amount at its date's rate (docs/currencies.md). */
  base?: { currency: string; amount: string | null; rate: string | null; rateDate: string | null };
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
 * One entry as the page's JSON (LedgerEntry's shape: fillId and the fill's symbol, side, quantity and price
 * only on fill entries, `f` being the entry's fill), built by Postgres. format_decimal (migrations/0012) is
 * formatDecimal in SQL, for every decimal of the API ("100.00", "191.50"). A page of 50 fills costs ~0.4 ms
 * more than one of deposits (measured: the join ~0.05 ms, the formatting the rest).
 */
const entryJson = sql.raw(`case when le.fill_id is null
    then json_build_object('id', le.id, 'type', le.type, 'amount', format_decimal(le.amount),
      'occurredAt', ${isoUtc("le.occurred_at")}, 'note', le.note)
    else json_build_object('id', le.id, 'type', le.type, 'amount', format_decimal(le.amount),
      'occurredAt', ${isoUtc("le.occurred_at")}, 'note', le.note, 'fillId', le.fill_id,
      'fill', json_build_object('symbol', f.symbol, 'side', f.side, 'quantity', format_decimal(f.quantity),
        'price', format_decimal(f.price)))
  end`);

/**
 * The page as LedgerPage JSON text, built by Postgres: the server passes it on as it is instead of parsing a
 * row per entry, mapping and serialising it again (most of what a page cost the server). No row when `owner`
 * has no such account.
 *
 * Entry ranks run 1..total from the oldest, so page p is the rank range (total - p * size, total - (p - 1) * size].
 * Ranks are not stored (a backdated entry would change every later one): each month and day of the ledger
 * (ledger_months, ledger_days) holds its count and total, each entry its place and running sum in its day, so
 * the page is the months' running counts (a few dozen rows for years of trading), the days' within the one or
 * two months the range falls in, and an index range read of their entries. The range, not
 * `limit <size>`, bounds the page: the planner cannot estimate a limit given as a parameter, so a prepared
 * statement with one never keeps its generic plan and is planned again on every call (which costs as much
 * as running it). A range makes the estimate the same whatever the parameters.
 */
function pageSql(owner: SQL, accountId: unknown, page: unknown, pageSize: unknown, skip: unknown, skipTo: unknown) {
  // Ranks counted from the oldest: the page holds ranks (lo, hi].
  const lo = sql`t.total - ${skipTo}::bigint`;
  const hi = sql`t.total - ${skip}::bigint`;
  return sql`
      select json_build_object(
        'entries', coalesce(e.entries, '[]'::json),
        'hasMore', coalesce(t.total, 0) - ${skipTo}::bigint > 0,
        'page', ${page}::int,
        'pageSize', ${pageSize}::int,
        'runningBalanceAtFirstRow', format_decimal(coalesce(e.first_balance, 0))
      )::text as body,
      -- The user's base when it is not the account's currency: the page's amounts are converted to it too.
      case when s.base_currency <> a.currency and e.entries is not null then json_build_object('base', s.base_currency, 'accountId', a.id, 'currency', a.currency, 'timezone', a.timezone)::text end as convert
      from accounts a
      left join user_settings s on s.user_id = a.user_id
      left join lateral (
        select coalesce(sum(entries), 0)::bigint as total from ledger_months where account_id = a.id
      ) t on true
      left join lateral (
        select json_agg(${entryJson} order by le.day desc, le.day_rank desc) as entries,
          (array_agg(mb.balance + db.balance + le.day_balance order by le.day desc, le.day_rank desc))[1] as first_balance
        from (
          -- The months the page falls in, with the entries before each.
          select x.month, x.rank_base from (
            select month, entries, sum(entries) over (order by month) - entries as rank_base from ledger_months where account_id = a.id
          ) x
          where x.rank_base < ${hi} and x.rank_base + x.entries > ${lo}
        ) m
        cross join lateral (
          select coalesce(sum(total), 0) as balance from ledger_months where account_id = a.id and month < m.month
        ) mb
        join lateral (
          -- Their days the page falls in, with the entries before each.
          select y.day, m.rank_base + y.before as rank_base from (
            select day, entries, sum(entries) over (order by day) - entries as before from ledger_days
            where account_id = a.id and day >= m.month and day < (m.month + interval '1 month')::date
          ) y
          where m.rank_base + y.before < ${hi} and m.rank_base + y.before + y.entries > ${lo}
        ) d on true
        cross join lateral (
          select coalesce(sum(total), 0) as balance from ledger_days where account_id = a.id and day >= m.month and day < d.day
        ) db
        join ledger_entries le on le.account_id = a.id and le.day = d.day
          and le.day_rank > ${lo} - d.rank_base and le.day_rank <= ${hi} - d.rank_base
        left join fills f on f.id = le.fill_id
      ) e on true
      where a.id = ${accountId}::uuid and a.user_id = ${owner}`;
}

/** The page's parameters: its number and size, and how many entries are newer than it and than its last entry. */
function pageRange(query: LedgerPageQuery) {
  const skip = (query.page - 1) * query.pageSize;
  return { page: query.page, pageSize: query.pageSize, skip, skipTo: skip + query.pageSize };
}

/** The session check and the page in one statement, prepared once per connection. */
const ledgerPage = preparedStatement<SessionOwnerRow & PageRow>(
  "ledger_page",
  sql`with ${SESSION_CTE}
    select ${SESSION_OWNER_COLUMNS}, p.body, p.convert from auth
    left join lateral (${pageSql(
      sql`auth.user_id`,
      sql.placeholder("accountId"),
      sql.placeholder("page"),
      sql.placeholder("pageSize"),
      sql.placeholder("skip"),
      sql.placeholder("skipTo"),
    )}) p on true`,
);

/**
 * One page, newest first, for the session `claim` names, in one round trip: a LedgerPage as JSON text, ready
 * to send. No live session is UNAUTHORIZED; an account that is not the session user's is NOT_FOUND, whether
 * it exists or not.
 */
export async function getLedgerPage(
  deps: Pick<Deps, "db" | "now" | "config" | "fetch" | "log">,
  claim: SessionClaim | { userId: string },
  accountId: string,
  query: LedgerPageQuery,
): Promise<JsonText<LedgerPage>> {
  if ("userId" in claim) {
    // A caller known already (a personal access token): the page alone.
    const [page] = rowsOf<PageRow>(await deps.db.execute(ledgerPageSql(claim.userId, accountId, query)));
    if (!page?.body) throw NO_ACCOUNT();
    return inBase(deps, claim.userId, page);
  }
  const now = deps.now();
  const [row] = await ledgerPage(deps.db, { ...sessionParams(claim, now), accountId, ...pageRange(query) });
  if (!(await confirmSessionOwner(deps, claim, row, now))) throw new AppError("UNAUTHORIZED", "Sign in to continue.");
  if (!row?.body) throw NO_ACCOUNT();
  return inBase(deps, row.session_user_id, row);
}

type PageRow = { body: string | null; convert: string | null };

/**
 * The page with each entry's `base` (its amount at the rate of its date in the account's zone, rates never
 * asked fetched first) when the user's base is not the account's currency; as Postgres made it otherwise.
 */
async function inBase(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, userId: string, row: PageRow): Promise<JsonText<LedgerPage>> {
  if (!row.convert) return row.body as JsonText<LedgerPage>;
  const { accountId, currency, timezone } = JSON.parse(row.convert) as { accountId: string; currency: string; timezone: string };
  const page = JSON.parse(row.body!) as LedgerPage;
  const days = page.entries.map((e) => dayIn(Date.parse(e.occurredAt), timezone));
  const found = await ratesOnDays(deps, userId, { id: accountId, currency }, days);
  if (!found) return row.body as JsonText<LedgerPage>;
  page.entries.forEach((e, i) => {
    const rate = found.rates.get(days[i]!);
    e.base = { currency: found.base, amount: rate ? formatDecimal(roundDecimal10(multiplyDecimals(e.amount, rate.k))) : null, rate: rate?.rate ?? null, rateDate: rate?.rateDate ?? null };
  });
  return JSON.stringify(page) as JsonText<LedgerPage>;
}

/** The page query getLedgerPage runs after its session check, for a known user: the benchmark's bare-SQL baseline. */
export function ledgerPageSql(userId: string, accountId: string, query: LedgerPageQuery): SQL {
  const { page, pageSize, skip, skipTo } = pageRange(query);
  return pageSql(sql`${userId}::uuid`, accountId, page, pageSize, skip, skipTo);
}

/** Records a deposit, a withdrawal, a prop firm's fee or payout (those three stored negative) or a signed adjustment. */
export async function addLedgerEntry(
  deps: Pick<Deps, "db" | "now">,
  user: AuthUser,
  accountId: string,
  input: NewLedgerEntry,
): Promise<LedgerEntry> {
  const amount = OUTGOING_TYPES.has(input.type) ? fromUnits(-toUnits(input.amount)) : input.amount;
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
