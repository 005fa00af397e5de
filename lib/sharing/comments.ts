// Comments on a trade or on an account's day (issue 59, docs/sharing.md), by the trader or a mentor reading
// with the trades or days scope. A trade's comments hang on its journal (made empty when it has none), so they
// follow the trade through every rebuild and keep the journal from being dropped as blank. Stored as written;
// the screens show them as text, never as HTML.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";

export const COMMENT_MAX_CHARS = 5000;
/** Comments on one trade or one day, at most: past it, 409. */
export const MAX_COMMENTS = 500;

export const CommentSchema = z.strictObject({
  body: z.string({ error: "is required" }).check(z.trim(), z.minLength(1, "is required"), z.maxLength(COMMENT_MAX_CHARS, `must be at most ${COMMENT_MAX_CHARS} characters`)),
});

export type Comment = { id: string; authorId: string | null; authorEmail: string | null; mine: boolean; body: string; createdAt: string };

/** A trade (of the owner) or an owner's account's day. */
export type CommentTarget = { tradeId: string } | { accountId: string; day: string };

const columns = (readerId: string) =>
  sql`c.id::text, c.author_id::text as "authorId", coalesce(u.email, c.author_label) as "authorEmail", coalesce(c.author_id = ${readerId}::uuid, false) as mine, c.body,
    ${sql.raw(isoUtc("c.created_at"))} as "createdAt"`;

const notFound = (target: CommentTarget) => new AppError("NOT_FOUND", "tradeId" in target ? "No such trade." : "No such account.");

/** GET .../comments: oldest first. `readerId` is who reads (the owner or their mentor): `mine` is theirs. */
export async function listComments(deps: Pick<Deps, "db">, owner: AuthUser, readerId: string, target: CommentTarget): Promise<{ comments: Comment[] }> {
  const [row] = rowsOf<{ found: boolean; comments: string }>(
    await deps.db.execute(
      "tradeId" in target
        ? sql`select exists (select 1 from positions p join accounts a on a.id = p.account_id where p.id = ${target.tradeId}::uuid and a.user_id = ${owner.id}::uuid) as found,
            coalesce((select json_agg(x order by x."createdAt", x.id) from (select ${columns(readerId)} from comments c
              join trade_journals j on j.id = c.journal_id left join users u on u.id = c.author_id
              where j.position_id = ${target.tradeId}::uuid and c.owner_id = ${owner.id}::uuid) x), '[]')::text as comments`
        : sql`select exists (select 1 from accounts where id = ${target.accountId}::uuid and user_id = ${owner.id}::uuid) as found,
            coalesce((select json_agg(x order by x."createdAt", x.id) from (select ${columns(readerId)} from comments c left join users u on u.id = c.author_id
              where c.account_id = ${target.accountId}::uuid and c.day = ${target.day}::date and c.owner_id = ${owner.id}::uuid) x), '[]')::text as comments`,
    ),
  );
  if (!row?.found) throw notFound(target);
  return { comments: JSON.parse(row.comments) as Comment[] };
}

/** POST .../comments: 201 with the comment; 404 when the trade or account is not the owner's; 409 past MAX_COMMENTS. */
export async function addComment(deps: Pick<Deps, "db" | "now">, owner: AuthUser, authorId: string, target: CommentTarget, body: string): Promise<{ comment: Comment }> {
  const at = deps.now().toISOString();
  // The account row is held FOR KEY SHARE (trade_journal_ensure's contract: no rebuild meanwhile).
  const where =
    "tradeId" in target
      ? sql`with t as (
          select p.id, p.account_id from positions p join accounts a on a.id = p.account_id
          where p.id = ${target.tradeId}::uuid and a.user_id = ${owner.id}::uuid for key share of a
        ), place as (select t.account_id, trade_journal_ensure(t.id) as journal_id, null::date as day from t)`
      : sql`with place as (
          select a.id as account_id, null::uuid as journal_id, ${target.day}::date as day from accounts a
          where a.id = ${target.accountId}::uuid and a.user_id = ${owner.id}::uuid for key share
        )`;
  const [row] = rowsOf<Comment & { found: boolean }>(
    await deps.db.execute(sql`${where}, made as (
        insert into comments (owner_id, account_id, journal_id, day, author_id, body, created_at)
        select ${owner.id}::uuid, place.account_id, place.journal_id, place.day, ${authorId}::uuid, ${body}, ${at}::timestamptz from place
        where (select count(*) from comments c where c.owner_id = ${owner.id}::uuid
          and (c.journal_id = place.journal_id or (c.account_id = place.account_id and c.day = place.day))) < ${MAX_COMMENTS}
        returning *
      )
      select exists (select 1 from place) as found, ${columns(authorId)} from (select 1) one left join made c on true left join users u on u.id = c.author_id`),
  );
  if (!row?.found) throw notFound(target);
  if (!row.id) throw new AppError("CONFLICT", `This has ${MAX_COMMENTS} comments already.`);
  const { found: _f, ...comment } = row;
  return { comment };
}
