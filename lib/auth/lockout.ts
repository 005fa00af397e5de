// Sign-in lockout (DESIGN.md section 10; docs/auth.md, "Lockout"): after LOCKOUT_FAILURES failed sign-ins of
// one email in LOCKOUT_WINDOW_SECONDS, sign-in of that email answers 429 RATE_LIMITED with Retry-After,
// however right the next password is, until the oldest of those failures leaves the window. An unknown email
// is counted and locked the same way, so the answer says nothing of which emails have accounts. On top of
// the per-client rate limit (LIMITS.login): that one slows one client; this one stops many clients guessing
// one account's password. The failure that reaches the tenth emails an existing account's owner.
// Failures are kept in Postgres by the SHA-256 of the lowercased email (no email a
// stranger typed is stored), so every runtime and the operator CLI (`unlock-sign-in`) see the same count;
// the purge-sessions job removes the old ones.
//
// So that a stranger cannot keep the owner out (OWASP's Authentication Cheat Sheet, "Account Lockout": a lockout
// must not become a denial of service), each failure also keeps the device it came from (the SHA-256 of its
// device cookie, devices.ts), and a browser the account has signed in from before counts only its own
// failures: failures from elsewhere do not lock it. A completed password reset, a passkey sign-in and a sign-in
// whose second factor was verified forget the account's failures (clearFailures and the reset's statement).
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;

async function keyOf(email: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase()));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Throws 429 RATE_LIMITED (with Retry-After) while the email is locked. `knownDevice`: the hash of the request's
 * device when the account has signed in from it before; then only that device's own failures count.
 */
export async function assertNotLocked(deps: Pick<Deps, "db">, email: string, knownDevice: string | null): Promise<void> {
  const [row] = rowsOf<{ wait: number }>(
    await deps.db.execute(sql`select ceil(extract(epoch from failed_at + make_interval(secs => ${LOCKOUT_WINDOW_SECONDS}) - now()))::int as wait
      from sign_in_failures where key = ${await keyOf(email)} and failed_at > now() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS})
        ${knownDevice ? sql`and device_hash = ${knownDevice}` : sql``}
      order by failed_at desc offset ${LOCKOUT_FAILURES - 1} limit 1`),
  );
  if (!row) return;
  const wait = Math.max(1, row.wait);
  throw tooManySignIns(wait);
}

/**
 * The one answer of both sign-in limits (the per-client rate limit of the sign-in routes and this lockout): 429
 * with Retry-After, and the same words.
 */
export function tooManySignIns(waitSeconds: number): AppError {
  return new AppError("RATE_LIMITED", `Too many sign-in attempts. Try again in ${waitWords(waitSeconds)}.`, {
    headers: { "Retry-After": String(waitSeconds) },
  });
}

/** "40 seconds", "1 minute", "15 minutes": how long Retry-After asks a person to wait. */
export function waitWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** Counts one failed sign-in of the email from a device (its hash, or null); returns how many it has in the window now. */
export async function recordFailure(deps: Pick<Deps, "db">, email: string, device: string | null): Promise<number> {
  const key = await keyOf(email);
  const [row] = rowsOf<{ n: number }>(
    await deps.db.execute(sql`with added as (insert into sign_in_failures (key, device_hash) values (${key}, ${device}) returning 1)
      select (select count(*) from sign_in_failures where key = ${key} and failed_at > now() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS}))::int + 1 as n`),
  );
  return row!.n;
}

/** A sign-in that proved more than a password (a passkey, a verified second factor): the account's failures are forgotten. */
export async function clearFailures(deps: Pick<Deps, "db">, email: string): Promise<void> {
  await deps.db.execute(sql`delete from sign_in_failures where key = ${await keyOf(email)}`);
}

/** The lockout key of a stored (lowercase) email, in SQL: what keyOf computes, for statements that know only the user. */
export const failureKeySql = (emailColumn: SQL) => sql`encode(sha256(convert_to(${emailColumn}, 'UTF8')), 'hex')`;

/** The operator CLI's unlock-sign-in: forgets the email's failures. Returns how many there were. */
export async function unlockSignIn(deps: Pick<Deps, "db">, email: string): Promise<number> {
  return rowsOf(await deps.db.execute(sql`delete from sign_in_failures where key = ${await keyOf(email)} returning 1`)).length;
}

/** Failures older than the window count for nothing: removed by the purge-sessions job. */
export async function purgeSignInFailures(deps: Pick<Deps, "db">): Promise<number> {
  return rowsOf(await deps.db.execute(sql`delete from sign_in_failures where failed_at < now() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS}) returning 1`)).length;
}
