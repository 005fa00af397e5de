// Mentors (issue 59, docs/sharing.md): a trader invites someone by email to read chosen accounts and views
// (MENTOR_SCOPES) until an expiry; the user of this instance with that email sees the invitation among their
// mentees and accepts it; from then on they read through the ordinary read routes with `?mentee=<userId>`,
// checked in one place (lib/http/mentor.ts against lib/sharing/access.ts). Deleting the grant ends it at the
// next request; every read is recorded for the owner's list of who read what and when.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import { EmailSchema } from "../auth/schema.ts";
import type { AuthUser } from "../auth/session.ts";
import { arrayLiteral, isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { mentorInvitationEmail } from "../email/messages.ts";
import { AppError } from "../errors.ts";
import { MENTOR_SCOPES, type MentorScope } from "./access.ts";
import { live } from "./grant-check.ts";

export const MAX_MENTORS = 20;
export const noMentor = () => new AppError("NOT_FOUND", "No such mentor.");
export const MAX_GRANT_ACCOUNTS = 50;
export const GRANT_MAX_DAYS = 730;

export const MentorInviteSchema = z.strictObject({
  email: EmailSchema,
  accountIds: z
    .array(z.uuid("must be a uuid"))
    .check(z.minLength(1, "must name at least one account"), z.maxLength(MAX_GRANT_ACCOUNTS, `must name at most ${MAX_GRANT_ACCOUNTS} accounts`)),
  scopes: z
    .array(z.enum(MENTOR_SCOPES, { error: `must be one of ${MENTOR_SCOPES.join(", ")}` }))
    .check(z.minLength(1, "must name at least one scope"), z.maxLength(MENTOR_SCOPES.length, "names a scope twice")),
  expiresInDays: z.optional(
    z.int("must be a whole number of days").check(z.minimum(1, "must be at least 1"), z.maximum(GRANT_MAX_DAYS, `must be at most ${GRANT_MAX_DAYS}`)),
  ),
});
export type MentorInvite = z.infer<typeof MentorInviteSchema>;

export type Mentor = {
  id: string;
  email: string;
  accountIds: string[];
  scopes: MentorScope[];
  status: "invited" | "active";
  expiresAt: string | null;
  createdAt: string;
  acceptedAt: string | null;
  lastViewedAt: string | null;
};

const mentorColumns = sql.raw(`g.id::text, g.email, to_json(g.account_ids) as "accountIds", to_json(g.scopes) as "scopes", g.status,
  ${isoUtc("g.expires_at")} as "expiresAt", ${isoUtc("g.created_at")} as "createdAt", ${isoUtc("g.accepted_at")} as "acceptedAt",
  (select ${isoUtc("max(v.at)")} from mentor_views v where v.grant_id = g.id) as "lastViewedAt"`);


/**
 * POST /api/mentors: invites (or, for an email invited before, changes) a mentor. 400 naming `email` for the
 * trader's own, `accountIds` for an account that is not theirs; 409 past MAX_MENTORS. Mails the invitation when
 * the instance sends email. An active mentor stays active with the new accounts and scopes.
 */
export async function inviteMentor(deps: Pick<Deps, "db" | "now" | "config" | "mailer" | "defer">, owner: AuthUser, input: MentorInvite): Promise<Mentor> {
  if (input.email === owner.email.toLowerCase()) {
    throw new AppError("VALIDATION_ERROR", "You cannot be your own mentor.", { fields: [{ path: "email", message: "is your own email" }] });
  }
  const accountIds = [...new Set(input.accountIds)];
  const scopes = [...new Set(input.scopes)];
  const expiresAt = input.expiresInDays ? new Date(deps.now().getTime() + input.expiresInDays * 86_400_000).toISOString() : null;
  const [row] = rowsOf<Mentor & { owned: number; count: number }>(
    await deps.db.execute(sql`with owned as (
        select count(*)::int as n from accounts where user_id = ${owner.id}::uuid and id = any(${arrayLiteral(accountIds)}::uuid[])
      ), existing as (
        select count(*)::int as n from mentor_grants where owner_id = ${owner.id}::uuid and email <> ${input.email}
      ), g as (
        insert into mentor_grants (owner_id, email, account_ids, scopes, expires_at)
        select ${owner.id}::uuid, ${input.email}, ${arrayLiteral(accountIds)}::uuid[], ${arrayLiteral(scopes)}::text[], ${expiresAt}::timestamptz
        where (select n from owned) = ${accountIds.length} and (select n from existing) < ${MAX_MENTORS}
        on conflict (owner_id, email) do update set account_ids = excluded.account_ids, scopes = excluded.scopes, expires_at = excluded.expires_at
        returning *
      )
      select (select n from owned) as owned, (select n from existing) as count, ${mentorColumns} from (select 1) one left join g on true`),
  );
  if (!row || row.owned !== accountIds.length) {
    throw new AppError("VALIDATION_ERROR", "Choose accounts of yours.", { fields: [{ path: "accountIds", message: "names an account that is not yours" }] });
  }
  if (!row.id) throw new AppError("CONFLICT", `You have ${MAX_MENTORS} mentors: remove one first.`);
  const { owned: _o, count: _c, ...mentor } = row;
  const mailer = deps.mailer;
  if (mailer && mentor.status === "invited" && deps.config.WEB_BASE_URL) {
    deps.defer(() => mailer.send({ to: input.email, ...mentorInvitationEmail(deps.config, owner.email, scopes, expiresAt) }));
  }
  return { ...mentor, lastViewedAt: null };
}

/** GET /api/mentors: the trader's mentors, newest first, with their last read. */
export async function listMentors(deps: Pick<Deps, "db">, owner: AuthUser): Promise<{ mentors: Mentor[] }> {
  return { mentors: rowsOf<Mentor>(await deps.db.execute(sql`select ${mentorColumns} from mentor_grants g where g.owner_id = ${owner.id}::uuid order by g.created_at desc, g.id`)) };
}

/** DELETE /api/mentors/:id: false when the trader has no such mentor. The mentor's next request is refused. */
export async function removeMentor(deps: Pick<Deps, "db">, owner: AuthUser, id: string): Promise<boolean> {
  return rowsOf(await deps.db.execute(sql`delete from mentor_grants where id = ${id}::uuid and owner_id = ${owner.id}::uuid returning 1`)).length > 0;
}

export const VIEW_LIST_LIMIT = 200;

/** GET /api/mentors/:id/views: what the mentor read and when, newest first (the last VIEW_LIST_LIMIT). */
export async function mentorViews(deps: Pick<Deps, "db">, owner: AuthUser, id: string): Promise<{ views: Array<{ route: string; at: string }> }> {
  const [row] = rowsOf<{ views: string | null }>(
    await deps.db.execute(sql`select (select coalesce(json_agg(json_build_object('route', v.route, 'at', ${sql.raw(isoUtc("v.at"))}) order by v.at desc), '[]')
        from (select * from mentor_views where grant_id = g.id order by at desc limit ${VIEW_LIST_LIMIT}) v)::text as views
      from mentor_grants g where g.id = ${id}::uuid and g.owner_id = ${owner.id}::uuid`),
  );
  if (!row) throw noMentor();
  return { views: JSON.parse(row.views ?? "[]") as Array<{ route: string; at: string }> };
}

export type Mentee = {
  id: string;
  userId: string;
  name: string;
  accountIds: string[];
  accounts: Array<{ id: string; name: string; currency: string }>;
  scopes: MentorScope[];
  status: "invited" | "active";
  expiresAt: string | null;
};

const menteeColumns = sql.raw(`g.id::text, g.owner_id::text as "userId", u.email as name, to_json(g.account_ids) as "accountIds", to_json(g.scopes) as scopes,
  g.status, ${isoUtc("g.expires_at")} as "expiresAt",
  coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name, 'currency', a.currency) order by a.name, a.id)
    from accounts a where a.user_id = g.owner_id and a.id = any(g.account_ids)), '[]') as accounts`);


/** GET /api/mentees: the journals the user reads (active) or is invited to read, unexpired. */
export async function listMentees(deps: Pick<Deps, "db" | "now">, user: AuthUser): Promise<{ mentees: Mentee[] }> {
  const rows = rowsOf<Mentee>(
    await deps.db.execute(sql`select ${menteeColumns} from mentor_grants g join users u on u.id = g.owner_id
      where (g.mentor_id = ${user.id}::uuid or (g.status = 'invited' and g.email = ${user.email.toLowerCase()})) and ${live(deps.now())}
      order by g.created_at, g.id`),
  );
  return { mentees: rows };
}

/**
 * POST /api/mentees/:id/accept: the invitation to the user's email becomes theirs (active). Where the instance
 * sends email, only a verified address may accept (else anyone who registered that address first could). 404
 * for an invitation that is not to them, accepted already by another, or expired.
 */
export async function acceptMentee(deps: Pick<Deps, "db" | "now" | "mailer">, user: AuthUser, id: string): Promise<{ mentee: Mentee }> {
  if (deps.mailer && !user.emailVerified) throw new AppError("FORBIDDEN", "Verify your email address first: the invitation is to that address.");
  const [row] = rowsOf<Mentee>(
    await deps.db.execute(sql`with accepted as (
        update mentor_grants g set mentor_id = ${user.id}::uuid, status = 'active', accepted_at = coalesce(accepted_at, ${deps.now().toISOString()}::timestamptz)
        where g.id = ${id}::uuid and g.email = ${user.email.toLowerCase()} and (g.mentor_id is null or g.mentor_id = ${user.id}::uuid) and ${live(deps.now())}
        returning g.*
      )
      select ${menteeColumns} from accepted g join users u on u.id = g.owner_id`),
  );
  if (!row) throw new AppError("NOT_FOUND", "No such invitation.");
  return { mentee: row };
}

