// What each tag cost (docs/discipline.md, "Mistakes and their cost"): per tag of a kind (lib/tags), the closed
// trades of the period that carry it, their net P&L (for a mistake: what it cost), win rate and expectancy.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal } from "../money.ts";
import { kind, type TagKind } from "../tags/schema.ts";
import { scope, StatsQuerySchema } from "./stats.ts";

export const TagReportQuerySchema = z.extend(StatsQuerySchema, { kind: z.optional(kind()) });
export type TagReportQuery = z.infer<typeof TagReportQuerySchema>;

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
