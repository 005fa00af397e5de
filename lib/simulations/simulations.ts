// POST /api/simulations/monte-carlo (DESIGN.md section 11, "Simulations and what-if"; docs/simulations.md):
// the period's own closed trades' R multiples (those with a 1R, oldest first) resampled in blocks, and with
// `prop`, the same paths as attempts at a prop-firm evaluation.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { DecimalStringSchema } from "../money.ts";
import { evaluationRules } from "../prop/evaluations.ts";
import type { PropRules } from "../prop/engine.ts";
import { RulesSchema } from "../prop/schema.ts";
import { scope, StatsQuerySchema } from "../stats/stats.ts";
import { R_MULTIPLE } from "../risk.ts";
import { defaultBlockSize, monteCarlo, wilson, type Histogram } from "./monte-carlo.ts";
import { propMonteCarlo, type PropSimParams } from "./prop.ts";

export const MAX_PATHS = 100_000;
export const MAX_TRADES = 5_000;
/** Fewer sampled trades than this say too little to resample (DESIGN.md section 11). */
export const MIN_SAMPLED = 20;
/** The trader's limit on the probability of ruin when not given: 1 %. */
export const DEFAULT_MAX_RUIN = 0.01;

const money = (what: string) => DecimalStringSchema.check(z.refine((v) => Number(v) > 0, `must be above 0 (${what})`));
const whole = (min: number, max: number) => z.int("must be a whole number").check(z.gte(min, `must be at least ${min}`), z.lte(max, `must be at most ${max}`));

export const MonteCarloSchema = z
  .strictObject({
    ...StatsQuerySchema.shape,
    paths: whole(1, MAX_PATHS),
    trades: whole(1, MAX_TRADES),
    riskPerTrade: money("the money risked on each trade"),
    startingBalance: money("the equity a path starts from"),
    /** Consecutive trades drawn together; by default the cube root of the sampled trades. */
    blockSize: z.optional(whole(1, 1000)),
    /** The generator's seed; by default one chosen and returned, so the answer can be had again. */
    seed: z.optional(whole(0, 4_294_967_295)),
    /** Ruined at or below this equity (default 0). */
    ruinAt: z.optional(DecimalStringSchema.check(z.refine((v) => !v.startsWith("-"), "must be 0 or more"))),
    /** Reached at or above this equity. */
    targetAt: z.optional(DecimalStringSchema),
    /** The trader's limit on the probability of ruin, for the sweep (default 0.01). */
    maxRuin: z.optional(z.number("must be a number").check(z.gte(0, "must be 0 or more"), z.lt(1, "must be below 1"))),
    /** The same paths as attempts at a prop-firm evaluation: these rules, or the account's own evaluation's. */
    prop: z.optional(
      z.strictObject({
        rules: z.optional(RulesSchema),
        /** Trades a trading day (default: the period's own average). */
        tradesPerDay: z.optional(whole(1, 1000)),
        /** What one attempt costs (the evaluation fee), for the expected fees until funded. */
        evaluationFee: z.optional(DecimalStringSchema.check(z.refine((v) => !v.startsWith("-"), "must be 0 or more"))),
      }),
    ),
  })
  .check(
    z.refine((b) => b.ruinAt === undefined || !(Number(b.ruinAt) >= Number(b.startingBalance)), { message: "must be below startingBalance", path: ["ruinAt"] }),
    z.refine((b) => b.targetAt === undefined || !(Number(b.targetAt) <= Number(b.startingBalance)), { message: "must be above startingBalance", path: ["targetAt"] }),
    z.refine((b) => b.blockSize === undefined || !(b.blockSize > b.trades), { message: "must not be more than trades", path: ["blockSize"] }),
  );
export type MonteCarloBody = z.infer<typeof MonteCarloSchema>;

/** What the simulation does and does not model, shown beside its figures. */
export const ASSUMPTIONS = [
  "Each path draws blocks of consecutive trades from your own closed trades with a 1R in the period, so streaks and bad weeks stay together; a block starts at any trade with the same chance and wraps past the last.",
  "Every trade risks the same money (riskPerTrade): a trade of 1.5R makes 1.5 times it. Position sizing that grows or shrinks with equity is not modelled.",
  "Your future trades are assumed to be like these: a change of market, strategy or discipline is not.",
  "A path stops at ruin (equity at or below ruinAt); fees are inside each trade's R, slippage beyond what the trades paid is not.",
  "Probabilities come with Wilson 95% intervals: how far they may be from the simulation's own limit, not how far the future may be from the past.",
];

const money2 = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
const share = (v: number) => v.toFixed(4);
const interval = ([lo, hi]: [number, number]) => [share(lo), share(hi)] as [string, string];
const histogramView = (h: Histogram) => ({ from: money2(h.from), width: money2(h.width), counts: h.counts });

/** The period's closed trades with a 1R, oldest first: their R multiples, and how many trading days they closed on. */
async function sampledR(deps: Pick<Deps, "db">, user: AuthUser, body: MonteCarloBody) {
  const { accountId, currency, from, to } = body;
  const scoped = await scope(deps, user, { accountId, currency, from, to }, { inBase: true });
  const rows = rowsOf<{ r: number; day: string }>(
    await deps.db.execute(sql`select (${R_MULTIPLE})::float8 as r, (p.closed_at at time zone a.timezone)::date::text as day
      from ${scoped.closed} and ${R_MULTIPLE} is not null order by p.closed_at, p.id`),
  );
  return { r: rows.map((x) => Number(x.r)), days: new Set(rows.map((x) => x.day)).size };
}

export async function runMonteCarlo(deps: Pick<Deps, "db">, user: AuthUser, body: MonteCarloBody) {
  const { r, days } = await sampledR(deps, user, body);
  if (r.length < MIN_SAMPLED) {
    throw new AppError("VALIDATION_ERROR", `The period holds ${r.length} closed ${r.length === 1 ? "trade" : "trades"} with a 1R; a simulation needs at least ${MIN_SAMPLED}.`, {
      fields: [{ path: "from", message: `the period must hold at least ${MIN_SAMPLED} closed trades with a 1R (it holds ${r.length})` }],
    });
  }
  const blockSize = body.blockSize ?? Math.min(defaultBlockSize(r.length), body.trades);
  const seed = body.seed ?? Math.floor(Math.random() * 4_294_967_296);
  const startingBalance = Number(body.startingBalance);
  const riskPerTrade = Number(body.riskPerTrade);
  const ruinAt = Number(body.ruinAt ?? "0");
  const targetAt = body.targetAt === undefined ? null : Number(body.targetAt);
  const maxRuin = body.maxRuin ?? DEFAULT_MAX_RUIN;
  const common = { r, paths: body.paths, trades: body.trades, riskPerTrade, blockSize, seed };
  const result = monteCarlo({ ...common, startingBalance, ruinAt, targetAt, maxRuin });
  const level = (l: { riskPerTrade: number; medianFinal: number; ruinProbability: number }) => ({
    riskPerTrade: money2(l.riskPerTrade),
    medianFinal: money2(l.medianFinal),
    ruinProbability: share(l.ruinProbability),
  });
  const pct = (q: Record<string, number>) => Object.fromEntries(Object.entries(q).map(([k, v]) => [k, money2(v)]));
  return {
    sampled: r.length,
    blockSize,
    seed,
    paths: body.paths,
    trades: body.trades,
    riskPerTrade: money2(riskPerTrade),
    startingBalance: money2(startingBalance),
    ruinAt: money2(ruinAt),
    targetAt: targetAt === null ? null : money2(targetAt),
    final: pct(result.final) as Record<"p5" | "p25" | "p50" | "p75" | "p95", string>,
    maxDrawdown: pct(result.maxDrawdown) as Record<"p50" | "p95", string>,
    ruinProbability: share(result.ruined / body.paths),
    ruinCi: interval(wilson(result.ruined, body.paths)),
    targetProbability: targetAt === null ? null : share(result.reached / body.paths),
    targetCi: targetAt === null ? null : interval(wilson(result.reached, body.paths)),
    fan: result.fan.map(({ trade, ...q }) => ({ trade, ...(pct(q) as Record<"p5" | "p25" | "p50" | "p75" | "p95", string>) })),
    samplePaths: result.samplePaths.map((p) => p.map(money2)),
    histograms: { final: histogramView(result.histograms.final), maxDrawdown: histogramView(result.histograms.maxDrawdown) },
    sweep: {
      maxRuin: share(maxRuin),
      levels: result.sweep.levels.map(level),
      bestMedian: level(result.sweep.bestMedian),
      withinLimit: result.sweep.withinLimit === null ? null : money2(result.sweep.withinLimit),
    },
    prop: body.prop ? await propPart(deps, user, body, common, days) : null,
    assumptions: ASSUMPTIONS,
  };
}

/** The prop-firm part: chance to pass and to breach, days to a pass, and the fees expected until one. */
async function propPart(deps: Pick<Deps, "db">, user: AuthUser, body: MonteCarloBody, common: Omit<PropSimParams, "rules" | "tradesPerDay">, days: number) {
  const prop = body.prop!;
  let rules: Omit<PropRules, "dayStartsAt" | "dayZone" | "dailyLossIncludesOpen" | "maxContracts" | "dailyLossFrom"> & Partial<PropRules>;
  if (prop.rules) rules = prop.rules;
  else if (body.accountId) rules = await evaluationRules(deps, user, body.accountId);
  else {
    throw new AppError("VALIDATION_ERROR", "Give the evaluation's rules, or an account (accountId) that has an evaluation.", {
      fields: [{ path: "prop.rules", message: "is required without an accountId" }],
    });
  }
  const tradesPerDay = prop.tradesPerDay ?? Math.max(1, Math.round(common.r.length / Math.max(1, days)));
  const num = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const result = propMonteCarlo({
    ...common,
    tradesPerDay,
    rules: {
      startingBalance: Number(rules.startingBalance),
      profitTarget: num(rules.profitTarget),
      maxDrawdown: Number(rules.maxDrawdown),
      drawdownMode: rules.drawdownMode,
      dailyLossLimit: num(rules.dailyLossLimit),
      minTradingDays: rules.minTradingDays,
      consistencyPct: rules.consistencyPct,
      floorLocksAt: num(rules.floorLocksAt),
    },
  });
  const pass = result.passed / common.paths;
  const fee = prop.evaluationFee === undefined ? null : Number(prop.evaluationFee);
  return {
    tradesPerDay,
    passProbability: share(pass),
    passCi: interval(result.passCi),
    breachProbability: share(result.breached / common.paths),
    breachCi: interval(result.breachCi),
    undecidedProbability: share(result.undecided / common.paths),
    daysToPass: result.daysToPass ? { p50: result.daysToPass[0], p95: result.daysToPass[1] } : null,
    /** One attempt's fee over the chance an attempt passes: the expected attempts (a geometric count) times the fee. */
    expectedFeesUntilFunded: fee === null || result.passed === 0 ? null : money2(fee / pass),
    expectedAttempts: result.passed === 0 ? null : (1 / pass).toFixed(2),
  };
}
