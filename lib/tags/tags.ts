// Tags and their kinds (docs/discipline.md, "Mistakes and their cost"): a trader marks a tag as a setup, a
// mistake or an emotion (per user: the tag means the same on every trade). What each tag cost is a statistic
// (lib/stats/tag-report.ts).
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import type { TagKind, TagKindBody } from "./schema.ts";

/**
 * Tags are case-insensitive (docs/discipline.md, "Tags"): a tag typed in another case than one the user already
 * has (on a trade, a journal day, or a kind) is written as that one ("breakout" becomes "Breakout"), and tags that
 * differ only in case within one write are one tag, the first spelling kept. Returns the tags to write, trimmed.
 */
export async function canonicalTags(deps: Pick<Deps, "db">, userId: string, tags: readonly string[]): Promise<string[]> {
  const spelling = await tagSpellings(deps, userId, tags);
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean).map((t) => spelling.get(t.toLowerCase())!))];
}

/**
 * How each of these tags (trimmed) is written, by its lowercase: the spelling the user already uses most (on a
 * trade, a journal day or a kind), else the first spelling among these.
 */
export async function tagSpellings(deps: Pick<Deps, "db">, userId: string, tags: readonly string[]): Promise<Map<string, string>> {
  const spelling = new Map<string, string>();
  const wanted: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || spelling.has(tag.toLowerCase())) continue;
    spelling.set(tag.toLowerCase(), tag);
    wanted.push(tag);
  }
  if (!wanted.length) return spelling;
  const known = rowsOf<{ tag: string }>(
    await deps.db.execute(sql`with mine as (
        select t.tag from trade_journals j join accounts a on a.id = j.account_id cross join unnest(j.tags) as t(tag) where a.user_id = ${userId}
        union all
        select t.tag from day_journals d join accounts a on a.id = d.account_id cross join unnest(d.tags) as t(tag) where a.user_id = ${userId}
        union all
        select tag from tag_kinds where user_id = ${userId}
      )
      select tag from mine where lower(tag) in (select lower(jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb)))
      group by tag order by count(*) desc, tag`),
  );
  const used = new Set<string>();
  for (const { tag } of known) {
    if (used.has(tag.toLowerCase())) continue;
    used.add(tag.toLowerCase());
    spelling.set(tag.toLowerCase(), tag);
  }
  return spelling;
}

/** GET /api/tags: every tag on the user's trades (and every tag given a kind), with its kind and trade count. */
export async function listTags(deps: Pick<Deps, "db">, user: AuthUser) {
  const rows = rowsOf<{ tag: string; kind: TagKind | null; trades: number }>(
    await deps.db.execute(sql`with used as (
        select t.tag, count(*)::int as trades from trade_journals j join accounts a on a.id = j.account_id cross join unnest(j.tags) as t(tag)
        where a.user_id = ${user.id} and j.position_id is not null group by t.tag
      )
      select coalesce(u.tag, k.tag) as tag, k.kind, coalesce(u.trades, 0) as trades
      from used u full join (select tag, kind from tag_kinds where user_id = ${user.id}) k on k.tag = u.tag
      order by coalesce(u.trades, 0) desc, 1`),
  );
  return { tags: rows };
}

/** PUT /api/tags/kind: sets (or, with null, clears) a tag's kind. */
export async function setTagKind(deps: Pick<Deps, "db">, user: AuthUser, body: TagKindBody) {
  if (body.kind === null) {
    await deps.db.execute(sql`delete from tag_kinds where user_id = ${user.id} and tag = ${body.tag}`);
  } else {
    await deps.db.execute(sql`insert into tag_kinds (user_id, tag, kind) values (${user.id}, ${body.tag}, ${body.kind})
      on conflict (user_id, tag) do update set kind = excluded.kind, updated_at = now()`);
  }
  return { tag: body.tag, kind: body.kind };
}
