// The second factor (DESIGN.md section 10, "Second factor"; docs/auth.md): TOTP as RFC 6238 (SHA-1, 6 digits,
// 30-second steps, one step either side of the clock accepted) through the otpauth library, with 10 one-time
// backup codes. The secret is sealed like a stored key (additional data: the user and TOTP_AAD), so the key
// rotation and the start-up check cover it. A code is accepted once: the newest step accepted is kept, and a
// code of that step or an older one is refused, in the statement that accepts it (two requests with one code:
// one wins). Backup codes are stored as the SHA-256 of the user id and the code (50 random bits each) and
// spent in the statement that accepts them.
//
// With the second factor on, the right password gives a sign-in challenge instead of a session: a random token
// (only its SHA-256 stored) that lives CHALLENGE_TTL_MS and takes CHALLENGE_TRIES codes. A wrong code counts as
// a failed sign-in of the account (the lockout of lockout.ts), so a stolen password cannot buy unlimited guesses
// by asking for new challenges; it answers exactly like a wrong password.
import { sha256Hex } from "../crypto/hash.ts";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { additionalData, keyRing, open, seal, TOTP_AAD } from "../crypto/envelope.ts";
import { track } from "../analytics/index.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { PRODUCT } from "../email/messages.ts";
import { AppError } from "../errors.ts";
import { deviceHash } from "./devices.ts";
import { assertNotLocked, clearFailures, recordFailure } from "./lockout.ts";
import { verifyPassword } from "./password.ts";
import type { AuthUser } from "./session.ts";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const BACKUP_CODE_COUNT = 10;
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const CHALLENGE_TRIES = 5;

/** What a failed sign-in answers, at either step (users.ts uses the same words). */
export const INVALID_CREDENTIALS = "Invalid email or password.";

type Sealing = Pick<Deps, "db"> & { config: Parameters<typeof keyRing>[0] };


function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: PRODUCT, label, algorithm: "SHA1", digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** The time step a 6-digit code belongs to (this one or one either side of `now`), or null when it is wrong. */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32, "").validate({ token, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code of a secret at a time: for tests and for nothing else. */
export function totpCode(secretBase32: string, at: Date): string {
  return totpOf(secretBase32, "").generate({ timestamp: at.getTime() });
}

// 31 letters and digits a person does not confuse (no 0/o, 1/l/i); 10 of them: about 50 bits.
const BACKUP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function newBackupCode(): string {
  let code = "";
  for (const byte of randomBytes(20)) {
    if (byte >= 248) continue; // 248 = 8 x 31: no bias
    code += BACKUP_ALPHABET[byte % 31];
    if (code.length === 10) break;
  }
  return code.length === 10 ? `${code.slice(0, 5)}-${code.slice(5)}` : newBackupCode();
}

/** A backup code as typed (any case, spaces or a hyphen anywhere) to what is hashed; null when it cannot be one. */
function normalizeBackupCode(code: string): string | null {
  const plain = code.toLowerCase().replace(/[\s-]+/g, "");
  return plain.length === 10 && [...plain].every((ch) => BACKUP_ALPHABET.includes(ch)) ? plain : null;
}

const backupHash = (userId: string, plain: string) => sha256Hex(`${userId}:${plain}`);

function newBackupCodes(userId: string): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
  return { codes, hashes: codes.map((c) => backupHash(userId, normalizeBackupCode(c)!)) };
}

export type TwoFactorStatus = { enabled: boolean; enabledAt: string | null; backupCodesLeft: number };

export async function twoFactorStatus(deps: Pick<Deps, "db">, userId: string): Promise<TwoFactorStatus> {
  const [row] = rowsOf<{ enabled_at: Date | string | null; left: number }>(
    await deps.db.execute(sql`select (select enabled_at from user_totp where user_id = ${userId}::uuid) as enabled_at,
      (select count(*)::int from backup_codes where user_id = ${userId}::uuid and used_at is null) as left`),
  );
  const at = row?.enabled_at ? new Date(row.enabled_at).toISOString() : null;
  return { enabled: at !== null, enabledAt: at, backupCodesLeft: at ? row!.left : 0 };
}

const alreadyOn = () => new AppError("CONFLICT", "Two-factor sign-in is already on. Turn it off first to set up another authenticator.");

/**
 * Step one of turning it on: a new secret, sealed and kept unconfirmed (a setup started again replaces it).
 * 409 CONFLICT while it is on.
 */
export async function startTotpSetup(deps: Sealing, user: Pick<AuthUser, "id" | "email">): Promise<{ secret: string; otpauthUri: string }> {
  const ring = await keyRing(deps.config);
  const secret = new Secret({ size: 20 }).base32;
  const ciphertext = await seal(ring, secret, additionalData(user.id, TOTP_AAD));
  const saved = rowsOf(
    await deps.db.execute(sql`insert into user_totp (user_id, ciphertext, key_id) values (${user.id}::uuid, ${ciphertext}, ${ring.current.id})
      on conflict (user_id) do update set ciphertext = excluded.ciphertext, key_id = excluded.key_id, last_step = null, updated_at = now(), created_at = now()
        where user_totp.enabled_at is null
      returning 1`),
  );
  if (!saved.length) throw alreadyOn();
  return { secret, otpauthUri: totpOf(secret, user.email).toString() };
}

type TotpRow = { ciphertext: string; enabled_at: unknown };

async function readSecret(deps: Sealing, userId: string): Promise<{ secret: string; ciphertext: string; enabled: boolean } | null> {
  const [row] = rowsOf<TotpRow>(await deps.db.execute(sql`select ciphertext, enabled_at from user_totp where user_id = ${userId}::uuid`));
  if (!row) return null;
  const secret = await open(await keyRing(deps.config), row.ciphertext, additionalData(userId, TOTP_AAD));
  return { secret, ciphertext: row.ciphertext, enabled: row.enabled_at !== null };
}

const wrongCode = () => new AppError("VALIDATION_ERROR", "The code is wrong or has been used.", { fields: [{ path: "code", message: "is wrong or has been used" }] });

/**
 * Step two: the first code from the authenticator confirms the setup; the answer holds the 10 backup codes, shown
 * this once. 409 CONFLICT without a setup or when already on; 400 naming `code` when the code is wrong.
 */
export async function enableTotp(deps: Sealing & Pick<Deps, "now">, userId: string, code: string): Promise<{ backupCodes: string[] }> {
  const totp = await readSecret(deps, userId);
  if (!totp) throw new AppError("CONFLICT", "Start the setup first: there is no authenticator waiting to be confirmed.");
  if (totp.enabled) throw alreadyOn();
  const step = totpStep(totp.secret, code, deps.now());
  if (step === null) throw wrongCode();
  const { codes, hashes } = newBackupCodes(userId);
  // One statement: on only if the setup read is still the one waiting (not replaced, not enabled meanwhile).
  const [row] = rowsOf<{ n: number }>(
    await deps.db.execute(sql`with on_now as (
        update user_totp set enabled_at = now(), last_step = ${step}, updated_at = now()
        where user_id = ${userId}::uuid and ciphertext = ${totp.ciphertext} and enabled_at is null
        returning user_id
      ), cleared as (
        delete from backup_codes where user_id in (select user_id from on_now)
      ), added as (
        insert into backup_codes (user_id, code_hash) select user_id, h from on_now, jsonb_array_elements_text(${JSON.stringify(hashes)}::jsonb) as h
        returning 1
      ) select count(*)::int as n from added`),
  );
  if (!row?.n) throw new AppError("CONFLICT", "The setup changed meanwhile (started again, or finished elsewhere). Reload and try again.");
  return { backupCodes: codes };
}

/**
 * Spends a code of an enabled second factor: a TOTP of a step newer than the last accepted, or an unused backup
 * code. True when it was accepted (and is now spent). Safe under concurrency: one statement each.
 */
async function spendCode(deps: Sealing & Pick<Deps, "now">, userId: string, code: string): Promise<boolean> {
  const backup = normalizeBackupCode(code);
  if (backup) {
    return (
      rowsOf(
        await deps.db.execute(sql`update backup_codes set used_at = now()
          where user_id = ${userId}::uuid and code_hash = ${backupHash(userId, backup)} and used_at is null
            and exists (select 1 from user_totp where user_id = ${userId}::uuid and enabled_at is not null)
          returning 1`),
      ).length > 0
    );
  }
  const totp = await readSecret(deps, userId);
  if (!totp?.enabled) return false;
  const step = totpStep(totp.secret, code, deps.now());
  if (step === null) return false;
  return (
    rowsOf(
      await deps.db.execute(sql`update user_totp set last_step = ${step}
        where user_id = ${userId}::uuid and enabled_at is not null and (last_step is null or last_step < ${step})
        returning 1`),
    ).length > 0
  );
}

const wrongPassword = () => new AppError("VALIDATION_ERROR", "The password is wrong.", { fields: [{ path: "password", message: "is wrong" }] });

/**
 * The re-check of a sensitive change made from a session (making an access token): the password, and a code
 * (TOTP or backup) when the authenticator is on, spent like a sign-in's. 400 naming `password` or `code`; nothing
 * is spent when the password is wrong. An account whose only second factor is a passkey gives its password: a
 * passkey answer is a ceremony of its own, not a field of a JSON body.
 */
export async function confirmOwner(deps: Sealing & Pick<Deps, "now">, userId: string, password: string, code: string | undefined): Promise<void> {
  if (!(await checkPasswordTotpOn(deps, userId, password))) return;
  if (!code) throw new AppError("VALIDATION_ERROR", "Two-factor sign-in is on: give a code from the authenticator or a backup code too.", { fields: [{ path: "code", message: "is required while two-factor sign-in is on" }] });
  if (!(await spendCode(deps, userId, code))) throw wrongCode();
}

/** Checks the user's password (400 naming `password` when wrong) and answers whether the authenticator is on. */
async function checkPasswordTotpOn(deps: Pick<Deps, "db">, userId: string, password: string): Promise<boolean> {
  const [row] = rowsOf<{ password_hash: string; on: boolean }>(
    await deps.db.execute(sql`select password_hash, exists (select 1 from user_totp where user_id = u.id and enabled_at is not null) as on
      from users u where id = ${userId}::uuid`),
  );
  if (!row || !(await verifyPassword(password, row.password_hash))) throw wrongPassword();
  return row.on;
}

/** Turns the second factor off after the password and a code (TOTP or backup); 400 naming the wrong one. */
export async function disableTwoFactor(deps: Sealing & Pick<Deps, "now">, userId: string, password: string, code: string): Promise<void> {
  if (!(await checkPasswordTotpOn(deps, userId, password))) throw new AppError("CONFLICT", "Two-factor sign-in is not on.");
  if (!(await spendCode(deps, userId, code))) throw wrongCode();
  await removeSecondFactor(deps, userId);
}

async function removeSecondFactor(deps: Pick<Deps, "db">, userId: string): Promise<void> {
  await deps.db.execute(sql`with codes as (delete from backup_codes where user_id = ${userId}::uuid),
    challenges as (delete from sign_in_challenges where user_id = ${userId}::uuid)
    delete from user_totp where user_id = ${userId}::uuid`);
}

/** Ten new backup codes for a code (the old ones stop working); shown this once. */
export async function regenerateBackupCodes(deps: Sealing & Pick<Deps, "now">, userId: string, code: string): Promise<{ backupCodes: string[] }> {
  const { enabled } = await twoFactorStatus(deps, userId);
  if (!enabled) throw new AppError("CONFLICT", "Two-factor sign-in is not on.");
  if (!(await spendCode(deps, userId, code))) throw wrongCode();
  const { codes, hashes } = newBackupCodes(userId);
  await deps.db.execute(sql`with cleared as (delete from backup_codes where user_id = ${userId}::uuid)
    insert into backup_codes (user_id, code_hash) select ${userId}::uuid, h from jsonb_array_elements_text(${JSON.stringify(hashes)}::jsonb) as h`);
  return { backupCodes: codes };
}

/** The right password of a user with the second factor on: a challenge for the second step. */
export async function createSignInChallenge(deps: Pick<Deps, "db" | "now">, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = deps.now();
  await deps.db.execute(sql`with gone as (delete from sign_in_challenges where user_id = ${userId}::uuid and expires_at <= ${now.toISOString()}::timestamptz)
    insert into sign_in_challenges (id, user_id, expires_at)
    values (${sha256Hex(token)}, ${userId}::uuid, ${new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString()}::timestamptz)`);
  return token;
}

const failedSignIn = () => new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);

/**
 * The second step: a live challenge and a code of its user. Every try is counted on the challenge first (the
 * fifth is its last); a wrong code also counts as a failed sign-in of the account. Returns the user to sign in;
 * 401 UNAUTHORIZED, worded like a wrong password, for anything wrong; 429 while the account is locked.
 */
export async function completeSignInChallenge(
  deps: Sealing & Pick<Deps, "now" | "mailer" | "defer" | "config" | "analytics">,
  challenge: string,
  code: string,
  deviceId: string | undefined,
): Promise<AuthUser> {
  const tried = await trySignInChallenge(deps, challenge, deviceId);
  return finishSignInChallenge(deps, challenge, tried, await spendCode(deps, tried.user.id, code));
}

export type ChallengeTry = { user: AuthUser; webauthnChallenge: string | null; device: string | null };

/**
 * A try at a live challenge (counted at once): its user and the passkey challenge kept on it. 401 otherwise; 429
 * while locked (a browser the account knows, by `deviceId`, only by its own failures: lockout.ts).
 */
export async function trySignInChallenge(deps: Pick<Deps, "db" | "now">, challenge: string, deviceId: string | undefined): Promise<ChallengeTry> {
  const now = deps.now().toISOString();
  const device = deviceHash(deviceId);
  const [row] = rowsOf<{ user_id: string; email: string; email_verified: boolean; is_admin: boolean; plan: AuthUser["plan"]; webauthn_challenge: string | null; known: boolean }>(
    await deps.db.execute(sql`with tried as (
        update sign_in_challenges set attempts = attempts + 1
        where id = ${sha256Hex(challenge)} and expires_at > ${now}::timestamptz and attempts < ${CHALLENGE_TRIES}
        returning user_id, webauthn_challenge
      ) select u.id::text as user_id, u.email, u.email_verified, u.is_admin, u.plan, tried.webauthn_challenge,
        exists (select 1 from known_devices d where d.user_id = u.id and d.device_hash = ${device}) as known
      from tried join users u on u.id = tried.user_id`),
  );
  if (!row) throw failedSignIn();
  await assertNotLocked(deps, row.email, row.known ? device : null);
  return {
    user: { id: row.user_id, email: row.email, emailVerified: row.email_verified, isAdmin: row.is_admin, plan: row.plan },
    webauthnChallenge: row.webauthn_challenge,
    device,
  };
}

/**
 * The end of a try: accepted, the challenge is spent, the account's failed sign-ins are forgotten (the second
 * factor was verified) and the user returned; refused, a failed sign-in (401).
 */
export async function finishSignInChallenge(deps: Pick<Deps, "db" | "analytics">, challenge: string, tried: ChallengeTry, accepted: boolean): Promise<AuthUser> {
  if (!accepted) {
    await recordFailure(deps, tried.user.email, tried.device);
    throw failedSignIn();
  }
  await deps.db.execute(sql`delete from sign_in_challenges where id = ${sha256Hex(challenge)}`);
  await clearFailures(deps, tried.user.email);
  track(deps, "user signed in", tried.user.id, {});
  return tried.user;
}

/** The user of a live challenge, without counting a try (the passkey options step). 401 otherwise. */
export async function signInChallengeUser(deps: Pick<Deps, "db" | "now">, challenge: string): Promise<{ userId: string; challengeHash: string }> {
  const [row] = rowsOf<{ user_id: string }>(
    await deps.db.execute(sql`select user_id::text from sign_in_challenges
      where id = ${sha256Hex(challenge)} and expires_at > ${deps.now().toISOString()}::timestamptz and attempts < ${CHALLENGE_TRIES}`),
  );
  if (!row) throw failedSignIn();
  return { userId: row.user_id, challengeHash: sha256Hex(challenge) };
}

/**
 * The operator CLI's disable-2fa: turns the second factor off for a user locked out of it (the authenticator,
 * its backup codes and every passkey), and writes the audit entry in the same statement. Returns false when the
 * user has none.
 */
export async function operatorDisableTwoFactor(deps: Pick<Deps, "db">, userId: string, source: string): Promise<boolean> {
  const [row] = rowsOf<{ n: number }>(
    await deps.db.execute(sql`with gone as (
        delete from user_totp where user_id = ${userId}::uuid returning enabled_at
      ), keys as (
        delete from passkeys where user_id = ${userId}::uuid returning 1
      ), codes as (
        delete from backup_codes where user_id = ${userId}::uuid
      ), challenges as (
        delete from sign_in_challenges where user_id = ${userId}::uuid
      ), audit as (
        insert into admin_audit (actor_id, actor_email, action, target_user_id, target_email, details, at)
        select null, ${source}, 'disable_2fa', u.id, u.email,
          jsonb_build_object('totp', exists (select 1 from gone where enabled_at is not null), 'passkeys', (select count(*) from keys)), clock_timestamp()
        from users u where u.id = ${userId}::uuid
          and (exists (select 1 from gone where enabled_at is not null) or exists (select 1 from keys))
        returning 1
      ) select count(*)::int as n from audit`),
  );
  return (row?.n ?? 0) > 0;
}

/** Challenges past their 5 minutes: removed by the purge-sessions job. */
export async function purgeSignInChallenges(deps: Pick<Deps, "db" | "now">): Promise<number> {
  return rowsOf(await deps.db.execute(sql`delete from sign_in_challenges where expires_at <= ${deps.now().toISOString()}::timestamptz returning 1`)).length;
}
