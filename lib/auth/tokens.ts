// Personal access tokens (DESIGN.md section 10; docs/auth.md "Personal access tokens"): a script or a trading
// platform sends `Authorization: Bearer <token>` instead of a session cookie. A token is `tj_` and 32 random
// bytes (base64url), shown once when made; only its SHA-256 is stored, and a request is checked by that hash in
// one statement that also stamps `lastUsedAt` (at most once a minute). Each token carries scopes (read, import,
// fills:write); which scope a route needs is declared with the route (lib/http/route-docs.ts, tokenScope), and
// auth, token, key, billing and admin routes need one no token has.
//
// A stolen session must not turn into lasting access: making a token asks for the password (and a code when the
// authenticator is on), mails the owner, and lives at most TOKEN_MAX_DAYS; a password change, a completed reset
// and "sign out everywhere" revoke every token (session.ts endUserSessions, email-tokens.ts).
import { sha256Hex } from "../crypto/hash.ts";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import { arrayLiteral, isoUtc, preparedStatement, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { newTokenEmail } from "../email/messages.ts";
import { AppError } from "../errors.ts";
import type { AuthUser } from "./session.ts";
import { confirmOwner } from "./two-factor.ts";

export const TOKEN_SCOPES = ["read", "import", "fills:write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const MAX_TOKENS_PER_USER = 20;
/** The longest a token lives, and how long one lives when no expiry is asked for. */
export const TOKEN_MAX_DAYS = 365;
export const TOKEN_DEFAULT_DAYS = 90;
const TOKEN_PREFIX = "tj_";
const TOUCH_INTERVAL_SECONDS = 60;

export const NewTokenSchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1, "is required"), z.maxLength(80, "must be at most 80 characters")),
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { error: `must be one of ${TOKEN_SCOPES.join(", ")}` }))
    .check(z.minLength(1, "must name at least one scope"), z.maxLength(TOKEN_SCOPES.length, "names a scope twice")),
  expiresInDays: z.optional(
    z.int("must be a whole number of days").check(z.minimum(1, "must be at least 1"), z.maximum(TOKEN_MAX_DAYS, `must be at most ${TOKEN_MAX_DAYS} (a token lives a year at most)`)),
  ),
  /** The account's password again, and a code when the authenticator is on (two-factor.ts confirmOwner). */
  password: z.string({ error: "is required" }).check(z.minLength(1, "is required"), z.maxLength(1024, "is too long")),
  code: z.optional(z.string().check(z.trim(), z.minLength(1, "is required"), z.maxLength(32, "is too long"))),
});
export type NewToken = z.infer<typeof NewTokenSchema>;

export const TokenIdParamSchema = z.object({ id: z.uuid("must be a uuid") });

/** What the token list shows: never the token. */
export type TokenInfo = { id: string; name: string; scopes: TokenScope[]; createdAt: string; expiresAt: string | null; lastUsedAt: string | null };

/** A request's token: its id and scopes, and its user. */
export type TokenAuth = { id: string; scopes: readonly TokenScope[] };


const tokenColumns = sql.raw(`id::text, name, to_json(scopes) as scopes, ${isoUtc("created_at")} as "createdAt", ${isoUtc("expires_at")} as "expiresAt",
  ${isoUtc("last_used_at")} as "lastUsedAt"`);

/**
 * Makes a token after the owner's password (and code) is checked, and mails the owner (when the instance sends
 * email); the answer holds it this once. 400 naming `password` or `code`; 409 CONFLICT at MAX_TOKENS_PER_USER.
 */
export async function createToken(
  deps: Pick<Deps, "db" | "now" | "config" | "mailer" | "defer">,
  user: Pick<AuthUser, "id" | "email">,
  input: NewToken,
): Promise<Omit<TokenInfo, "lastUsedAt" | "expiresAt"> & { expiresAt: string; token: string }> {
  await confirmOwner(deps, user.id, input.password, input.code);
  const userId = user.id;
  const scopes = [...new Set(input.scopes)];
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(deps.now().getTime() + (input.expiresInDays ?? TOKEN_DEFAULT_DAYS) * 86_400_000).toISOString();
  // The cap is checked under a lock on the user's row (access_token_add), so racing requests cannot pass it.
  const [row] = rowsOf<TokenInfo>(
    await deps.db.execute(sql`select ${tokenColumns} from access_token_add(${userId}::uuid, ${input.name}, ${sha256Hex(token)},
      ${arrayLiteral(scopes)}::text[], ${deps.now().toISOString()}::timestamptz, ${expiresAt}::timestamptz, ${MAX_TOKENS_PER_USER})`),
  );
  if (!row) throw new AppError("CONFLICT", `You have ${MAX_TOKENS_PER_USER} access tokens: delete one you no longer use first.`);
  const mailer = deps.mailer;
  if (mailer) deps.defer(() => mailer.send({ to: user.email, ...newTokenEmail(deps.config, { name: row.name, scopes: row.scopes, expiresAt }, deps.now()) }));
  const { lastUsedAt: _never, ...made } = row;
  return { ...made, expiresAt, token };
}

export async function listTokens(deps: Pick<Deps, "db">, userId: string): Promise<TokenInfo[]> {
  return rowsOf<TokenInfo>(await deps.db.execute(sql`select ${tokenColumns} from access_tokens where user_id = ${userId}::uuid order by created_at desc, id`));
}

/** Revokes (deletes) one of the user's tokens; false when they have no such token. */
export async function deleteToken(deps: Pick<Deps, "db">, userId: string, id: string): Promise<boolean> {
  return rowsOf(await deps.db.execute(sql`delete from access_tokens where id = ${id}::uuid and user_id = ${userId}::uuid returning 1`)).length > 0;
}

type TokenRow = { token_id: string; scopes: TokenScope[]; id: string; email: string; email_verified: boolean; is_admin: boolean; plan: AuthUser["plan"] };

const tokenCheck = preparedStatement<TokenRow>(
  "token_check",
  sql`with hit as (
      select t.id as token_id, t.scopes, t.last_used_at, u.id, u.email, u.email_verified, u.is_admin, u.plan
      from access_tokens t join users u on u.id = t.user_id
      where t.token_hash = ${sql.placeholder("hash")} and (t.expires_at is null or t.expires_at > ${sql.placeholder("now")}::timestamptz)
    ), touched as (
      update access_tokens set last_used_at = ${sql.placeholder("now")}::timestamptz
      where id = (select token_id from hit)
        and (last_used_at is null or last_used_at <= ${sql.placeholder("touchBefore")}::timestamptz)
    )
    select token_id::text, to_json(scopes) as scopes, id::text, email, email_verified, is_admin, plan from hit`,
);

/** A Bearer token's user and scopes, or null when it is unknown, revoked or expired. One round trip. */
export async function checkToken(deps: Pick<Deps, "db" | "now">, token: string): Promise<{ user: AuthUser; token: TokenAuth } | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  const now = deps.now();
  const [row] = await tokenCheck(deps.db, {
    hash: sha256Hex(token),
    now: now.toISOString(),
    touchBefore: new Date(now.getTime() - TOUCH_INTERVAL_SECONDS * 1000).toISOString(),
  });
  if (!row) return null;
  return {
    user: { id: row.id, email: row.email, emailVerified: row.email_verified, isAdmin: row.is_admin, plan: row.plan },
    token: { id: row.token_id, scopes: row.scopes },
  };
}
