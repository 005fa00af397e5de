// Tag kinds and what each tag cost (docs/discipline.md, "Mistakes and their cost"): a trader marks a tag as a
// setup, a mistake or an emotion (per user: the tag means the same on every trade); the report gives, per tag
// of a kind, the closed trades of the period that carry it, their net P&L (for a mistake: what it cost), win
// rate and expectancy.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal } from "../money.ts";
import { scope } from "../stats/stats.ts";
import type { TagKind, TagKindBody, TagReportQuery } from "./schema.ts";

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

/**
 * GET /api/stats/tags: per tag (of `kind`, or every tag), the closed trades of the period carrying it, costliest
 * first: count, net P&L, win rate, expectancy.
 */
export async function tagReport(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, query: TagReportQuery) {
  const from = await scope(deps, user, query, {
    extraJoin: sql`cross join lateral unnest(coalesce(j.tags, '{}')) as tg(tag) left join tag_kinds k on k.user_id = a.user_id and k.tag = tg.tag`,
    convert: true,
  });
  const rows = rowsOf<{ tag: string; kind: TagKind | null; trades: number; wins: number; net: string; expectancy: string }>(
    await deps.db.execute(sql`select tg.tag, k.kind, count(*)::int as trades, count(*) filter (where p.net_pnl > 0)::int as wins,
        sum(${from.net})::text as net, round(avg(${from.net}), 10)::text as expectancy
      from ${from.closed} ${query.kind ? sql`and k.kind = ${query.kind}` : sql``}
      group by tg.tag, k.kind order by sum(${from.net}), tg.tag`),
  );
  return {
    currency: from.currency,
    ...(from.missingRates ? { missingRates: from.missingRates } : {}),
    kind: query.kind ?? null,
    tags: rows.map((r) => ({
      tag: r.tag,
      kind: r.kind,
      trades: r.trades,
      wins: r.wins,
      netPnl: formatDecimal(r.net),
      winRate: r.trades > 0 ? (r.wins / r.trades).toFixed(4) : null,
      expectancy: formatDecimal(r.expectancy),
    })),
  };
}
