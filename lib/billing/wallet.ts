// Credits: the wallet (balance, reserved, available), its history, and holds for advisor turns. Every
// change is one SQL function call (migrations/functions/billing), so it is atomic on every transport, the
// serverless driver's HTTP included, and concurrent holds never over-commit a wallet.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import { decodeCursor, encodeCursor } from "../db/cursor.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";

export type Wallet = { balance: number; reserved: number; available: number };

export async function getWallet(deps: Pick<Deps, "db">, userId: string): Promise<Wallet> {
  const [row] = rowsOf<{ balance: string; reserved: string }>(
    await deps.db.execute(sql`select balance::text, reserved::text from wallets where user_id = ${userId}`),
  );
  const balance = Number(row?.balance ?? 0);
  const reserved = Number(row?.reserved ?? 0);
  return { balance, reserved, available: balance - reserved };
}

export type Movement = {
  id: string;
  kind: "purchase" | "hold" | "charge" | "release" | "refund" | "dispute" | "admin_grant";
  amount: number;
  reservedChange: number;
  balanceAfter: number;
  reservedAfter: number;
  reference: string | null;
  note: string | null;
  createdAt: string;
};

/** GET /api/billing/transactions: the wallet's movements, newest first, `limit` at a time. */
export async function listMovements(deps: Pick<Deps, "db">, user: AuthUser, query: { cursor?: string | undefined; limit: number }) {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = rowsOf<{
    id: string;
    kind: Movement["kind"];
    amount: string;
    reserved_change: string;
    balance_after: string;
    reserved_after: string;
    reference: string | null;
    note: string | null;
    created_at: string;
    at: string;
  }>(
    await deps.db.execute(sql`select id::text, kind, amount::text, reserved_change::text, balance_after::text, reserved_after::text,
        reference, note, ${sql.raw(isoUtc("created_at"))} as created_at, created_at::text as at
      from wallet_movements
      where user_id = ${user.id} ${after ? sql`and (created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
      order by created_at desc, id desc
      limit ${query.limit + 1}`),
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    transactions: page.map(
      (r): Movement => ({
        id: r.id,
        kind: r.kind,
        amount: Number(r.amount),
        reservedChange: Number(r.reserved_change),
        balanceAfter: Number(r.balance_after),
        reservedAfter: Number(r.reserved_after),
        reference: r.reference,
        note: r.note,
        createdAt: r.created_at,
      }),
    ),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
  };
}

export type Hold = { id: string; status: "held" | "settled" | "released" | "expired"; amount: number };

/**
 * Sets credits aside for an advisor turn (DESIGN.md section 9, "Metering"): 402 INSUFFICIENT_CREDITS when
 * fewer than MIN_RESERVATION_CREDITS are available, else least(wanted, available) held until
 * RESERVATION_TTL_MS from now. Idempotent by hold id.
 */
export async function placeHold(deps: Pick<Deps, "db" | "config" | "now">, userId: string, holdId: string, wanted: number): Promise<Hold> {
  const expires = new Date(deps.now().getTime() + deps.config.RESERVATION_TTL_MS);
  const [row] = rowsOf<{ status: Hold["status"] | "insufficient"; amount: string; available: string }>(
    await deps.db.execute(sql`select status, amount::text, available::text
      from credit_hold_place(${holdId}::uuid, ${userId}::uuid, ${Math.max(0, Math.floor(wanted))}::bigint,
                             ${deps.config.MIN_RESERVATION_CREDITS}::bigint, ${expires.toISOString()}::timestamptz)`),
  );
  if (!row || row.status === "insufficient") {
    throw new AppError(
      "INSUFFICIENT_CREDITS",
      `Not enough credits: ${row?.available ?? 0} available, at least ${deps.config.MIN_RESERVATION_CREDITS} needed. Buy a credit pack to continue.`,
    );
  }
  return { id: holdId, status: row.status, amount: Number(row.amount) };
}

export type HoldEnd = { status: Hold["status"]; charged: number; released: number };

async function endHold(deps: Pick<Deps, "db">, holdId: string, charge: number, status: "settled" | "released"): Promise<HoldEnd | null> {
  const [row] = rowsOf<{ status: Hold["status"]; charged: string; released: string }>(
    await deps.db.execute(sql`select status, charged::text, released::text
      from credit_hold_end(${holdId}::uuid, ${Math.max(0, Math.ceil(charge))}::bigint, ${status})`),
  );
  return row ? { status: row.status, charged: Number(row.charged), released: Number(row.released) } : null;
}

/** Charges at most the held credits and releases the rest; a hold that already ended stays as it is. */
export function settleHold(deps: Pick<Deps, "db">, holdId: string, charge: number): Promise<HoldEnd | null> {
  return endHold(deps, holdId, charge, "settled");
}

export function releaseHold(deps: Pick<Deps, "db">, holdId: string): Promise<HoldEnd | null> {
  return endHold(deps, holdId, 0, "released");
}

/** Job: releases holds past their RESERVATION_TTL_MS (a turn whose process died); how many it ended. */
export async function releaseExpiredHolds(deps: Pick<Deps, "db" | "now">, limit = 1000): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await deps.db.execute(sql`select credit_holds_expire(${deps.now().toISOString()}::timestamptz, ${limit}) as n`),
  );
  return Number(row?.n ?? 0);
}
