// Sign-in lockout (DESIGN.md section 10; docs/auth.md, "Lockout"): after LOCKOUT_FAILURES failed sign-ins of
// one email in LOCKOUT_WINDOW_SECONDS, sign-in of that email answers 429 RATE_LIMITED with Retry-After,
// however right the next password is, until the oldest of those failures leaves the window. An unknown email
// is counted and locked the same way, so the answer says nothing of which emails have accounts. On top of
// the per-client rate limit (LIMITS.login): that one slows one client; this one stops many clients guessing
// one account's password. The failure that reaches the tenth emails an existing account's owner.
// Failures are kept in Postgres by the SHA-256 of the lowercased email (no email a
// stranger typed is stored), so every runtime and the operator CLI (`unlock-sign-in`) see the same count;
// the purge-sessions job removes the old ones.
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;

async function keyOf(email: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase()));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Throws 429 RATE_LIMITED (with Retry-After) while the email is locked. */
export async function assertNotLocked(deps: Pick<Deps, "db">, email: string): Promise<void> {
  const [row] = rowsOf<{ wait: number }>(
    await deps.db.execute(sql`select ceil(extract(epoch from failed_at + make_interval(secs => ${LOCKOUT_WINDOW_SECONDS}) - now()))::int as wait
      from sign_in_failures where key = ${await keyOf(email)} and failed_at > now() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS})
      order by failed_at desc offset ${LOCKOUT_FAILURES - 1} limit 1`),
  );
  if (!row) return;
  const wait = Math.max(1, row.wait);
  throw new AppError("RATE_LIMITED", `Too many failed sign-ins for this email. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? "s" : ""}.`, {
    headers: { "Retry-After": String(wait) },
  });
}

/** Counts one failed sign-in of the email; returns how many it has in the window now. */
export async function recordFailure(deps: Pick<Deps, "db">, email: string): Promise<number> {
  const key = await keyOf(email);
  const [row] = rowsOf<{ n: number }>(
    await deps.db.execute(sql`with added as (insert into sign_in_failures (key) values (${key}) returning 1)
      select (select count(*) from sign_in_failures where key = ${key} and failed_at > now() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS}))::int + 1 as n`),
  );
  return row!.n;
}

/** The operator CLI's unlock-sign-in: forgets the email's failures. Returns how many there were. */
export async function unlockSignIn(deps: Pick<Deps, "db">, email: string): Promise<number> {
  return rowsOf(await deps.db.execute(sql`delete from sign_in_failures where key = ${await keyOf(email)} returning 1`)).length;
}

/** Failures older than the window count for nothing: removed by the purge-sessions job. */
export async function purgeSignInFailures(deps: Pick<Deps, "db">): Promise<number> {
  return rowsOf(await deps.db.execute(sql`delete from sign_in_failures where failed_at < now() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS}) returning 1`)).length;
}
