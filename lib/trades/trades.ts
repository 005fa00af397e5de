// Trades (positions): read and journaled here, built from fills by positions_rebuild. What a trader writes
// about a trade lives in its journal (trade_journals), which follows the fills through every rebuild
// (migrations/functions/journals; lib/journals for detached notes).
import { canonicalTags } from "../tags/tags.ts";
import { sql, type SQL } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import { pgError, RAISED_EXCEPTION } from "../db/errors.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { tradeBases, type TradeBase } from "../fx/base.ts";
import { formatDecimal } from "../money.ts";
import { requireOwnAccount } from "../accounts/accounts.ts";
import { fillColumns, toFill } from "./fills.ts";
import { computedExcursionsJoin, excursionColumns, freshExcursionsJoin, toExcursions, type ExcursionRow } from "./excursions.ts";
import { ONE_R_SQL, R_MULTIPLE_TEXT, riskColumns, toRisk, type RiskRow } from "../risk.ts";
import type { TradeJournal, TradeListQuery, TradeSort } from "./schema.ts";
import { checkAnswers } from "../playbooks/playbooks.ts";
import { brokenSql, tradeCompliance } from "../rules/compliance.ts";

type TradeRow = RiskRow & ExcursionRow & {
  id: string;
  account_id: string;
  /** The account's: what every amount of the trade is in. */
  currency: string;
  symbol: string;
  asset_class: "stock" | "option" | "future";
  multiplier: string;
  direction: "long" | "short";
  opened_at: string;
  closed_at: string | null;
  open_quantity: string;
  max_quantity: string;
  entry_quantity: string;
  entry_value: string;
  exit_quantity: string;
  exit_value: string;
  fees: string;
  gross_pnl: string;
  net_pnl: string;
  notes: string | null;
  tags: string[] | string;
  setup: string | null;
  rating: number | null;
  journal_id: string | null;
  playbook_id: string | null;
  playbook_answers: Record<string, unknown> | string | null;
};

const tradeColumns = sql.raw(`p.id::text as id, p.account_id::text as account_id, p.symbol, p.asset_class,
  p.multiplier::text as multiplier, p.direction, ${isoUtc("p.opened_at")} as opened_at, ${isoUtc("p.closed_at")} as closed_at,
  p.open_quantity::text as open_quantity, p.max_quantity::text as max_quantity, p.entry_quantity::text as entry_quantity,
  p.entry_value::text as entry_value, p.exit_quantity::text as exit_quantity, p.exit_value::text as exit_value,
  p.fees::text as fees, p.gross_pnl::text as gross_pnl, p.net_pnl::text as net_pnl, j.notes,
  coalesce(array_to_json(j.tags)::text, '[]') as tags, j.setup, j.rating::int as rating, j.id::text as journal_id,
  j.playbook_id::text as playbook_id, j.playbook_answers::text as playbook_answers`);

function toTrade(row: TradeRow & { avg_entry: string | null; avg_exit: string | null }) {
  return {
    id: row.id,
    accountId: row.account_id,
    currency: row.currency,
    symbol: row.symbol,
    assetClass: row.asset_class,
    multiplier: formatDecimal(row.multiplier),
    direction: row.direction,
    status: row.closed_at ? ("closed" as const) : ("open" as const),
    openedAt: row.opened_at,
    closedAt: row.closed_at,
    openQuantity: formatDecimal(row.open_quantity),
    maxQuantity: formatDecimal(row.max_quantity),
    averageEntryPrice: row.avg_entry === null ? null : formatDecimal(row.avg_entry),
    averageExitPrice: row.avg_exit === null ? null : formatDecimal(row.avg_exit),
    fees: formatDecimal(row.fees),
    grossPnl: formatDecimal(row.gross_pnl),
    netPnl: formatDecimal(row.net_pnl),
    notes: row.notes,
    tags: typeof row.tags === "string" ? (JSON.parse(row.tags) as string[]) : row.tags,
    setup: row.setup,
    rating: row.rating,
    /** The journal holding what is written on this trade, or null when nothing is. */
    journalId: row.journal_id,
    /** The playbook it was taken from, and the answers to its checklist by item id. */
    playbookId: row.playbook_id,
    playbookAnswers: (typeof row.playbook_answers === "string" ? JSON.parse(row.playbook_answers) : (row.playbook_answers ?? {})) as Record<string, boolean | number | string>,
    risk: toRisk(row),
    excursions: toExcursions(row),
  };
}
export type Trade = ReturnType<typeof toTrade>;

const averages = sql.raw(`case when p.entry_quantity = 0 then null else round(p.entry_value / p.entry_quantity, 10)::text end as avg_entry,
  case when p.exit_quantity = 0 then null else round(p.exit_value / p.exit_quantity, 10)::text end as avg_exit`);

export async function listTrades(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, query: TradeListQuery) {
  if (query.rules && !query.accountId) {
    throw new AppError("VALIDATION_ERROR", "Trading rules are set per account: choose one (accountId) to filter by them.", {
      fields: [{ path: "accountId", message: "is required with rules" }],
    });
  }
  if (query.accountId) await requireOwnAccount(deps, user, query.accountId);
  const offset = (query.page - 1) * query.pageSize;
  const sort = sortOf(query);
  const where = tradeFilter(user, query);
  const [rows, totals] = await Promise.all([
    deps.db.execute(sql`
      select ${tradeColumns}, p.currency, ${averages}, ${riskColumns}, ${excursionColumns} from (
      select p.*, a.currency from positions p join accounts a on a.id = p.account_id
      ${sort.journal ? sql`left join trade_journals j on j.position_id = p.id` : sql``}
      ${sort.excursions ? freshExcursionsJoin : sql``}
      where ${where}
      order by ${sort.orderBy}
      limit ${query.pageSize + 1} offset ${offset}
      ) p
      join accounts a on a.id = p.account_id
      left join trade_journals j on j.position_id = p.id
      ${freshExcursionsJoin}
      order by ${sort.orderBy}`),
    query.totals === "true" ? tradeTotals(deps, where) : undefined,
  ]);
  // The page is chosen first and only its rows are formatted (dates, decimals, tags), as in listFills.
  const page = rowsOf<TradeRow & { avg_entry: string | null; avg_exit: string | null }>(rows).slice(0, query.pageSize + 1);
  const shown = page.slice(0, query.pageSize);
  const bases = await tradeBases(deps, user.id, shown.map((r) => r.id));
  return {
    trades: shown.map((r) => withBase(toTrade(r), bases)),
    hasMore: page.length > query.pageSize,
    page: query.page,
    pageSize: query.pageSize,
    ...(totals ? { totals } : {}),
  };
}

/** The list's filters, on `p` (positions) and `a` (its account). */
function tradeFilter(user: AuthUser, query: TradeListQuery): SQL {
  const at = (v: string) => sql`${new Date(v).toISOString()}::timestamptz`;
  return sql`a.user_id = ${user.id}
    ${query.accountId ? sql`and p.account_id = ${query.accountId}` : sql``}
    ${query.symbol ? sql`and p.symbol = ${query.symbol.trim().toUpperCase()}` : sql``}
    ${query.direction ? sql`and p.direction = ${query.direction}` : sql``}
    ${query.tag ? sql`and exists (select 1 from trade_journals tj where tj.position_id = p.id and ${query.tag} = any(tj.tags))` : sql``}
    ${query.playbookId ? sql`and exists (select 1 from trade_journals tj where tj.position_id = p.id and tj.playbook_id = ${query.playbookId})` : sql``}
    ${query.setup === undefined ? sql`` : sql`and coalesce((select tj.setup from trade_journals tj where tj.position_id = p.id), '') = ${query.setup.trim()}`}
    ${query.status === "open" ? sql`and p.closed_at is null` : query.status === "closed" ? sql`and p.closed_at is not null` : sql``}
    ${query.from ? sql`and p.opened_at >= ${at(query.from)}` : sql``}
    ${query.to ? sql`and p.opened_at < ${at(query.to)}` : sql``}
    ${query.closedFrom ? sql`and p.closed_at >= ${at(query.closedFrom)}` : sql``}
    ${query.closedTo ? sql`and p.closed_at < ${at(query.closedTo)}` : sql``}
    ${query.tradedFrom || query.tradedTo
      ? sql`and exists (select 1 from position_fills pf where pf.position_id = p.id
          ${query.tradedFrom ? sql`and pf.executed_at >= ${at(query.tradedFrom)}` : sql``} ${query.tradedTo ? sql`and pf.executed_at < ${at(query.tradedTo)}` : sql``})`
      : sql``}
    ${query.entryWeekday ? sql`and extract(isodow from p.opened_at at time zone a.timezone) = ${Number(query.entryWeekday)}` : sql``}
    ${query.entryHour ? sql`and extract(hour from p.opened_at at time zone a.timezone) = ${Number(query.entryHour)}` : sql``}
    ${query.maxEfficiency !== undefined || query.maxMaeR !== undefined ? excursionFilter(query) : sql``}
    ${query.rules && query.accountId ? sql`and p.id ${query.rules === "broke" ? sql`in` : sql`not in`} (with ${brokenSql(query.accountId, null)} select trade_id from tb)` : sql``}`;
}

/** Each sort's expression (over `p`, `a`, the journal `j` and the fresh excursions `x`), and the joins it needs. */
const SORTS: Record<TradeSort, { by: string; journal?: true; excursions?: true }> = {
  openedAt: { by: "p.opened_at" },
  closedAt: { by: "p.closed_at" },
  status: { by: "(p.closed_at is not null)" },
  heldFor: { by: "(coalesce(p.closed_at, now()) - p.opened_at)" },
  symbol: { by: "p.symbol" },
  account: { by: "lower(a.name)" },
  direction: { by: "p.direction" },
  quantity: { by: "p.max_quantity" },
  averageEntryPrice: { by: "(p.entry_value / nullif(p.entry_quantity, 0))" },
  averageExitPrice: { by: "(p.exit_value / nullif(p.exit_quantity, 0))" },
  grossPnl: { by: "p.gross_pnl" },
  netPnl: { by: "p.net_pnl" },
  rMultiple: { by: R_MULTIPLE_TEXT, journal: true },
  mae: { by: "x.position_mae", excursions: true },
  mfe: { by: "x.position_mfe", excursions: true },
  efficiency: { by: "(case when x.best_exit_pnl > 0 then p.net_pnl / x.best_exit_pnl end)", excursions: true },
};

/** The list's order: the figure asked for (missing ones last), then the newest opened. */
function sortOf(query: Pick<TradeListQuery, "sort" | "order">) {
  const key = query.sort ?? "openedAt";
  const s = SORTS[key];
  const dir = query.order === "asc" ? "asc" : "desc";
  const orderBy = key === "openedAt" ? `p.opened_at ${dir}, p.id ${dir}` : `${s.by} ${dir} nulls last, p.opened_at desc, p.id desc`;
  return { orderBy: sql.raw(orderBy), journal: s.journal === true, excursions: s.excursions === true };
}

/**
 * The totals of every trade the filters match, per currency (amounts are never added across currencies):
 * how many, how many closed and won (net P&L above 0), the win rate over the closed ones, and the net P&L
 * (realised so far for open trades, as the list shows it).
 */
async function tradeTotals(deps: Pick<Deps, "db">, where: SQL) {
  const rows = rowsOf<{ currency: string; trades: string; closed: string; wins: string; net: string }>(
    await deps.db.execute(sql`select a.currency, count(*)::text as trades, count(*) filter (where p.closed_at is not null)::text as closed,
        count(*) filter (where p.closed_at is not null and p.net_pnl > 0)::text as wins, sum(p.net_pnl)::text as net
      from positions p join accounts a on a.id = p.account_id where ${where} group by a.currency order by a.currency`),
  );
  return rows.map((r) => ({
    currency: r.currency,
    trades: Number(r.trades),
    closed: Number(r.closed),
    wins: Number(r.wins),
    winRate: Number(r.closed) > 0 ? (Number(r.wins) / Number(r.closed)).toFixed(4) : null,
    netPnl: formatDecimal(r.net),
  }));
}

/**
 * The trade that holds now what was written on `tradeId`, an id the user's trade had before a rebuild gave it a
 * new one (its journal remembers the ids it was on: journals_follow), or null (never the user's, or its fills are
 * gone and its notes detached).
 */
export async function tradeSuccessor(deps: Pick<Deps, "db">, user: AuthUser, tradeId: string): Promise<string | null> {
  const [row] = rowsOf<{ id: string }>(
    await deps.db.execute(sql`select j.position_id::text as id from trade_journals j join accounts a on a.id = j.account_id
      where a.user_id = ${user.id}::uuid and j.position_id is not null and j.position_id <> ${tradeId}::uuid
        and (j.last_position_id = ${tradeId}::uuid or j.former_position_ids @> array[${tradeId}::uuid])
      order by (j.last_position_id = ${tradeId}::uuid) desc, j.updated_at desc limit 1`),
  );
  return row?.id ?? null;
}

/** The excursion filters: trades whose fresh excursions keep at most maxEfficiency, or went maxMaeR or further against. */
function excursionFilter(query: TradeListQuery) {
  return sql`and exists (select 1 from trade_excursions x left join trade_journals j on j.position_id = p.id
    where x.position_id = p.id and x.basis = p.updated_at
    ${query.maxEfficiency !== undefined ? sql`and x.best_exit_pnl > 0 and p.net_pnl / x.best_exit_pnl <= ${query.maxEfficiency}::numeric` : sql``}
    ${query.maxMaeR !== undefined ? sql`and x.position_mae / nullif(${ONE_R_SQL}, 0) <= ${query.maxMaeR}::numeric` : sql``})`;
}

const NO_TRADE = () => new AppError("NOT_FOUND", "No such trade.");

/** The trade with its `base` (docs/currencies.md) when the user has a base currency. */
function withBase<T extends { id: string }>(trade: T, bases: Map<string, TradeBase>): T & { base?: TradeBase } {
  const base = bases.get(trade.id);
  return base ? { ...trade, base } : trade;
}

export async function getTrade(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, tradeId: string) {
  const [row] = rowsOf<TradeRow & { avg_entry: string | null; avg_exit: string | null }>(
    // The trade is found (and its owner checked) first; only then are its excursions computed when stale.
    await deps.db.execute(sql`select ${tradeColumns}, a.currency, ${averages}, ${riskColumns}, ${excursionColumns}
      from (select p.* from positions p join accounts a on a.id = p.account_id where p.id = ${tradeId} and a.user_id = ${user.id}) p
      join accounts a on a.id = p.account_id
      left join trade_journals j on j.position_id = p.id
      ${computedExcursionsJoin}`),
  );
  if (!row) throw NO_TRADE();
  const [fills, compliance, adjacent, bases] = await Promise.all([
    tradeFills(deps, tradeId),
    tradeCompliance(deps, row.account_id, tradeId, row.opened_at),
    adjacentTrades(deps, tradeId),
    tradeBases(deps, user.id, [tradeId]),
  ]);
  return { trade: withBase(toTrade(row), bases), fills, compliance, adjacent };
}

/** The trades of the same account opened just before and just after this one (by opening time, then id), for stepping through them. */
async function adjacentTrades(deps: Pick<Deps, "db">, tradeId: string): Promise<{ older: string | null; newer: string | null }> {
  const [row] = rowsOf<{ older: string | null; newer: string | null }>(
    await deps.db.execute(sql`select
        (select p.id::text from positions p where p.account_id = me.account_id and (p.opened_at, p.id) < (me.opened_at, me.id)
          order by p.opened_at desc, p.id desc limit 1) as older,
        (select p.id::text from positions p where p.account_id = me.account_id and (p.opened_at, p.id) > (me.opened_at, me.id)
          order by p.opened_at, p.id limit 1) as newer
      from positions me where me.id = ${tradeId}`),
  );
  return { older: row?.older ?? null, newer: row?.newer ?? null };
}

/** A trade's fills with the share of each that belongs to it. */
async function tradeFills(deps: Pick<Deps, "db">, tradeId: string) {
  const fills = rowsOf<Parameters<typeof toFill>[0] & { part_quantity: string; part_fees: string; role: string; split_factor: string }>(
    await deps.db.execute(sql`select ${fillColumns}, pf.quantity::text as part_quantity, pf.fees::text as part_fees, pf.role,
        (case when account_has_splits(f.account_id, f.symbol) then split_quantity(1, split_factor(f.account_id, f.symbol, f.executed_at)) else 1 end)::text as split_factor
      from position_fills pf join fills f on f.id = pf.fill_id where pf.position_id = ${tradeId}
      order by f.executed_at, f.id`),
  );
  return fills.map((f) => ({
    ...toFill(f),
    role: f.role,
    quantityInTrade: formatDecimal(f.part_quantity),
    feesInTrade: formatDecimal(f.part_fees),
    splitFactor: formatDecimal(f.split_factor),
  }));
}

/**
 * PATCH /api/trades/:id: writes the journal fields the patch names on the trade's journal (made on the first
 * write; a write that leaves it blank, without screenshots, removes it). One statement, which waits for a
 * rebuild of the account in progress, so nothing is written on a trade that is being replaced.
 */
export async function journalTrade(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, tradeId: string, patch: TradeJournal) {
  const tags = patch.tags === undefined ? undefined : await canonicalTags(deps, user.id, patch.tags);
  const body = { ...patch, ...(tags === undefined ? {} : { tags }) };
  if (patch.playbookAnswers !== undefined) await checkAnswers(deps, user, tradeId, patch.playbookId, patch.playbookAnswers);
  let row: { journal: string | null } | undefined;
  try {
    [row] = rowsOf<{ journal: string | null }>(
      await deps.db.execute(sql`select trade_journal_write(${user.id}::uuid, ${tradeId}::uuid, ${JSON.stringify(body)}::jsonb)::text as journal`),
    );
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === RAISED_EXCEPTION && pg.message.startsWith("STOP_WRONG_SIDE:")) {
      const [, direction, entry] = pg.message.split(":");
      const side = direction === "long" ? "below" : "above";
      throw new AppError("VALIDATION_ERROR", `A ${direction} trade's stop is ${side} its entry (${entry}): at the stop the trade loses.`, {
        fields: [{ path: "stopPrice", message: `must be ${side} the entry price ${entry} for a ${direction} trade` }],
      });
    }
    if (pg?.code === RAISED_EXCEPTION && pg.message === "PLAYBOOK_NOT_FOUND") {
      throw new AppError("VALIDATION_ERROR", "No such playbook.", { fields: [{ path: "playbookId", message: "is not one of your playbooks" }] });
    }
    throw err;
  }
  if (!row?.journal) throw NO_TRADE();
  // The journal fields come from the write itself, so a concurrent PATCH cannot show through the answer.
  const written = JSON.parse(row.journal) as { id: string | null; notes: string | null; tags: string[]; setup: string | null; rating: number | null; playbookId: string | null; playbookAnswers: Record<string, boolean | number | string> };
  const detail = await getTrade(deps, user, tradeId);
  const { id: journalId, ...fields } = written;
  return { ...detail, trade: { ...detail.trade, ...fields, journalId } };
}
