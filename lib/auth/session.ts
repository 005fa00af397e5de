// Sessions in the style of lucia: a random public id plus a random secret; only the secret's SHA-256 is
// stored and compared (see SESSION_CTE); sliding idle expiry under a fixed absolute expiry; `null` on any
// failure. The HTTP layer signs the token into a cookie and reads the claim (readSessionToken); the check
// runs on its own (checkSession) or inside a domain statement (SESSION_CTE + confirmSessionOwner), one
// round trip either way.
import { sha256Hex } from "../crypto/hash.ts";
import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { isoUtc, preparedStatement, rowsOf } from "../db/rows.ts";
import { sessions, users } from "../db/schema.ts";
import type { Deps } from "../deps.ts";

/** A session ends after 7 days without use... */
export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
/** ...and 30 days after sign-in whatever happens. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600 * 1000;
/** The idle expiry is pushed forward at most this often, so a busy client does not write on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;
/** Concurrent sessions per user; the sixth sign-in ends the oldest. */
export const MAX_SESSIONS_PER_USER = 5;

export type AuthUser = { id: string; email: string; emailVerified: boolean; isAdmin: boolean; plan: "free" | "pro" };
/** The user as every response shows it. */
export function publicUser(user: AuthUser) {
  return { id: user.id, email: user.email, emailVerified: user.emailVerified, isAdmin: user.isAdmin };
}

export type SessionInfo = { id: string; userId: string; createdAt: Date; expiresAt: Date; absoluteExpiresAt: Date };


export const userColumns = {
  id: users.id,
  email: users.email,
  emailVerified: users.emailVerified,
  isAdmin: users.isAdmin,
  plan: users.plan,
};

/** Starts a session and ends the oldest ones beyond the per-user cap. Returns the token for the cookie. */
export async function createSession(
  deps: Pick<Deps, "db" | "now">,
  userId: string,
  userAgent?: string,
): Promise<{ token: string; session: SessionInfo }> {
  const id = randomBytes(20).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const now = deps.now();
  const absoluteExpiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
  await deps.db.insert(sessions).values({
    id,
    secretHash: sha256Hex(secret),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    absoluteExpiresAt,
    userAgent: userAgent?.slice(0, 200) ?? null,
  });
  // A separate statement after the insert is what makes racing sign-ins safe: every insert commits
  // before its own trim starts, so the last trim to run sees every new session and keeps the newest five.
  // Only live sessions are held: an expired one never takes the place of a live one, and goes too.
  // The same statement stamps the user's last sign-in as "last seen" (the admin view).
  const at = now.toISOString();
  await deps.db.execute(sql`
    with seen as (update users set last_seen_at = ${at}::timestamptz where id = ${userId})
    delete from sessions where user_id = ${userId} and id not in (
      select id from sessions where user_id = ${userId} and expires_at > ${at}::timestamptz and absolute_expires_at > ${at}::timestamptz
      order by created_at desc, id desc limit ${MAX_SESSIONS_PER_USER})`);
  return { token: `${id}.${secret}`, session: { id, userId, createdAt: now, expiresAt, absoluteExpiresAt } };
}

/** What a session cookie claims, checked for shape only: a session id and the SHA-256 of its secret. */
export type SessionClaim = { id: string; secretHash: string };

/** The claim of a token, or null when the token is malformed. Costs no database work. */
export function readSessionToken(token: string): SessionClaim | null {
  const [id, secret, extra] = token.split(".");
  if (!id || !secret || extra !== undefined || !/^[0-9a-f]{40}$/.test(id)) return null;
  return { id, secretHash: sha256Hex(secret) };
}

/**
 * The session check as a CTE named `auth`: one row when the claim names a session that is live at `now`, no
 * row otherwise. A domain statement puts it in front of its own query to check the session in the same round
 * trip: `with ${SESSION_CTE} select ${SESSION_OWNER_COLUMNS}, ... from auth left join lateral (...)`, scoped to
 * `auth.user_id`, runs it with `sessionParams(claim, now)` among its parameters (it is a preparedStatement),
 * and hands the owner columns of its first row to confirmSessionOwner.
 *
 * Only the secret's SHA-256 is compared (as stored), never the secret: the timing of an equality test on the
 * hash of an attacker-chosen secret tells nothing about the stored one.
 */
export const SESSION_CTE = sql`auth as (
    select s.user_id, s.created_at, s.expires_at, s.absolute_expires_at,
      s.last_seen_at <= ${sql.placeholder("sessionTouchBefore")}::timestamptz as touch_due
    from sessions s
    where s.id = ${sql.placeholder("sessionId")} and s.secret_hash = ${sql.placeholder("sessionSecretHash")}
      and s.expires_at > ${sql.placeholder("sessionNow")}::timestamptz
      and s.absolute_expires_at > ${sql.placeholder("sessionNow")}::timestamptz)`;

/** The values of SESSION_CTE's placeholders. */
export function sessionParams(claim: SessionClaim, now: Date) {
  return {
    sessionId: claim.id,
    sessionSecretHash: claim.secretHash,
    sessionNow: now.toISOString(),
    sessionTouchBefore: new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS).toISOString(),
  };
}

/** What a domain statement built on SESSION_CTE selects for confirmSessionOwner: few columns, as every row repeats them. */
export const SESSION_OWNER_COLUMNS = sql.raw("auth.user_id::text as session_user_id, auth.touch_due as session_touch_due");
export type SessionOwnerRow = { session_user_id: string; session_touch_due: boolean };

/**
 * Finishes a session check made by a statement built on SESSION_CTE (`row` holds its SESSION_OWNER_COLUMNS,
 * undefined when it found no live session): the id of the session's user, or null for no session. An expired
 * session is deleted on sight; a live one has its idle expiry pushed forward when the last push is an hour old.
 */
export async function confirmSessionOwner(
  deps: Pick<Deps, "db">,
  claim: SessionClaim,
  row: SessionOwnerRow | undefined,
  now: Date,
): Promise<string | null> {
  if (!row) {
    await deleteIfExpired(deps, claim, now);
    return null;
  }
  if (row.session_touch_due) await touchSession(deps, claim, now);
  return row.session_user_id;
}

async function deleteIfExpired(deps: Pick<Deps, "db">, claim: SessionClaim, now: Date): Promise<void> {
  const at = now.toISOString();
  await deps.db.execute(sql`
    delete from sessions where id = ${claim.id} and secret_hash = ${claim.secretHash}
      and (expires_at <= ${at}::timestamptz or absolute_expires_at <= ${at}::timestamptz)`);
}

/** Pushes the idle expiry forward from `now`, never past the absolute expiry. */
async function touchSession(deps: Pick<Deps, "db">, claim: SessionClaim, now: Date): Promise<void> {
  const at = now.toISOString();
  await deps.db.execute(sql`
    with touched as (
      update sessions set last_seen_at = ${at}::timestamptz,
        expires_at = least(${at}::timestamptz + ${`${SESSION_IDLE_MS} milliseconds`}::interval, absolute_expires_at)
      where id = ${claim.id}
      returning user_id)
    update users set last_seen_at = ${at}::timestamptz where id = (select user_id from touched)`);
}

export type ValidSession = { user: AuthUser; session: SessionInfo };

type SessionRow = SessionOwnerRow & {
  email: string;
  email_verified: boolean;
  is_admin: boolean;
  plan: AuthUser["plan"];
  created_at: string;
  expires_at: string;
  absolute_expires_at: string;
};

const sessionCheck = preparedStatement<SessionRow>(
  "session_check",
  sql`with ${SESSION_CTE}
    select ${SESSION_OWNER_COLUMNS}, u.email, u.email_verified, u.is_admin, u.plan,
      ${sql.raw(`${isoUtc("auth.created_at")} as created_at, ${isoUtc("auth.expires_at")} as expires_at,
      ${isoUtc("auth.absolute_expires_at")} as absolute_expires_at`)}
    from auth join users u on u.id = auth.user_id`,
);

/** The user and session of a claim, or null when it is unknown, ended or expired. One round trip. */
export async function checkSession(deps: Pick<Deps, "db" | "now">, claim: SessionClaim): Promise<ValidSession | null> {
  const now = deps.now();
  const [row] = await sessionCheck(deps.db, sessionParams(claim, now));
  const userId = await confirmSessionOwner(deps, claim, row, now);
  if (!row || !userId) return null;
  const absoluteExpiresAt = new Date(row.absolute_expires_at);
  const expiresAt = row.session_touch_due
    ? new Date(Math.min(now.getTime() + SESSION_IDLE_MS, absoluteExpiresAt.getTime()))
    : new Date(row.expires_at);
  return {
    user: { id: userId, email: row.email, emailVerified: row.email_verified, isAdmin: row.is_admin, plan: row.plan },
    session: { id: claim.id, userId, createdAt: new Date(row.created_at), expiresAt, absoluteExpiresAt },
  };
}

export async function endSession(deps: Pick<Deps, "db">, sessionId: string): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.id, sessionId));
}

/**
 * Ends the user's sessions (all, or all but `keepSessionId`), revokes every access token and deletes their unused
 * password-reset links in the same statement: whoever ends their sessions (or changes their password) suspects
 * someone else, and a token made from a stolen session, or a reset link mailed earlier, would let that someone
 * back in. Returns how many sessions ended.
 */
export async function endUserSessions(deps: Pick<Deps, "db">, userId: string, keepSessionId?: string): Promise<number> {
  const [row] = rowsOf<{ ended: number }>(
    await deps.db.execute(sql`with revoked as (
        delete from email_tokens where user_id = ${userId}::uuid and purpose = 'reset_password' and used_at is null
      ), tokens as (
        delete from access_tokens where user_id = ${userId}::uuid
      ), ended as (
        delete from sessions where user_id = ${userId}::uuid ${keepSessionId ? sql`and id <> ${keepSessionId}` : sql``} returning id
      )
      select count(*)::int as ended from ended`),
  );
  return Number(row!.ended);
}

/** Ends one of the user's own sessions; false when no such session belongs to them. */
export async function endOwnSession(deps: Pick<Deps, "db">, userId: string, sessionId: string): Promise<boolean> {
  const ended = await deps.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

export async function listSessions(deps: Pick<Deps, "db" | "now">, userId: string, currentId: string) {
  const rows = await deps.db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} > ${deps.now()}`))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    userAgent: r.userAgent,
    current: r.id === currentId,
  }));
}

