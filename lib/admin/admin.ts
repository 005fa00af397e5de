// The admin console's domain (DESIGN.md section 9, "Admin"): users, roles, plans, credits, sessions,
// instance statistics and the audit log. Every action is one SQL function (migrations/functions/admin) that
// writes its audit entry in the same statement, so an action is never without its entry, nor an entry
// without its action.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { decodeCursor, encodeCursor } from "../db/cursor.ts";
import { pgError, RAISED_EXCEPTION } from "../db/errors.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type { AdminUserPatch, AuditQuery, CreditGrant, StatsQuery, UserListQuery } from "./schema.ts";

const NO_USER = () => new AppError("NOT_FOUND", "No such user.");

type UserRow = {
  id: string;
  email: string;
  is_admin: boolean;
  plan: "free" | "pro";
  email_verified: boolean;
  created_at: string;
  last_seen_at: string | null;
  accounts: number;
  fills: number;
  trades: number;
  at: string;
};

const userColumns = sql.raw(`u.id::text as id, u.email, u.is_admin, u.plan, u.email_verified,
  ${isoUtc("u.created_at")} as created_at, ${isoUtc("u.last_seen_at")} as last_seen_at,
  (select count(*)::int from accounts a where a.user_id = u.id) as accounts,
  (select count(*)::int from fills f join accounts a on a.id = f.account_id where a.user_id = u.id) as fills,
  (select count(*)::int from positions p join accounts a on a.id = p.account_id where a.user_id = u.id) as trades,
  u.created_at::text as at`);

function toUser(r: UserRow) {
  return {
    id: r.id,
    email: r.email,
    isAdmin: r.is_admin,
    plan: r.plan,
    emailVerified: r.email_verified,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    accounts: r.accounts,
    fills: r.fills,
    trades: r.trades,
  };
}
export type AdminUser = ReturnType<typeof toUser>;

function likePrefix(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
}

/** GET /api/admin/users: newest first, `limit` at a time; `q` matches the start of the email address. */
export async function listUsers(deps: Pick<Deps, "db">, query: UserListQuery) {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = rowsOf<UserRow>(
    await deps.db.execute(sql`select ${userColumns} from users u
      where true
        ${query.q ? sql`and u.email like ${likePrefix(query.q.trim().toLowerCase())}` : sql``}
        ${after ? sql`and (u.created_at, u.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
      order by u.created_at desc, u.id desc
      limit ${query.limit + 1}`),
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { users: page.map(toUser), nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null };
}

/** GET /api/admin/users/:id: the list's fields plus trades, live sessions and the wallet. */
export async function getUser(deps: Pick<Deps, "db">, id: string) {
  const [row] = rowsOf<UserRow & { sessions: number; balance: string | null; reserved: string | null }>(
    await deps.db.execute(sql`select ${userColumns},
        (select count(*)::int from sessions s where s.user_id = u.id and s.expires_at > now() and s.absolute_expires_at > now()) as sessions,
        w.balance::text as balance, w.reserved::text as reserved
      from users u left join wallets w on w.user_id = u.id
      where u.id = ${id}`),
  );
  if (!row) throw NO_USER();
  const balance = Number(row.balance ?? 0);
  const reserved = Number(row.reserved ?? 0);
  return { user: { ...toUser(row), sessions: row.sessions, wallet: { balance, reserved, available: balance - reserved } } };
}

/** Maps the admin functions' raised exceptions to the API's errors. */
function adminError(err: unknown): never {
  const pg = pgError(err);
  if (pg?.code === RAISED_EXCEPTION) {
    if (pg.message === "LAST_ADMIN") throw new AppError("LAST_ADMIN", "This would leave the instance without an administrator. Promote someone else first.");
    if (pg.message === "FORBIDDEN") throw new AppError("FORBIDDEN", "Administrators only.");
    if (pg.message === "INSUFFICIENT_CREDITS")
      throw new AppError("CONFLICT", `The user has only ${pg.detail ?? "0"} credits available (credits held for turns in progress cannot be taken).`, {
        fields: [{ path: "amount", message: "is more than the user has available" }],
      });
  }
  throw err;
}

/** PATCH /api/admin/users/:id: promote or demote, and/or override the plan. */
export async function updateUser(deps: Pick<Deps, "db">, actor: AuthUser, id: string, patch: AdminUserPatch) {
  const rows = await deps.db
    .execute(sql`select 1 from admin_update_user(${actor.id}, ${id}, ${patch.isAdmin ?? null}::boolean, ${patch.plan ?? null}::text, ${patch.reason ?? null}::text)`)
    .catch(adminError);
  if (!rowsOf(rows).length) throw NO_USER();
  return getUser(deps, id);
}

/** POST /api/admin/users/:id/credits: a signed grant through the wallet's movements, never below zero. */
export async function grantCredits(deps: Pick<Deps, "db">, actor: AuthUser, id: string, grant: CreditGrant) {
  const rows = rowsOf<{ id: string; amount: string; balance_after: string; created_at: string }>(
    await deps.db
      .execute(sql`select m.id::text as id, m.amount::text as amount, m.balance_after::text as balance_after, ${sql.raw(isoUtc("m.created_at"))} as created_at
        from admin_grant_credits(${actor.id}, ${id}, ${grant.amount}::bigint, ${grant.reason}) m`)
      .catch(adminError),
  );
  const [m] = rows;
  if (!m) throw NO_USER();
  return { movement: { id: m.id, kind: "admin_grant" as const, amount: Number(m.amount), balanceAfter: Number(m.balance_after), reference: grant.reason, createdAt: m.created_at } };
}

/** DELETE /api/admin/users/:id/sessions: ends every session of the user. */
export async function endSessions(deps: Pick<Deps, "db">, actor: AuthUser, id: string, reason: string | undefined): Promise<number> {
  const [row] = rowsOf<{ ended: number | null }>(
    await deps.db.execute(sql`select admin_end_sessions(${actor.id}, ${id}, ${reason ?? null}::text) as ended`).catch(adminError),
  );
  if (row?.ended === null || row?.ended === undefined) throw NO_USER();
  return row.ended;
}

/**
 * GET /api/admin/stats: the instance now (users, admins, active in the last 7 and 30 days, accounts, fills,
 * committed imports) and the advisor in the period [from, to) (default: the last 30 days): turns answered
 * and credits charged.
 */
export async function instanceStats(deps: Pick<Deps, "db" | "now" | "config">, query: StatsQuery) {
  const to = query.to ? new Date(query.to) : deps.now();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * 86_400_000);
  if (from >= to) throw new AppError("VALIDATION_ERROR", "The period is empty.", { fields: [{ path: "from", message: "must be before to" }] });
  const [r] = rowsOf<Record<string, number | string>>(
    await deps.db.execute(sql`select
        (select count(*)::int from users) as users,
        (select count(*)::int from users where is_admin) as admins,
        (select count(*)::int from users where plan = 'pro') as pro,
        (select count(*)::int from users where last_seen_at > now() - interval '7 days') as active7,
        (select count(*)::int from users where last_seen_at > now() - interval '30 days') as active30,
        (select count(*)::int from accounts) as accounts,
        (select count(*)::int from fills) as fills,
        (select count(*)::int from csv_imports where status = 'committed') as imports,
        (select count(*)::int from advisor_messages where role = 'assistant' and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz) as turns,
        (select coalesce(-sum(amount), 0)::bigint::text from wallet_movements where kind = 'charge' and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz) as credits,
        (select count(*)::int from digest_sends where status = 'sent' and claimed_at >= ${from.toISOString()}::timestamptz and claimed_at < ${to.toISOString()}::timestamptz) as digests_sent,
        (select count(*)::int from digest_sends where status = 'failed' and claimed_at >= ${from.toISOString()}::timestamptz and claimed_at < ${to.toISOString()}::timestamptz) as digests_failed,
        (select count(*)::int from digest_sends where status in ('retry', 'sending') and claimed_at >= ${from.toISOString()}::timestamptz and claimed_at < ${to.toISOString()}::timestamptz) as digests_retrying,
        (select error from digest_sends where status in ('failed', 'retry') and error is not null order by claimed_at desc limit 1) as digests_error`),
  );
  return {
    users: { total: Number(r!.users), admins: Number(r!.admins), pro: Number(r!.pro), active7Days: Number(r!.active7), active30Days: Number(r!.active30) },
    accounts: Number(r!.accounts),
    fills: Number(r!.fills),
    imports: Number(r!.imports),
    advisor: { from: from.toISOString(), to: to.toISOString(), turns: Number(r!.turns), creditsCharged: Number(r!.credits) },
    digests: {
      emailConfigured: deps.config.features.email,
      sent: Number(r!.digests_sent),
      failed: Number(r!.digests_failed),
      retrying: Number(r!.digests_retrying),
      lastError: (r!.digests_error as string | null) ?? null,
    },
  };
}

/** GET /api/admin/audit: newest first. */
export async function listAudit(deps: Pick<Deps, "db">, query: AuditQuery) {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = rowsOf<{
    id: string;
    actor_id: string | null;
    actor_email: string;
    action: string;
    target_user_id: string | null;
    target_email: string;
    reason: string | null;
    details: Record<string, unknown> | string;
    created: string;
    at: string;
  }>(
    await deps.db.execute(sql`select id::text as id, actor_id::text as actor_id, actor_email, action, target_user_id::text as target_user_id,
        target_email, reason, details::text as details, ${sql.raw(isoUtc("at"))} as created, at::text as at
      from admin_audit
      where true ${query.targetUserId ? sql`and target_user_id = ${query.targetUserId}` : sql``}
        ${after ? sql`and (at, id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
      order by at desc, id desc
      limit ${query.limit + 1}`),
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map((r) => ({
      id: r.id,
      actorId: r.actor_id,
      actorEmail: r.actor_email,
      action: r.action,
      targetUserId: r.target_user_id,
      targetEmail: r.target_email,
      reason: r.reason,
      details: typeof r.details === "string" ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
      at: r.created,
    })),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
  };
}
