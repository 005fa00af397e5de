// Closing one's own account (docs/auth.md): the password checked, the subscriptions cancelled at the payment
// provider, then the user and everything of theirs deleted in one statement (user_delete). Here, not in lib/auth,
// because the cancellation comes first: auth knows nothing of billing.
import { eq, sql } from "drizzle-orm";
import { verifyPassword } from "../auth/password.ts";
import { users } from "../db/schema.ts";
import { pgError, RAISED_EXCEPTION } from "../db/errors.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { drainObjectDeletions } from "../storage/deletions.ts";
import { cancelSubscriptionsBeforeDeletion } from "./payments.ts";

/**
 * Deletes the user and everything of theirs after checking their password (one statement: user_delete).
 * 409 LAST_ADMIN for the instance's only administrator. Queued object deletions (staged imports) are drained
 * after the response.
 */
export async function deleteOwnAccount(deps: Pick<Deps, "db" | "storage" | "log" | "defer" | "config">, userId: string, password: string): Promise<void> {
  const [row] = await deps.db.select({ passwordHash: users.passwordHash, isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId));
  if (!row || !(await verifyPassword(password, row.passwordHash))) {
    throw new AppError("VALIDATION_ERROR", "The password is wrong.", { fields: [{ path: "password", message: "is wrong" }] });
  }
  // Refused before anything is cancelled at the payment provider (user_delete checks again, under its locks).
  if (row.isAdmin && rowsOf<{ n: number }>(await deps.db.execute(sql`select count(*)::int as n from users where is_admin`))[0]!.n <= 1) throw lastAdmin();
  await cancelSubscriptionsBeforeDeletion(deps, userId);
  try {
    await deps.db.execute(sql`select user_delete(${userId})`);
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === RAISED_EXCEPTION && pg.message === "LAST_ADMIN") throw lastAdmin();
    throw err;
  }
  deps.defer(() => drainObjectDeletions(deps));
}

const lastAdmin = () => new AppError("LAST_ADMIN", "You are the only administrator: promote someone else before deleting your account.");
