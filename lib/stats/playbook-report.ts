// The playbook report (docs/discipline.md): per playbook, the closed trades taken from it in the period (the
// statistics' scope: one account, one currency, or all; closed in [from, to)) with their net P&L, win rate
// and expectancy in money and in R; per checklist item, the same split by followed and broken. A checkbox
// item is followed when ticked; any other item when answered. Trades without a playbook are the `none` row.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal } from "../money.ts";
import { scope, type StatsQuery } from "./stats.ts";
import { ONE_R_SQL } from "../risk.ts";
import type { PlaybookItem } from "../playbooks/playbooks.ts";

type Figures = { trades: string; wins: string; net: string; expectancy: string | null; with_risk: string; expectancy_r: string | null };

/** trades, wins, netPnl, winRate, expectancy (money per trade), withRisk and expectancyR (R per trade with a 1R). */
function figures(r: Figures) {
  const trades = Number(r.trades);
  const withRisk = Number(r.with_risk);
  return {
    trades,
    wins: Number(r.wins),
    netPnl: formatDecimal(r.net),
    winRate: trades > 0 ? (Number(r.wins) / trades).toFixed(4) : null,
    expectancy: r.expectancy === null ? null : formatDecimal(r.expectancy),
    withRisk,
    expectancyR: withRisk > 0 && r.expectancy_r !== null ? formatDecimal(r.expectancy_r) : null,
  };
}

// R from the trade's own amounts (`native`): the same in any currency the money figures are in.
const aggregates = sql.raw(`count(t.net)::text as trades, count(*) filter (where t.net > 0)::text as wins,
  coalesce(sum(t.net), 0)::text as net, round(sum(t.net) / nullif(count(t.net), 0), 10)::text as expectancy,
  count(t.one_r)::text as with_risk, round(sum(t.native / nullif(t.one_r, 0)) / nullif(count(t.one_r), 0), 2)::text as expectancy_r`);

export async function playbookReport(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, query: StatsQuery) {
  const from = await scope(deps, user, query, { convert: true });
  const closed = sql`select j.playbook_id, coalesce(j.playbook_answers, '{}'::jsonb) as answers, ${from.net} as net, p.net_pnl as native, ${ONE_R_SQL} as one_r from ${from.closed}`;
  const [books, items] = await Promise.all([
    deps.db.execute(sql`with t as (${closed})
      select b.id::text as id, b.name, b.items::text as items, (b.archived_at is not null) as archived, ${aggregates}
      from playbooks b left join t on t.playbook_id = b.id
      where b.user_id = ${user.id}
      group by b.id
      union all
      select null, null, null, null, ${aggregates} from t where t.playbook_id is null`),
    deps.db.execute(sql`with t as (${closed})
      select t.playbook_id::text as id, i->>'id' as item, x.followed, ${aggregates}
      from t join playbooks b on b.id = t.playbook_id cross join jsonb_array_elements(b.items) i
      cross join lateral (select case when i->>'kind' = 'checkbox' then coalesce(t.answers->(i->>'id') = 'true'::jsonb, false)
        else t.answers ? (i->>'id') end as followed) x
      group by 1, 2, 3`),
  ]);
  const split = new Map<string, { followed?: Figures; broken?: Figures }>();
  for (const r of rowsOf<Figures & { id: string; item: string; followed: boolean }>(items)) {
    const key = `${r.id}/${r.item}`;
    split.set(key, { ...split.get(key), [r.followed ? "followed" : "broken"]: r });
  }
  const none: Figures = { trades: "0", wins: "0", net: "0", expectancy: null, with_risk: "0", expectancy_r: null };
  const rows = rowsOf<Figures & { id: string | null; name: string | null; items: string | null; archived: boolean | null }>(books);
  const noPlaybook = rows.find((r) => r.id === null);
  return {
    currency: from.currency,
    ...(from.missingRates ? { missingRates: from.missingRates } : {}),
    playbooks: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        name: r.name!,
        archived: Boolean(r.archived),
        ...figures(r),
        items: (JSON.parse(r.items!) as PlaybookItem[]).map((i) => ({
          id: i.id,
          label: i.label,
          kind: i.kind,
          followed: figures(split.get(`${r.id}/${i.id}`)?.followed ?? none),
          broken: figures(split.get(`${r.id}/${i.id}`)?.broken ?? none),
        })),
      }))
      .sort((a, b) => b.trades - a.trades || a.name.localeCompare(b.name)),
    /** Closed trades of the period taken from no playbook. */
    none: figures(noPlaybook ?? none),
  };
}
