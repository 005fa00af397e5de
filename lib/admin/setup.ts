// The first administrator without stopping the server (docs/admin.md, "Who is an administrator"). On the
// embedded database the operator CLI cannot run beside the server (PGlite allows one process), so a Node
// start that finds no administrator prints a one-time link: whoever opens it signed in becomes the first
// administrator. The token lives in the process only (its SHA-256; the token itself is printed once, never
// logged), works once, and stops working as soon as the instance has an administrator by any way.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { claimFirstAdmin } from "../auth/users.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type { SetupLink } from "../ports/setup.ts";

export type { SetupLink };

const digestOf = (token: string) => createHash("sha256").update(token, "utf8").digest();

/**
 * Opens the link when the instance has no administrator: `link` keeps the token's digest, and the token is
 * returned to be printed once. Null (the link stays closed) when there is an administrator.
 */
export async function openSetupLink(deps: Pick<Deps, "db">, link: SetupLink): Promise<string | null> {
  const [row] = rowsOf<{ any: boolean }>(await deps.db.execute(sql`select exists (select 1 from users where is_admin) as any`));
  if (row?.any) return null;
  const token = randomBytes(32).toString("base64url");
  link.digest = digestOf(token);
  return token;
}

/** The path the link opens in the web app; the token rides in the fragment, which never reaches a server or a log. */
export const SETUP_PATH = "/setup/admin";

/**
 * POST /api/admin/setup: the signed-in user becomes the first administrator when the token is this start's
 * link. One statement decides (operator_set_admin with firstOnly), so two claims cannot both win.
 */
export async function claimSetupLink(deps: Pick<Deps, "db" | "log" | "setupLink">, user: AuthUser, token: string): Promise<AuthUser> {
  const link = deps.setupLink;
  if (!link?.digest) throw new AppError("NOT_FOUND", "No setup link is open on this instance: its start printed none, or it was used.");
  const given = digestOf(token);
  if (!timingSafeEqual(given, link.digest)) throw new AppError("FORBIDDEN", "This is not the setup link this start printed. Copy it again from the server's output.");
  const promoted = await claimFirstAdmin(deps, user.email);
  // Used, or made pointless by an administrator made another way: either way the link is closed.
  link.digest = null;
  if (!promoted) throw new AppError("CONFLICT", "This instance has an administrator already: ask them to promote you in the admin console.");
  deps.log.info("first administrator made by the setup link", { userId: promoted.id });
  return promoted;
}
