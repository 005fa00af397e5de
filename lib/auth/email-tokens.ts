// Single-use tokens for email verification and password reset. The mailed token is random; only its
// SHA-256 is stored, and using it is one conditional statement, so a token works once even when two
// requests race.
import { sha256Hex } from "../crypto/hash.ts";
import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { emailTokens } from "../db/schema.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { failureKeySql } from "./lockout.ts";
import { hashPassword } from "./password.ts";
import type { AuthUser } from "./session.ts";

export const VERIFY_EMAIL_TTL_MS = 24 * 3600 * 1000;
export const RESET_PASSWORD_TTL_MS = 3600 * 1000;

type Purpose = "verify_email" | "reset_password";

/** A fresh token for the user; earlier unused tokens of the same purpose stop working. */
export async function issueEmailToken(deps: Pick<Deps, "db" | "now">, userId: string, purpose: Purpose): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const ttl = purpose === "verify_email" ? VERIFY_EMAIL_TTL_MS : RESET_PASSWORD_TTL_MS;
  await deps.db
    .delete(emailTokens)
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
  await deps.db.insert(emailTokens).values({
    tokenHash: sha256Hex(token),
    userId,
    purpose,
    createdAt: deps.now(),
    expiresAt: new Date(deps.now().getTime() + ttl),
  });
  return token;
}

const INVALID_TOKEN = () =>
  new AppError("VALIDATION_ERROR", "This link is invalid, expired or already used.", {
    fields: [{ path: "token", message: "is invalid, expired or already used" }],
  });

/** Marks the address verified. */
export async function consumeVerifyEmailToken(deps: Pick<Deps, "db" | "now">, token: string): Promise<AuthUser> {
  const rows = rowsOf<{ id: string; email: string; email_verified: boolean; is_admin: boolean; plan: "free" | "pro" }>(
    await deps.db.execute(sql`
      with used as (
        update email_tokens set used_at = ${deps.now()}
        where token_hash = ${sha256Hex(token)} and purpose = 'verify_email' and used_at is null and expires_at > ${deps.now()}
        returning user_id
      )
      update users set email_verified = true, updated_at = now()
      from used where users.id = used.user_id
      returning users.id, users.email, users.email_verified, users.is_admin, users.plan`),
  );
  const row = rows[0];
  if (!row) throw INVALID_TOKEN();
  return { id: row.id, email: row.email, emailVerified: row.email_verified, isAdmin: row.is_admin, plan: row.plan };
}

/**
 * Sets a new password, ends every session of the user, revokes every access token and forgets the account's
 * failed sign-ins (the owner proved the mailbox: the lockout must not hold them out), all in one statement.
 */
export async function consumeResetPasswordToken(deps: Pick<Deps, "db" | "now">, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const rows = rowsOf<{ id: string }>(
    await deps.db.execute(sql`
      with used as (
        update email_tokens set used_at = ${deps.now()}
        where token_hash = ${sha256Hex(token)} and purpose = 'reset_password' and used_at is null and expires_at > ${deps.now()}
        returning user_id
      ),
      ended as (delete from sessions using used where sessions.user_id = used.user_id returning sessions.id),
      tokens as (delete from access_tokens t using used where t.user_id = used.user_id),
      -- The user's other unused reset links die with this one (a password set is a password set).
      revoked as (
        delete from email_tokens e using used
        where e.user_id = used.user_id and e.purpose = 'reset_password' and e.used_at is null and e.token_hash <> ${sha256Hex(token)}
      ),
      changed as (
        update users set password_hash = ${passwordHash}, updated_at = now()
        from used where users.id = used.user_id returning users.id, users.email
      ),
      unlocked as (delete from sign_in_failures f using changed where f.key = ${failureKeySql(sql.raw("changed.email"))})
      select id, (select count(*) from ended) as ended from changed`),
  );
  if (!rows[0]) throw INVALID_TOKEN();
}

/** The purge job: tokens past expiry or used more than a day ago. */
export async function purgeEmailTokens(deps: Pick<Deps, "db" | "now">): Promise<number> {
  const now = deps.now();
  const removed = await deps.db
    .delete(emailTokens)
    .where(sql`${emailTokens.expiresAt} < ${now} or ${emailTokens.usedAt} < ${new Date(now.getTime() - 24 * 3600 * 1000)}`)
    .returning({ tokenHash: emailTokens.tokenHash });
  return removed.length;
}
