// The response shapes of the simulations (docs/simulations.md) for the OpenAPI document.
import * as z from "zod/mini";
import { day, decimal, id, missingRates, statsCurrency } from "../fields.ts";
import { StatsSummarySchema } from "../stats/responses.ts";

const probability = () => z.string().check(z.regex(/^\d\.\d{4}$/), z.describe("A probability, 4 decimals"));
const quantiles = () => z.object({ p5: decimal(), p25: decimal(), p50: decimal(), p75: decimal(), p95: decimal() });
const histogram = () => z.object({ from: decimal(), width: decimal(), counts: z.array(z.number()) });
const sweepLevel = () => z.object({ riskPerTrade: decimal(), medianFinal: decimal(), ruinProbability: probability() });

/** POST /api/simulations/monte-carlo (docs/simulations.md). */
export const MonteCarloResultSchema = z.object({
  sampled: z.number().check(z.describe("The closed trades with a 1R of the period that were resampled")),
  blockSize: z.number(),
  seed: z.number().check(z.describe("The generator's seed: the same body with this seed gives the same answer")),
  paths: z.number(),
  trades: z.number(),
  riskPerTrade: decimal(),
  startingBalance: decimal(),
  ruinAt: decimal(),
  targetAt: z.nullable(decimal()),
  final: quantiles(),
  maxDrawdown: z.object({ p50: decimal(), p95: decimal() }),
  ruinProbability: probability(),
  ruinCi: z.array(probability()).check(z.describe("Wilson 95% interval")),
  targetProbability: z.nullable(probability()),
  targetCi: z.nullable(z.array(probability())),
  fan: z.array(z.extend(quantiles(), { trade: z.number() })).check(z.describe("Equity percentiles along the paths (of the first 2000 paths), at most 101 points")),
  samplePaths: z.array(z.array(decimal())).check(z.describe("Up to 20 paths' equity at the fan's points")),
  histograms: z.object({ final: histogram(), maxDrawdown: histogram() }),
  sweep: z.object({
    maxRuin: probability(),
    levels: z.array(sweepLevel()),
    bestMedian: sweepLevel(),
    withinLimit: z.nullable(decimal()).check(z.describe("The largest risk per trade whose probability of ruin stays within maxRuin; null when none ruins")),
  }),
  prop: z.nullable(
    z.object({
      tradesPerDay: z.number(),
      passProbability: probability(),
      passCi: z.array(probability()),
      breachProbability: probability(),
      breachCi: z.array(probability()),
      undecidedProbability: probability(),
      daysToPass: z.nullable(z.object({ p50: z.number(), p95: z.number() })),
      expectedFeesUntilFunded: z.nullable(decimal()),
      expectedAttempts: z.nullable(z.string()),
    }),
  ),
  assumptions: z.array(z.string()),
});

/** A what-if side: the statistics summary's figures (lib/simulations/what-if.ts computes them with the same arithmetic). */
const whatIfSummary = () => z.omit(StatsSummarySchema, { currency: true, missingRates: true });

/** GET /api/stats/what-if (docs/simulations.md). */
export const WhatIfSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  exclude: z.array(z.string()),
  exit: z.enum(["actual", "stop", "target", "best"]),
  actual: whatIfSummary().check(z.describe("The period's closed trades as they were, each whole at its close")),
  whatIf: whatIfSummary().check(z.describe("The same without the trades excluded and with the exits replaced")),
  removed: z.number(),
  changed: z.number(),
  curves: z.array(z.object({ date: day(), actual: decimal(), whatIf: decimal() })).check(z.describe("Cumulative net at the end of each day a trade closed")),
  trades: z
    .array(z.object({ id: id(), symbol: z.string(), closedAt: z.string(), netPnl: decimal(), whatIfPnl: z.nullable(decimal()), removedFor: z.array(z.string()) }))
    .check(z.describe("The trades removed or changed, newest first, at most 200")),
});
