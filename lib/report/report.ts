// The printable report (docs/digest.md, "The printable report"; issue 60): a period of one account, or of every
// account of a currency (or all of them in the base currency), in the sections a coach or an accountant reads:
// summary, equity, calendar, breakdowns, R distribution, rules, findings and the journaled days. Read with the
// functions behind the screens, so the paper never disagrees with the dashboard for the same period.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { listDays } from "../days/days.ts";
import { MAX_DAYS } from "../days/schema.ts";
import { findings } from "../insights/findings.ts";
import { complianceReport } from "../rules/compliance.ts";
import { BASE, breakdown, calendar, equityCurve, rDistribution, StatsQuerySchema, summary } from "../stats/stats.ts";
import { dayIn } from "../time/zoned.ts";
import { dateTimeSchema } from "../time/range.ts";

export const PAPERS = ["a4", "letter"] as const;
export type Paper = (typeof PAPERS)[number];

/** A period (both instants required, at most MAX_DAYS days), one account or a currency, and the paper. */
export const ReportQuerySchema = z
  .extend(StatsQuerySchema, {
    from: dateTimeSchema(),
    to: dateTimeSchema(),
    paper: z._default(z.enum(PAPERS, { error: "must be a4 or letter" }), "a4"),
  })
  .check(
    z.refine((q) => Number.isNaN(Date.parse(q.from)) || Number.isNaN(Date.parse(q.to)) || Date.parse(q.from) < Date.parse(q.to), { message: "must be after from", path: ["to"] }),
    z.refine((q) => !(Date.parse(q.to) - Date.parse(q.from) > MAX_DAYS * 86_400_000), { message: `must be at most ${MAX_DAYS} days after from`, path: ["to"] }),
  );
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

export type ReportDeps = Pick<Deps, "db" | "now" | "config" | "fetch" | "log" | "defer">;

/** The report's figures, every section's. */
export async function reportOf(deps: ReportDeps, user: AuthUser, query: ReportQuery) {
  const stats = { accountId: query.accountId, currency: query.currency, from: query.from, to: query.to };
  const caller = { userId: user.id };
  const head = await summary(deps, caller, stats);
  const accounts = rowsOf<{ id: string; name: string; currency: string; timezone: string }>(
    await deps.db.execute(sql`select id::text as id, name, currency, timezone from accounts
      where user_id = ${user.id}::uuid
        ${query.accountId ? sql`and id = ${query.accountId}::uuid` : query.currency && query.currency !== BASE ? sql`and currency = ${query.currency}` : sql``}
      order by name, id`),
  );
  const currencies = query.currency === BASE ? [...new Set(accounts.map((a) => a.currency))].sort() : [head.currency].filter((c): c is string => c !== null);
  const lastInstant = Date.parse(query.to) - 1;
  const [equity, days, bySymbol, byWeekday, byDirection, rDist, rules, found, journal] = await Promise.all([
    equityCurve(deps, caller, { ...stats, bucket: "day" }),
    calendar(deps, caller, stats),
    breakdown(deps, caller, { ...stats, by: "symbol" }),
    breakdown(deps, caller, { ...stats, by: "weekday" }),
    breakdown(deps, caller, { ...stats, by: "direction" }),
    rDistribution(deps, user, stats),
    Promise.all(
      accounts.map(async (a) => {
        const report = await complianceReport(deps, user, a.id, { from: dayIn(Date.parse(query.from), a.timezone), to: dayIn(lastInstant, a.timezone) });
        return { accountId: a.id, accountName: a.name, currency: a.currency, score: report.score, rules: report.rules };
      }),
    ),
    // Findings are per currency (each in its own amounts; in the base, one list per account currency).
    Promise.all(currencies.map(async (currency) => ({ currency, findings: (await findings(deps, user, { accountId: query.accountId, currency: query.accountId ? undefined : currency, from: query.from, to: query.to })).findings }))),
    listDays(deps, user, {
      accountId: query.accountId,
      from: accounts.length ? [...accounts].map((a) => dayIn(Date.parse(query.from), a.timezone)).sort()[0]! : query.from.slice(0, 10),
      to: accounts.length ? [...accounts].map((a) => dayIn(lastInstant, a.timezone)).sort().at(-1)! : query.to.slice(0, 10),
    }),
  ]);
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  return {
    // The period's first and last day on the (first) account's clock, as the header says them.
    period: { from: query.from, to: query.to, firstDay: dayIn(Date.parse(query.from), accounts[0]?.timezone ?? "Etc/UTC"), lastDay: dayIn(lastInstant, accounts[0]?.timezone ?? "Etc/UTC") },
    scope: query.accountId ? (accounts[0]?.name ?? "") : query.currency === BASE ? `Every account, in ${head.currency}` : `Every ${head.currency ?? ""} account`,
    currency: head.currency,
    summary: head,
    equity: equity.points,
    calendar: days.days,
    breakdowns: { symbol: bySymbol.groups, weekday: byWeekday.groups, direction: byDirection.groups },
    rDistribution: rDist,
    rules: rules.filter((r) => r.rules.length > 0),
    findings: found,
    journal: journal.days
      .filter((d) => names.has(d.accountId) && (d.plan || d.review || d.mood !== null))
      .map((d) => ({ day: d.day, accountName: names.get(d.accountId)!, mood: d.mood, plan: d.plan, review: d.review, tags: d.tags })),
  };
}

export type Report = Awaited<ReturnType<typeof reportOf>>;
