import { and, eq, sql } from "drizzle-orm";
import { assertNotLocked, LOCKOUT_FAILURES, LOCKOUT_WINDOW_SECONDS, recordFailure } from "./lockout.ts";
import { deviceHash } from "./devices.ts";
import { lockoutEmail } from "../email/messages.ts";
import { users } from "../db/schema.ts";
import { track } from "../analytics/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { dummyHash, hashPassword, needsRehash, verifyPassword } from "./password.ts";
import type { Credentials } from "./schema.ts";
import { userColumns, type AuthUser } from "./session.ts";
import { pgError, RAISED_EXCEPTION } from "../db/errors.ts";
import { rowsOf } from "../db/rows.ts";
import { INVALID_CREDENTIALS } from "./two-factor.ts";


export { publicUser } from "./session.ts";

export async function createUser(
  deps: Pick<Deps, "db">,
  credentials: Credentials,
  options: { isAdmin?: boolean } = {},
): Promise<AuthUser> {
  const passwordHash = await hashPassword(credentials.password);
  const [user] = await deps.db
    .insert(users)
    .values({ email: credentials.email, passwordHash, isAdmin: options.isAdmin ?? false })
    .onConflictDoNothing({ target: users.email })
    .returning(userColumns);
  if (!user) throw new AppError("CONFLICT", "An account with this email already exists.");
  return user;
}

/** DISABLE_REGISTRATION: sign-up is refused with 403 REGISTRATION_DISABLED, to every client and whatever it sends. */
export function assertRegistrationOpen(config: Pick<Deps["config"], "DISABLE_REGISTRATION">): void {
  if (config.DISABLE_REGISTRATION) throw new AppError("REGISTRATION_DISABLED", "Sign-up is closed on this instance.");
}

/** Self-service sign-up (POST /api/auth/register). */
export async function registerUser(deps: Pick<Deps, "db" | "config" | "analytics">, credentials: Credentials): Promise<AuthUser> {
  assertRegistrationOpen(deps.config);
  const user = await createUser(deps, credentials);
  track(deps, "user signed up", user.id, { verified: user.emailVerified });
  return user;
}

/**
 * Checks email and password. An unknown email and a wrong password fail identically and take the same
 * time (a dummy hash is verified). A hash made with older parameters is replaced on success. `totp`,
 * `passkey`: the second factors the user has, either of which the sign-in's second step takes (two-factor.ts).
 * `deviceId`: the request's device cookie; a browser the account has signed in from before is held only to its
 * own failures by the lockout (lockout.ts).
 */
export async function authenticate(
  deps: Pick<Deps, "db" | "analytics" | "mailer" | "defer" | "config">,
  credentials: Credentials,
  deviceId: string | undefined,
): Promise<AuthUser & { totp: boolean; passkey: boolean }> {
  const device = deviceHash(deviceId);
  const [row] = await deps.db
    .select({
      ...userColumns,
      passwordHash: users.passwordHash,
      // Qualified by hand: drizzle writes ${users.id} as a bare "id" here, which passkeys' own id would capture.
      totp: sql<boolean>`exists (select 1 from user_totp t where t.user_id = "users"."id" and t.enabled_at is not null)`,
      passkey: sql<boolean>`exists (select 1 from passkeys p where p.user_id = "users"."id")`,
      knownDevice: sql<boolean>`exists (select 1 from known_devices d where d.user_id = "users"."id" and d.device_hash = ${device})`,
    })
    .from(users)
    .where(eq(users.email, credentials.email));
  await assertNotLocked(deps, credentials.email, row?.knownDevice ? device : null);
  const ok = await verifyPassword(credentials.password, row?.passwordHash ?? (await dummyHash()));
  if (!row || !ok) {
    const failures = await recordFailure(deps, credentials.email, device);
    // The failure that locks an account tells its owner (an unknown email has no one to tell).
    const mailer = deps.mailer;
    if (row && mailer && failures === LOCKOUT_FAILURES) {
      deps.defer(() => mailer.send({ to: row.email, ...lockoutEmail(deps.config, LOCKOUT_FAILURES, LOCKOUT_WINDOW_SECONDS / 60) }));
    }
    throw new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);
  }
  if (needsRehash(row.passwordHash)) {
    const rehashed = await hashPassword(credentials.password);
    // Only if nobody changed the password meanwhile.
    await deps.db
      .update(users)
      .set({ passwordHash: rehashed, updatedAt: sql`now()` })
      .where(and(eq(users.id, row.id), eq(users.passwordHash, row.passwordHash)));
  }
  const { passwordHash: _hash, knownDevice: _known, ...user } = row;
  if (!user.totp && !user.passkey) track(deps, "user signed in", user.id, {});
  return user;
}

/** Changes the password after checking the current one. */
export async function changePassword(
  deps: Pick<Deps, "db">,
  userId: string,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  const [row] = await deps.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row || !(await verifyPassword(currentPassword, row.passwordHash))) {
    throw new AppError("VALIDATION_ERROR", "The current password is wrong.", {
      fields: [{ path: "currentPassword", message: "is wrong" }],
    });
  }
  await setPassword(deps, userId, newPassword);
}


/**
 * Sets a user's password and, in the same statement, deletes their unused reset links: a link mailed before
 * the change (perhaps to an address an attacker read) must not replace the new password afterwards.
 */
export async function setPassword(deps: Pick<Deps, "db">, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await deps.db.execute(sql`with revoked as (
      delete from email_tokens where user_id = ${userId}::uuid and purpose = 'reset_password' and used_at is null
    )
    update users set password_hash = ${passwordHash}, updated_at = now() where id = ${userId}::uuid`);
}

export async function findUserByEmail(deps: Pick<Deps, "db">, email: string): Promise<AuthUser | undefined> {
  const [user] = await deps.db.select(userColumns).from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user;
}

/** The operator CLI's promote-admin and demote-admin: audited, and never the last admin demoted (LAST_ADMIN). */
export async function setAdmin(deps: Pick<Deps, "db">, email: string, isAdmin: boolean): Promise<AuthUser | undefined> {
  return operatorSetAdmin(deps, email, isAdmin, OPERATOR_CLI, { verifiedOnly: false, firstOnly: false });
}

/** The first administrator, by the start's setup link (lib/admin/setup.ts): only while there is none, audited. */
export async function claimFirstAdmin(deps: Pick<Deps, "db">, email: string): Promise<AuthUser | undefined> {
  return operatorSetAdmin(deps, email, true, OPERATOR_SETUP_LINK, { verifiedOnly: false, firstOnly: true });
}

/** Who the audit log names for changes the instance's operator makes outside the console. */
export const OPERATOR_CLI = "operator (CLI)";
export const OPERATOR_SETUP_LINK = "operator (setup link)";
export const OPERATOR_SEED = "operator (SEED_ADMIN_EMAIL)";

async function operatorSetAdmin(
  deps: Pick<Deps, "db">,
  email: string,
  isAdmin: boolean,
  source: string,
  only: { verifiedOnly: boolean; firstOnly: boolean },
): Promise<AuthUser | undefined> {
  try {
    const [user] = rowsOf<{ id: string; email: string; email_verified: boolean; is_admin: boolean; plan: AuthUser["plan"] }>(
      await deps.db.execute(sql`select id::text, email, email_verified, is_admin, plan
        from operator_set_admin(${email.trim().toLowerCase()}, ${isAdmin}, ${source}, ${only.verifiedOnly}, ${only.firstOnly})`),
    );
    return user && { id: user.id, email: user.email, emailVerified: user.email_verified, isAdmin: user.is_admin, plan: user.plan };
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === RAISED_EXCEPTION && pg.message === "LAST_ADMIN") {
      throw new AppError("LAST_ADMIN", `${email} is the only administrator: promote someone else first.`);
    }
    throw err;
  }
}

/** Every administrator, oldest first (the CLI's list-admins). */
export async function listAdmins(deps: Pick<Deps, "db">): Promise<AuthUser[]> {
  return deps.db.select(userColumns).from(users).where(eq(users.isAdmin, true)).orderBy(users.createdAt, users.id);
}

/**
 * SEED_ADMIN_EMAIL at startup (Node) or on every cron run (Workers, which have no start step): promotes
 * that user only while the instance has no admin at all, in one statement so two starting processes cannot
 * both decide, and writes the audit entry. With email on, only once its owner has confirmed the address:
 * anyone could register it first otherwise. With email off nobody can confirm it, so while it is unclaimed a
 * warning says the operator must register it themselves (docs/admin.md). Returns the promoted user, if any.
 */
export async function seedAdmin(deps: Pick<Deps, "db" | "config" | "log">): Promise<AuthUser | undefined> {
  const email = deps.config.SEED_ADMIN_EMAIL;
  if (!email) return undefined;
  const verifiedOnly = deps.config.features.email;
  const user = await operatorSetAdmin(deps, email, true, OPERATOR_SEED, { verifiedOnly, firstOnly: true });
  if (user) {
    deps.log.info("SEED_ADMIN_EMAIL promoted to admin", { userId: user.id });
    return user;
  }
  if (!verifiedOnly && !rowsOf<{ any: boolean }>(await deps.db.execute(sql`select exists (select 1 from users where is_admin) as any`))[0]?.any) {
    deps.log.warn(
      "SEED_ADMIN_EMAIL is not an administrator yet. Email is off, so nobody can confirm that address: whoever registers it first becomes the administrator. Register it yourself now (or make the first admin with npm run cli -- promote-admin).",
    );
  }
  return undefined;
}
