// The weekly digest's contents (docs/digest.md; DESIGN.md section 11, "Weekly digest"): the trader's week in
// their figures, read from the same functions as the screens so the digest never disagrees with the summary
// for the same week. Per currency (or once in the base currency when one is set): net P&L, R, win rate, best
// and worst trade, against the trader's own average week of the 12 before; the rules broken and what those
// trades made; the behaviour findings; the journaled days; the open positions; the prop-firm evaluations.
// A week with one trading day or none gets no comparison and no reading: nothing is invented from it.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { formatDecimal } from "../money.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { findings } from "../insights/findings.ts";
import { complianceReport } from "../rules/compliance.ts";
import { listDays } from "../days/days.ts";
import { propSummary } from "../prop/evaluations.ts";
import { BASE, summary } from "../stats/stats.ts";
import { addDays, dayIn, zonedTimeToUtc } from "../time/zoned.ts";
import { baseOf } from "../fx/user-base.ts";
import { washWatch } from "../tax/tax.ts";

/** Weeks the trader's own average week is taken over (those with a closed trade among them). */
export const AVERAGE_WEEKS = 12;
/** Open positions the digest lists (the oldest first); the count says how many there are in all. */
export const OPEN_LISTED = 10;

export type DigestDeps = Pick<Deps, "db" | "now" | "config" | "fetch" | "log" | "defer">;

/** The seven local days before `sendDay` in `zone`: [from, to) as instants, and the days themselves. */
export type DigestWeek = { firstDay: string; lastDay: string; zone: string; from: string; to: string };

export function weekBefore(sendDay: string, zone: string): DigestWeek {
  const midnight = (day: string) => {
    const [year, month, d] = day.split("-").map(Number) as [number, number, number];
    return zonedTimeToUtc({ year, month, day: d, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone).toISOString();
  };
  const firstDay = addDays(sendDay, -7);
  return { firstDay, lastDay: addDays(sendDay, -1), zone, from: midnight(firstDay), to: midnight(sendDay) };
}

/** The week a digest sent at `instant` covers: the seven days before that day in `zone`. */
export function weekAt(instant: Date, zone: string): DigestWeek {
  return weekBefore(dayIn(instant.getTime(), zone), zone);
}

type Trade = { id: string; symbol: string; accountName: string; currency: string; netPnl: string; closedAt: string };

async function extremes(deps: DigestDeps, userId: string, week: DigestWeek, currency: string | null) {
  const rows = rowsOf<{ id: string; symbol: string; name: string; currency: string; net: string; closed_at: string; rank: string }>(
    await deps.db.execute(sql`select * from (
        (select 'best' as rank, p.id::text as id, p.symbol, a.name, a.currency, p.net_pnl::text as net, p.closed_at::text as closed_at
          from positions p join accounts a on a.id = p.account_id
          where a.user_id = ${userId}::uuid ${currency ? sql`and a.currency = ${currency}` : sql``} and p.closed_at >= ${week.from}::timestamptz and p.closed_at < ${week.to}::timestamptz
          order by p.net_pnl desc, p.closed_at, p.id limit 1)
        union all
        (select 'worst', p.id::text, p.symbol, a.name, a.currency, p.net_pnl::text, p.closed_at::text
          from positions p join accounts a on a.id = p.account_id
          where a.user_id = ${userId}::uuid ${currency ? sql`and a.currency = ${currency}` : sql``} and p.closed_at >= ${week.from}::timestamptz and p.closed_at < ${week.to}::timestamptz
          order by p.net_pnl asc, p.closed_at, p.id limit 1)) x`),
  );
  const of = (rank: string): Trade | null => {
    const r = rows.find((x) => x.rank === rank);
    return r ? { id: r.id, symbol: r.symbol, accountName: r.name, currency: r.currency, netPnl: formatDecimal(r.net), closedAt: new Date(r.closed_at).toISOString() } : null;
  };
  const best = of("best");
  const worst = of("worst");
  // One trade is the best and the worst at once: name it once, as the best when it won.
  if (best && worst && best.id === worst.id) return Number(best.netPnl) >= 0 ? { best, worst: null } : { best: null, worst };
  return { best: best && Number(best.netPnl) > 0 ? best : null, worst: worst && Number(worst.netPnl) < 0 ? worst : null };
}

/** The trader's average week over the AVERAGE_WEEKS before: net P&L per week with a closed trade, and those weeks. */
async function averageWeek(deps: DigestDeps, user: AuthUser, week: DigestWeek, currency: string) {
  const from = new Date(Date.parse(week.from) - AVERAGE_WEEKS * 7 * 86_400_000).toISOString();
  const before = await summary(deps, { userId: user.id }, { currency, from, to: week.from });
  const [row] = rowsOf<{ weeks: number }>(
    await deps.db.execute(sql`select count(distinct floor(extract(epoch from p.closed_at - ${from}::timestamptz) / 604800))::int as weeks
      from positions p join accounts a on a.id = p.account_id
      where a.user_id = ${user.id}::uuid ${currency === BASE ? sql`` : sql`and a.currency = ${currency}`}
        and p.closed_at >= ${from}::timestamptz and p.closed_at < ${week.from}::timestamptz`),
  );
  const weeks = row?.weeks ?? 0;
  if (weeks === 0) return null;
  const per = (v: string | null) => (v === null ? null : formatDecimal((Number(v) / weeks).toFixed(2)));
  return { weeks, netPnl: per(before.netPnl), trades: Math.round((before.trades / weeks) * 10) / 10, rTotal: per(before.r.total) };
}

/**
 * The digest's figures for one user and week. `washWatch` (the trader's choice): the USD losses of the last 30
 * days that a purchase on or after the send day would still wash (docs/tax.md, "Wash watch").
 */
export async function digestFigures(deps: DigestDeps, user: AuthUser, week: DigestWeek, options: { washWatch?: boolean | undefined } = {}) {
  const [accounts, base] = await Promise.all([
    deps.db.execute(sql`select id::text as id, name, currency from accounts where user_id = ${user.id}::uuid order by name, id`).then((r) => rowsOf<{ id: string; name: string; currency: string }>(r)),
    baseOf(deps, user.id),
  ]);
  const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
  const [daysRow] = rowsOf<{ days: number }>(
    await deps.db.execute(sql`select count(distinct (f.executed_at at time zone a.timezone)::date)::int as days
      from fills f join accounts a on a.id = f.account_id
      where a.user_id = ${user.id}::uuid and f.executed_at >= ${week.from}::timestamptz and f.executed_at < ${week.to}::timestamptz`),
  );
  const tradingDays = daysRow?.days ?? 0;
  const compare = tradingDays >= 2;
  const range = { from: week.from, to: week.to };

  // In the base currency when the trader set one (every account, one total); else one block per currency.
  const blockCurrencies = base && accounts.length ? [BASE] : currencies;
  const figuresOf = async (currency: string) => {
    const [s, { best, worst }, averageWeekOf] = await Promise.all([
      summary(deps, { userId: user.id }, { currency, ...range }),
      extremes(deps, user.id, week, currency === BASE ? null : currency),
      compare ? averageWeek(deps, user, week, currency) : null,
    ]);
    return {
      currency: s.currency ?? currency,
      trades: s.trades,
      wins: s.wins,
      losses: s.losses,
      netPnl: s.netPnl,
      fees: s.fees,
      winRate: s.winRate,
      rTotal: s.r.total,
      rTrades: s.r.withRisk,
      best,
      worst,
      averageWeek: averageWeekOf,
      ...(s.missingRates ? { missingRates: s.missingRates } : {}),
    };
  };

  const rulesBroken = async () => {
    const ruled = new Set(
      rowsOf<{ id: string }>(await deps.db.execute(sql`select distinct r.account_id::text as id from trading_rules r join accounts a on a.id = r.account_id where a.user_id = ${user.id}::uuid`)).map((r) => r.id),
    );
    const out = [];
    for (const account of accounts.filter((a) => ruled.has(a.id))) {
      const report = await complianceReport(deps, user, account.id, { from: week.firstDay, to: week.lastDay });
      for (const r of report.rules) {
        if (r.brokenTrades === 0 && r.brokenDays === 0) continue;
        out.push({ accountId: account.id, accountName: account.name, currency: account.currency, ruleId: r.id, label: r.label, trades: r.brokenTrades, days: r.brokenDays, netPnl: r.brokenNetPnl });
      }
    }
    return out;
  };

  const foundIn = async (currency: string) =>
    (await findings(deps, user, { currency, ...range })).findings
      .filter((x) => x.found)
      .map((x) => ({ kind: x.kind, title: x.title, detail: x.detail, count: x.count, netPnl: x.netPnl, currency }));

  const names = new Map(accounts.map((a) => [a.id, a.name]));
  const journaledDays = async () =>
    (await listDays(deps, user, { from: week.firstDay, to: week.lastDay })).days.map((d) => ({
      day: d.day,
      accountId: d.accountId,
      accountName: names.get(d.accountId) ?? "",
      mood: d.mood,
      plan: d.plan,
      review: d.review,
    }));

  const openPositions = async () =>
    rowsOf<{ id: string; symbol: string; name: string; direction: "long" | "short"; qty: string; opened_at: string; total: number }>(
      await deps.db.execute(sql`select p.id::text as id, p.symbol, a.name, p.direction, p.open_quantity::text as qty, p.opened_at::text as opened_at, count(*) over ()::int as total
        from positions p join accounts a on a.id = p.account_id
        where a.user_id = ${user.id}::uuid and p.closed_at is null
        order by p.opened_at, p.id limit ${OPEN_LISTED}`),
    );

  const evaluationsOf = async () =>
    (await propSummary(deps, user)).accounts
      .filter((a) => a.firm !== null)
      .map((a) => ({ accountId: a.accountId, accountName: a.name, currency: a.currency, firm: a.firm!, phase: a.phase, state: a.state, distanceToFloor: a.distanceToFloor, profitToTarget: a.profitToTarget }));

  const sendDay = addDays(week.lastDay, 1);
  const watched = async () =>
    options.washWatch ? (await washWatch(deps, user, { currency: "USD" }, new Date(week.to))).losses.filter((l) => l.washableUntil >= sendDay).map((l) => ({ ...l, accountName: names.get(l.accountId) ?? "" })) : null;

  // The sections read side by side (each a few statements on the shared pool).
  const [blocks, rules, found, journaled, open, evaluations, wash] = await Promise.all([
    Promise.all(blockCurrencies.map(figuresOf)),
    rulesBroken(),
    Promise.all(currencies.map(foundIn)).then((x) => x.flat()),
    journaledDays(),
    openPositions(),
    evaluationsOf(),
    watched(),
  ]);

  return {
    week: { firstDay: week.firstDay, lastDay: week.lastDay, zone: week.zone, from: week.from, to: week.to },
    tradingDays,
    /** False for a week with one trading day or none: no comparison, no reading. */
    comparable: compare,
    figures: blocks,
    rulesBroken: rules,
    findings: found,
    journaledDays: journaled,
    openPositions: {
      total: open[0]?.total ?? 0,
      listed: open.map((p) => ({ id: p.id, symbol: p.symbol, accountName: p.name, direction: p.direction, quantity: formatDecimal(p.qty), openedAt: new Date(p.opened_at).toISOString() })),
    },
    evaluations,
    /** null unless the trader asked for it. */
    washWatch: wash,
  };
}

export type DigestFigures = Awaited<ReturnType<typeof digestFigures>>;

/** The user as the statistics take them, by id (the job has no session). */
export async function digestUser(deps: Pick<Deps, "db">, userId: string): Promise<AuthUser & { email: string }> {
  const [u] = rowsOf<{ id: string; email: string; email_verified: boolean; is_admin: boolean; plan: "free" | "pro" }>(
    await deps.db.execute(sql`select id::text as id, email, email_verified, is_admin, plan from users where id = ${userId}::uuid`),
  );
  if (!u) throw new AppError("NOT_FOUND", "No such user.");
  return { id: u.id, email: u.email, emailVerified: u.email_verified, isAdmin: u.is_admin, plan: u.plan };
}
