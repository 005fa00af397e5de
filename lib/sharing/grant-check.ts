// A mentor's grant, checked for one request (lib/http/mentor.ts): kept apart from lib/sharing/mentors.ts, as
// every Worker carries it.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import type { MentorScope } from "./access.ts";

/** A grant in force: not expired (`g` the grant). */
export const live = (now: Date) => sql`(g.expires_at is null or g.expires_at > ${now.toISOString()}::timestamptz)`;

/** A mentor's access to one of the owner's accounts for one scope, as lib/http/mentor.ts checks it. */
export type MentorAccess = { grantId: string; mentorId: string; owner: AuthUser; scopes: MentorScope[] };

type AccessRow = { grant_id: string; scopes: MentorScope[]; id: string; email: string; email_verified: boolean; is_admin: boolean; plan: AuthUser["plan"] };

/**
 * The mentor's live grant from `ownerId` holding `scope` and the account (named, or the trade's), with the read
 * recorded in the same statement; null when there is none (not invited, not accepted, expired, removed, another
 * scope or account, a trade that is not the owner's).
 */
export async function mentorAccess(
  deps: Pick<Deps, "db" | "now">,
  mentorId: string,
  ownerId: string,
  scope: MentorScope,
  target: { accountId: string } | { tradeId: string },
  route: string,
): Promise<MentorAccess | null> {
  const account =
    "tradeId" in target
      ? sql`(select p.account_id from positions p join accounts a on a.id = p.account_id where p.id = ${target.tradeId}::uuid and a.user_id = g.owner_id)`
      : sql`${target.accountId}::uuid`;
  const [row] = rowsOf<AccessRow>(
    await deps.db.execute(sql`with g as (
        select g.id as grant_id, g.scopes, u.id, u.email, u.email_verified, u.is_admin, u.plan
        from mentor_grants g join users u on u.id = g.owner_id
        where g.owner_id = ${ownerId}::uuid and g.mentor_id = ${mentorId}::uuid and g.status = 'active' and ${live(deps.now())}
          and ${scope} = any(g.scopes) and ${account} = any(g.account_ids)
      ), seen as (insert into mentor_views (grant_id, route, at) select grant_id, ${route}, ${deps.now().toISOString()}::timestamptz from g)
      select grant_id::text, to_json(scopes) as scopes, id::text, email, email_verified, is_admin, plan from g`),
  );
  if (!row) return null;
  return {
    grantId: row.grant_id,
    mentorId,
    owner: { id: row.id, email: row.email, emailVerified: row.email_verified, isAdmin: row.is_admin, plan: row.plan },
    scopes: row.scopes,
  };
}
