// Sessions in the style of lucia: a random public id plus a random secret; only the secret's SHA-256 is
// stored and compared in constant time; sliding idle expiry under a fixed absolute expiry; `null` on any
// failure. The HTTP layer signs the token into a cookie and never looks inside it.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, ne, notInArray, sql } from "drizzle-orm";
import { sessions, users } from "../db/schema.ts";
import type { Db } from "../db/client.ts";
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
export type SessionInfo = { id: string; userId: string; createdAt: Date; expiresAt: Date; absoluteExpiresAt: Date };

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

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
    secretHash: sha256(secret),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    absoluteExpiresAt,
    userAgent: userAgent?.slice(0, 200) ?? null,
  });
  // A separate statement after the insert is what makes racing sign-ins safe: every insert commits
  // before its own trim starts, so the last trim to run sees every new session and keeps the newest five.
  const newest = deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(MAX_SESSIONS_PER_USER);
  await deps.db.delete(sessions).where(and(eq(sessions.userId, userId), notInArray(sessions.id, newest)));
  return { token: `${id}.${secret}`, session: { id, userId, createdAt: now, expiresAt, absoluteExpiresAt } };
}

function buildLookup(db: Db) {
  return db
    .select({ session: sessions, user: userColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare("session_lookup");
}
/** Every authed request runs this query: built once per database client (it is ~7x faster prepared). */
const lookups = new WeakMap<Db, ReturnType<typeof buildLookup>>();

/** The user and session of a token, or null when it is malformed, unknown, ended or expired. */
export async function validateSession(
  deps: Pick<Deps, "db" | "now">,
  token: string,
): Promise<{ user: AuthUser; session: SessionInfo } | null> {
  const [id, secret, extra] = token.split(".");
  if (!id || !secret || extra !== undefined || !/^[0-9a-f]{40}$/.test(id)) return null;
  let lookup = lookups.get(deps.db);
  if (!lookup) {
    lookup = buildLookup(deps.db);
    lookups.set(deps.db, lookup);
  }
  const [row] = await lookup.execute({ id });
  if (!row) return null;
  const given = Buffer.from(sha256(secret), "hex");
  const stored = Buffer.from(row.session.secretHash, "hex");
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  const now = deps.now();
  if (row.session.expiresAt <= now || row.session.absoluteExpiresAt <= now) {
    await deps.db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  let expiresAt = row.session.expiresAt;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
    expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, row.session.absoluteExpiresAt.getTime()));
    await deps.db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
  }
  const { userId, createdAt, absoluteExpiresAt } = row.session;
  return { user: row.user, session: { id, userId, createdAt, expiresAt, absoluteExpiresAt } };
}

export async function endSession(deps: Pick<Deps, "db">, sessionId: string): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, or every one but `keepSessionId`. Returns how many ended. */
export async function endUserSessions(deps: Pick<Deps, "db">, userId: string, keepSessionId?: string): Promise<number> {
  const ended = await deps.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), keepSessionId ? ne(sessions.id, keepSessionId) : sql`true`))
    .returning({ id: sessions.id });
  return ended.length;
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

