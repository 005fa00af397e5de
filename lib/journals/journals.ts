// Journals: what a trader wrote about a trade (notes, tags, setup, rating, screenshots), kept apart from the
// rebuilt positions so that it follows the fills (migrations/functions/journals/journals_follow.sql) and is
// never deleted by a rebuild, an undo or an import. Here: detached notes (a journal whose fills are gone),
// old trade links, attaching a note to a trade by hand, deleting one, and what a change would touch.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal } from "../money.ts";
import { drainObjectDeletions } from "../storage/deletions.ts";
import type { TradeImage } from "../trades/images.ts";
import type { AttachJournal, DetachedListQuery, JournalImpactQuery } from "./schema.ts";

type JournalRow = {
  id: string;
  account_id: string;
  currency: string;
  trade_id: string | null;
  symbol: string;
  direction: "long" | "short" | null;
  opened_at: string | null;
  closed_at: string | null;
  net_pnl: string | null;
  fills: number;
  notes: string | null;
  tags: string[] | string;
  setup: string | null;
  rating: number | null;
  images: TradeImage[] | string;
  detached_at: string | null;
  former: string[] | string;
  created_at: string;
  updated_at: string;
};

const parsed = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);

const journalColumns = sql.raw(`j.id::text as id, j.account_id::text as account_id, a.currency, j.position_id::text as trade_id,
  j.symbol, j.direction, ${isoUtc("j.opened_at")} as opened_at, ${isoUtc("j.closed_at")} as closed_at, j.net_pnl::text as net_pnl,
  j.fill_count as fills, j.notes, array_to_json(j.tags)::text as tags, j.setup, j.rating::int as rating,
  coalesce((select json_agg(json_build_object('id', i.id, 'contentType', i.content_type, 'bytes', i.bytes,
    'createdAt', ${isoUtc("i.created_at")}) order by i.created_at, i.id) from trade_images i where i.journal_id = j.id), '[]')::text as images,
  ${isoUtc("j.detached_at")} as detached_at,
  array_to_json(array_remove(j.former_position_ids || case when j.position_id is distinct from j.last_position_id then j.last_position_id end, null))::text as former,
  ${isoUtc("j.created_at")} as created_at, ${isoUtc("j.updated_at")} as updated_at`);

function toJournal(r: JournalRow) {
  return {
    id: r.id,
    accountId: r.account_id,
    currency: r.currency,
    tradeId: r.trade_id,
    symbol: r.symbol,
    direction: r.direction,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
    netPnl: r.net_pnl === null ? null : formatDecimal(r.net_pnl),
    fills: Number(r.fills),
    notes: r.notes,
    tags: parsed(r.tags),
    setup: r.setup,
    rating: r.rating,
    images: parsed(r.images),
    detachedAt: r.detached_at,
    formerTradeIds: parsed(r.former),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
export type Journal = ReturnType<typeof toJournal>;

const noJournal = () => new AppError("NOT_FOUND", "No such journal.");

/** GET /api/journals/detached: notes whose trade is gone, newest detached first. */
export async function listDetached(deps: Pick<Deps, "db">, user: AuthUser, query: DetachedListQuery) {
  const rows = rowsOf<JournalRow>(
    await deps.db.execute(sql`select ${journalColumns} from trade_journals j join accounts a on a.id = j.account_id
      where a.user_id = ${user.id}::uuid and j.position_id is null
        ${query.accountId ? sql`and j.account_id = ${query.accountId}::uuid` : sql``}
      order by j.detached_at desc nulls last, j.id`),
  );
  return { journals: rows.map(toJournal) };
}

/** GET /api/journals/:id. */
export async function getJournal(deps: Pick<Deps, "db">, user: AuthUser, journalId: string) {
  const [row] = rowsOf<JournalRow>(
    await deps.db.execute(sql`select ${journalColumns} from trade_journals j join accounts a on a.id = j.account_id
      where a.user_id = ${user.id}::uuid and j.id = ${journalId}::uuid`),
  );
  if (!row) throw noJournal();
  return toJournal(row);
}

/**
 * GET /api/journals/by-trade/:tradeId: the journal that is, or was, on a trade: an old link to a trade that a
 * rebuild replaced or merged leads to the trade that now holds its journal (tradeId), or to the detached note.
 */
export async function journalByTrade(deps: Pick<Deps, "db">, user: AuthUser, tradeId: string) {
  const [row] = rowsOf<JournalRow>(
    await deps.db.execute(sql`select ${journalColumns} from trade_journals j join accounts a on a.id = j.account_id
      where a.user_id = ${user.id}::uuid
        and (j.position_id = ${tradeId}::uuid or j.last_position_id = ${tradeId}::uuid or j.former_position_ids @> array[${tradeId}::uuid])
      order by (j.position_id = ${tradeId}::uuid) desc nulls last, (j.last_position_id = ${tradeId}::uuid) desc nulls last, j.updated_at desc
      limit 1`),
  );
  if (!row) throw new AppError("NOT_FOUND", "No trade, and no notes of a trade, has this id.");
  return toJournal(row);
}

/** POST /api/journals/:id/attach: put a (detached) note on a trade of its account, merging into the trade's own. */
export async function attachJournal(deps: Pick<Deps, "db">, user: AuthUser, journalId: string, body: AttachJournal) {
  const [row] = rowsOf<{ outcome: "attached" | "merged" | "same" | "not_found" | "other_account" }>(
    await deps.db.execute(sql`select trade_journal_attach(${user.id}::uuid, ${journalId}::uuid, ${body.tradeId}::uuid) as outcome`),
  );
  const outcome = row!.outcome;
  if (outcome === "not_found") throw new AppError("NOT_FOUND", "No such journal or trade.");
  if (outcome === "other_account") {
    throw new AppError("VALIDATION_ERROR", "A note can only go on a trade of the account it was written in.", {
      fields: [{ path: "tradeId", message: "is a trade of another account" }],
    });
  }
  const [held] = rowsOf<{ id: string }>(await deps.db.execute(sql`select id::text from trade_journals where position_id = ${body.tradeId}::uuid`));
  return { outcome, tradeId: body.tradeId, journalId: held?.id ?? journalId };
}

/** DELETE /api/journals/:id: the trader deletes a note (attached or detached) with its screenshots. */
export async function deleteJournal(deps: Pick<Deps, "db" | "storage" | "log">, user: AuthUser, journalId: string) {
  const [row] = rowsOf<{ keys: string[] | string | null }>(
    await deps.db.execute(sql`select array_to_json(trade_journal_delete(${user.id}::uuid, ${journalId}::uuid))::text as keys`),
  );
  if (!row || row.keys === null) throw noJournal();
  const keys = parsed(row.keys);
  if (keys.length) await drainObjectDeletions(deps, keys);
}

/**
 * GET /api/journals/impact: how many journaled trades (and their screenshots) a fill delete, an import's undo
 * or an account delete touches, for the confirmation that asks first.
 */
export async function journalImpact(deps: Pick<Deps, "db">, user: AuthUser, query: JournalImpactQuery) {
  // From the account's journals (few) to their trades' fills, never from the fills to every trade.
  const account = query.accountId
    ? sql`${query.accountId}::uuid`
    : query.fillId
      ? sql`(select account_id from fills where id = ${query.fillId}::uuid)`
      : sql`(select account_id from csv_imports where id = ${query.importId!}::uuid)`;
  const touched = query.accountId
    ? sql`select j.id from trade_journals j where j.account_id = ${account}`
    : sql`select distinct j.id from trade_journals j
        join position_fills pf on pf.position_id = j.position_id
        join fills f on f.id = pf.fill_id
        where j.account_id = ${account} and ${query.fillId ? sql`f.id = ${query.fillId}::uuid` : sql`f.import_id = ${query.importId!}::uuid`}`;
  const [owned] = rowsOf<{ ok: boolean }>(
    await deps.db.execute(sql`select exists (select 1 from accounts where id = ${account} and user_id = ${user.id}::uuid) as ok`),
  );
  if (!owned?.ok) throw new AppError("NOT_FOUND", query.accountId ? "No such account." : query.fillId ? "No such fill." : "No such import.");
  const [row] = rowsOf<{ journaled: number; screenshots: number }>(
    await deps.db.execute(sql`with t as (${touched})
      select (select count(*) from t)::int as journaled,
        (select count(*) from trade_images i where i.journal_id in (select id from t))::int as screenshots`),
  );
  return { journaledTrades: Number(row!.journaled), screenshots: Number(row!.screenshots) };
}
