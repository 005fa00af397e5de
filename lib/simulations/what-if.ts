// GET /api/stats/what-if (DESIGN.md section 11, "Simulations and what-if"; docs/simulations.md): the period's
// closed trades as they were and as they would have been without the trades the trader names (those that broke
// the account's rules, the revenge trades and overtrading days the insights find, a weekday, an hour, a tag, a
// setup) and with their exits replaced (at the stop or the target where the bars reached it, or at the best
// exit the bars allowed). Both sides are summarised the same way: each closed trade whole, at its close.
//
// The trades and their what-if P&L come from one SQL statement (the same detectors as the compliance report
// and the insights, lib/rules/compliance.ts and lib/insights/findings.ts); the summaries are exact decimal
// arithmetic here.
import { sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { behaviourSql, REVENGE_MINUTES } from "../insights/findings.ts";
import { fromUnits, toUnits } from "../money.ts";
import { brokenSql } from "../rules/compliance.ts";
import { ONE_R_SQL } from "../risk.ts";
import { BASE, scope, StatsQuerySchema, type StatsQuery } from "../stats/stats.ts";

export const EXITS = ["actual", "stop", "target", "best"] as const;
export type Exit = (typeof EXITS)[number];

/** One exclusion: a detector, or a value of the trade's entry or journal. */
type Exclusion = { kind: "broke-rules" | "revenge" | "overtrading" } | { kind: "weekday" | "hour"; value: number } | { kind: "tag" | "setup"; value: string };

const EXCLUDE_HELP = "broke-rules, revenge, overtrading, weekday:N (1 = Monday .. 7), hour:H (0 .. 23, the account's clock), tag:NAME or setup:NAME, several with commas";

const label = (e: Exclusion) => ("value" in e ? `${e.kind}:${e.value}` : e.kind);

/** `exclude`'s list parsed; an item that is none of them is the error. */
function parseExclude(text: string): Exclusion[] | string {
  const out: Exclusion[] = [];
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (item === "broke-rules" || item === "revenge" || item === "overtrading") out.push({ kind: item });
    else if (/^weekday:[1-7]$/.test(item)) out.push({ kind: "weekday", value: Number(item.slice(8)) });
    else if (/^hour:([01]?\d|2[0-3])$/.test(item)) out.push({ kind: "hour", value: Number(item.slice(5)) });
    else if (/^(tag|setup):./.test(item) && item.length <= 110) {
      const colon = item.indexOf(":");
      out.push({ kind: item.slice(0, colon) as "tag" | "setup", value: item.slice(colon + 1).trim() });
    } else return `has ${JSON.stringify(item.slice(0, 40))}: each must be one of ${EXCLUDE_HELP}`;
  }
  return out;
}

export const WhatIfQuerySchema = z
  .extend(StatsQuerySchema, {
    exclude: z.optional(z.string("must be a string").check(z.maxLength(1000, "must be at most 1000 characters"))),
    exit: z._default(z.enum(EXITS, { error: "must be actual, stop, target or best" }), "actual"),
    /** The revenge detector's window (as GET /api/insights takes it). */
    revengeMinutes: z.optional(
      z.pipe(z.string().check(z.regex(/^\d{1,3}$/, "must be a whole number of minutes")), z.pipe(z.transform(Number), z.number().check(z.minimum(1, "must be at least 1"), z.maximum(240, "must be at most 240")))),
    ),
  })
  .check(
    z.superRefine((q, ctx) => {
      if (q.exclude === undefined) return;
      const parsed = parseExclude(q.exclude);
      if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed, path: ["exclude"], input: q.exclude });
    }),
  );
export type WhatIfQuery = StatsQuery & { exclude?: string | undefined; exit: Exit; revengeMinutes?: number | undefined };

/** Trades listed as removed or changed, at most (the counts say how many there are). */
export const MAX_LISTED = 200;

/** A closed trade: id, symbol and closed_at only when it is left out or its exit replaced. */
type Row = {
  id: string | null;
  symbol: string | null;
  closed_at: string | null;
  day: string;
  net: string;
  fees: string;
  one_r: string | null;
  reasons: string[] | null;
  exit_net: string | null;
};

/** The what-if: the actual and the what-if summaries, the daily equity of each, and the trades removed or changed. */
export async function whatIf(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, user: AuthUser, query: WhatIfQuery) {
  const exclusions = query.exclude ? (parseExclude(query.exclude) as Exclusion[]) : [];
  if (exclusions.some((e) => e.kind === "broke-rules") && !query.accountId) {
    throw new AppError("VALIDATION_ERROR", "Trading rules are set per account: choose one (accountId) to leave out the trades that broke them.", {
      fields: [{ path: "accountId", message: "is required to exclude broke-rules" }],
    });
  }
  const inBase = query.currency === BASE;
  // A replaced exit reads the trade's excursions, computed (and kept) where missing or stale.
  const excursions = query.exit === "actual" ? sql`` : sql`left join lateral (select * from trade_excursions_fresh(p.id)) x on true`;
  const from = await scope(deps, user, query, { convert: true, extraJoin: excursions });
  const k = inBase ? sql`fx.k` : sql`1`;
  const only = query.accountId ? sql`and p.account_id = ${query.accountId}` : query.currency && !inBase ? sql`and a.currency = ${from.currency}` : sql``;
  const behaviour = behaviourSql(user.id, only, query.revengeMinutes ?? REVENGE_MINUTES);
  const needs = new Set(exclusions.map((e) => e.kind));
  const ctes: SQL[] = [];
  if (needs.has("broke-rules")) ctes.push(brokenSql(query.accountId!, null));
  if (needs.has("revenge")) ctes.push(sql`rev as (with ${behaviour.afterLoss} select id from found where kind = 'revenge')`);
  if (needs.has("overtrading")) ctes.push(sql`over as (select id from (${behaviour.overtrading}) o)`);
  const condition = (e: Exclusion): SQL => {
    switch (e.kind) {
      case "broke-rules":
        return sql`p.id in (select trade_id from tb)`;
      case "revenge":
        return sql`p.id in (select id from rev)`;
      case "overtrading":
        return sql`p.id in (select id from over)`;
      case "weekday":
        return sql`extract(isodow from p.opened_at at time zone a.timezone) = ${e.value}`;
      case "hour":
        return sql`extract(hour from p.opened_at at time zone a.timezone) = ${e.value}`;
      case "tag":
        return sql`${e.value}::text = any(coalesce(j.tags, '{}'::text[]))`;
      case "setup":
        return sql`coalesce(j.setup, '') = ${e.value}::text`;
    }
  };
  const reason = (e: Exclusion): SQL => sql`case when ${condition(e)} then ${label(e)}::text end`;
  // The whole position leaves at the price (every unit bought or sold short, at its average entry), fees as paid.
  const leaveAt = (price: SQL) => sql`((${price}) * p.entry_quantity - p.entry_value) * (case when p.direction = 'long' then 1 else -1 end) * p.multiplier - p.fees`;
  const reached = (price: SQL, extreme: SQL, long: ">=" | "<=") =>
    sql`${price} is not null and ${extreme} is not null and p.entry_quantity > 0
      and (case when p.direction = 'long' then ${extreme} ${sql.raw(long)} ${price} else ${extreme} ${sql.raw(long === ">=" ? "<=" : ">=")} ${price} end)`;
  const exitNet =
    query.exit === "stop"
      ? sql`case when ${reached(sql`j.stop_price`, sql`x.price_mae`, "<=")} then ${leaveAt(sql`j.stop_price`)} end`
      : query.exit === "target"
        ? sql`case when ${reached(sql`j.target_price`, sql`x.price_mfe`, ">=")} then ${leaveAt(sql`j.target_price`)} end`
        : query.exit === "best"
          ? sql`x.best_exit_pnl`
          : sql`null::numeric`;
  // Every closed trade of the scope, in order of close, as little as the summaries need (100,000 of them
  // travel); what the list shows only for the trades left out or changed.
  const rows = rowsOf<Row>(
    await deps.db.execute(sql`${ctes.length ? sql`with ${sql.join(ctes, sql`, `)}` : sql``}
      select x.net, x.fees, x.one_r, x.day, x.exit_net,
        case when x.reasons <> '{}' or x.exit_net is not null then x.id::text end as id,
        case when x.reasons <> '{}' or x.exit_net is not null then x.symbol end as symbol,
        case when x.reasons <> '{}' or x.exit_net is not null then to_char(x.closed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end as closed_at,
        nullif(x.reasons, '{}') as reasons
      from (
        select p.id, p.symbol, p.closed_at, (p.closed_at at time zone a.timezone)::date::text as day,
          (${from.net})::text as net, round(p.fees * ${k}, 10)::text as fees, (${ONE_R_SQL})::text as one_r,
          ${exclusions.length ? sql`array_remove(array[${sql.join(exclusions.map(reason), sql`, `)}], null)` : sql`'{}'::text[]`} as reasons,
          round((${exitNet}) * ${k}, 10)::text as exit_net
        from ${from.closed}
        -- A fence: the outer select reads reasons four times, and must not compute it four times.
        offset 0
      ) x
      order by x.closed_at, x.id`),
  );

  const actual: Trade[] = [];
  const kept: Trade[] = [];
  const listed: Array<{ id: string; symbol: string; closedAt: string; netPnl: string; whatIfPnl: string | null; removedFor: string[] }> = [];
  let removed = 0;
  let changed = 0;
  for (const r of rows) {
    const net = toUnits(r.net);
    const fees = toUnits(r.fees);
    const trade: Trade = { net, gross: net + fees, fees, oneR: r.one_r, day: r.day };
    actual.push(trade);
    if (r.reasons) {
      removed++;
      listed.push({ id: r.id!, symbol: r.symbol!, closedAt: r.closed_at!, netPnl: fromUnits(trade.net), whatIfPnl: null, removedFor: r.reasons });
      continue;
    }
    const moved = r.exit_net === null ? net : toUnits(r.exit_net);
    if (moved !== net) {
      changed++;
      kept.push({ ...trade, net: moved, gross: moved + fees });
      listed.push({ id: r.id!, symbol: r.symbol!, closedAt: r.closed_at!, netPnl: fromUnits(net), whatIfPnl: fromUnits(moved), removedFor: [] });
    } else kept.push(trade);
  }
  return {
    currency: from.currency,
    exclude: exclusions.map(label),
    exit: query.exit,
    actual: summarise(actual),
    whatIf: summarise(kept),
    removed,
    changed,
    curves: curves(actual, kept),
    trades: listed.reverse().slice(0, MAX_LISTED),
    ...(from.missingRates ? { missingRates: from.missingRates } : {}),
  };
}

type Trade = { net: bigint; gross: bigint; fees: bigint; oneR: string | null; day: string };

const UNIT = 10n ** 10n;
/** a / b rounded half away from zero to `decimals` places, as a decimal string (b > 0). */
function divide(a: bigint, b: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const negative = a < 0n;
  const abs = negative ? -a : a;
  const q = (abs * scale * 2n + b) / (2n * b);
  return fromUnits(((negative ? -q : q) * UNIT) / scale);
}
/** A ratio (4 decimals, as the summary's win rate and profit factor). */
const ratio4 = (a: bigint, b: bigint) => {
  const q = (a * 20_000n + b) / (2n * b);
  return `${q / 10_000n}.${String(q % 10_000n).padStart(4, "0")}`;
};

/**
 * The statistics summary's per-trade figures (lib/stats/recompute.ts, perTradeSql) over these closed trades, in
 * order of close: counts, net, gross and fees, averages to 10 decimals, ratios to 4, R to 2 over the trades with
 * a 1R, and the deepest fall of the cumulative net below its running peak (from zero).
 */
export function summarise(trades: Trade[]) {
  let net = 0n;
  let gross = 0n;
  let fees = 0n;
  let wins = 0n;
  let losses = 0n;
  let won = 0n;
  let lost = 0n;
  let largest: bigint | null = null;
  let smallest: bigint | null = null;
  let peak = 0n;
  let drawdown = 0n;
  // R: each trade's net over its 1R, to 20 decimals (the sums then round to 2).
  const R_SCALE = 10n ** 20n;
  let withRisk = 0n;
  let rTotal = 0n;
  let rWins = 0n;
  let rWon = 0n;
  let rLosses = 0n;
  let rLost = 0n;
  let rBest: bigint | null = null;
  let rWorst: bigint | null = null;
  for (const t of trades) {
    net += t.net;
    gross += t.gross;
    fees += t.fees;
    if (t.net > 0n) {
      wins++;
      won += t.net;
    } else if (t.net < 0n) {
      losses++;
      lost -= t.net;
    }
    if (largest === null || t.net > largest) largest = t.net;
    if (smallest === null || t.net < smallest) smallest = t.net;
    if (net > peak) peak = net;
    if (peak - net > drawdown) drawdown = peak - net;
    const oneR = t.oneR === null ? 0n : toUnits(t.oneR);
    if (oneR > 0n) {
      withRisk++;
      const r = (t.net * R_SCALE) / oneR;
      rTotal += r;
      if (t.net > 0n) {
        rWins++;
        rWon += r;
      } else if (t.net < 0n) {
        rLosses++;
        rLost += r;
      }
      if (rBest === null || r > rBest) rBest = r;
      if (rWorst === null || r < rWorst) rWorst = r;
    }
  }
  const n = BigInt(trades.length);
  const r2 = (v: bigint | null, over = 1n) => (v === null || withRisk === 0n || over === 0n ? null : divide(v, R_SCALE * over, 2));
  return {
    trades: trades.length,
    wins: Number(wins),
    losses: Number(losses),
    netPnl: fromUnits(net),
    grossPnl: fromUnits(gross),
    fees: fromUnits(fees),
    winRate: n === 0n ? null : ratio4(wins, n),
    profitFactor: lost === 0n ? null : ratio4(won, lost),
    expectancy: n === 0n ? null : divide(net, n * UNIT, 10),
    averageWin: wins === 0n ? null : divide(won, wins * UNIT, 10),
    averageLoss: losses === 0n ? null : divide(-lost, losses * UNIT, 10),
    largestWin: wins > 0n && largest !== null ? fromUnits(largest) : null,
    largestLoss: losses > 0n && smallest !== null ? fromUnits(smallest) : null,
    maxDrawdown: fromUnits(drawdown),
    r: {
      trades: trades.length,
      withRisk: Number(withRisk),
      total: r2(rTotal),
      expectancy: r2(rTotal, withRisk),
      averageWin: r2(rWins === 0n ? null : rWon, rWins),
      averageLoss: r2(rLosses === 0n ? null : rLost, rLosses),
      best: r2(rBest),
      worst: r2(rWorst),
    },
  };
}

/** The cumulative net at the end of each day a trade closed, actual and what-if side by side. */
function curves(actual: Trade[], kept: Trade[]) {
  const days = new Map<string, { actual: bigint; whatIf: bigint }>();
  for (const t of actual) days.set(t.day, { actual: (days.get(t.day)?.actual ?? 0n) + t.net, whatIf: days.get(t.day)?.whatIf ?? 0n });
  for (const t of kept) days.get(t.day)!.whatIf += t.net;
  let a = 0n;
  let w = 0n;
  return [...days.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([date, d]) => {
      a += d.actual;
      w += d.whatIf;
      return { date, actual: fromUnits(a), whatIf: fromUnits(w) };
    });
}
