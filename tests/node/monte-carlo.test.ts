// The Monte Carlo's arithmetic (issue 57, docs/simulations.md): seeds, ruin where the arithmetic puts it, a
// known distribution's median within its analytic band, block size 1 as independent resampling (a
// two-sample Kolmogorov-Smirnov test at a fixed seed), the sweep's risk limit, and prop-firm attempts.
import { describe, expect, it } from "vitest";
import { monteCarlo, quantile, wilson, type MonteCarloParams } from "../../lib/simulations/monte-carlo.ts";
import { propMonteCarlo, type PropSimRules } from "../../lib/simulations/prop.ts";

const base = (r: number[], over: Partial<MonteCarloParams> = {}): MonteCarloParams => ({
  r,
  paths: 2000,
  trades: 100,
  riskPerTrade: 100,
  startingBalance: 10_000,
  blockSize: 1,
  seed: 7,
  ruinAt: 0,
  targetAt: null,
  maxRuin: 0.01,
  ...over,
});

/** The largest gap between two samples' empirical distribution functions. */
function ks(a: Float64Array, b: Float64Array): number {
  a.sort();
  b.sort();
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < a.length && j < b.length) {
    const x = Math.min(a[i]!, b[j]!);
    while (i < a.length && a[i]! <= x) i++;
    while (j < b.length && b[j]! <= x) j++;
    d = Math.max(d, Math.abs(i / a.length - j / b.length));
  }
  return d;
}

/** Independent resampling, written apart from the simulation: Mulberry32 (another generator), one trade at a time. */
function independentFinals(r: number[], paths: number, trades: number, seed: number): Float64Array {
  let s = seed >>> 0;
  const random = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float64Array(paths);
  for (let p = 0; p < paths; p++) {
    let sum = 0;
    for (let t = 0; t < trades; t++) sum += r[Math.floor(random() * r.length)]!;
    out[p] = sum;
  }
  return out;
}

/** Each path's final R from the simulation (its final equity with 1 risked a trade, less the start). */
function simulatedFinals(r: number[], paths: number, trades: number, blockSize: number, seed: number): Float64Array {
  const { finals } = monteCarlo(base(r, { paths, trades, blockSize, seed, riskPerTrade: 1, startingBalance: 1e6, ruinAt: 0 }));
  return finals.map((v) => v - 1e6);
}

describe("the Monte Carlo", () => {
  const mixed = Array.from({ length: 60 }, (_, i) => [2.5, -1, -1, 1.2, -0.4, 0.8][i % 6]! + (i % 5) * 0.05);

  it("gives the same answer for the same seed, and another for another seed", () => {
    const a = monteCarlo(base(mixed, { blockSize: 4, targetAt: 12_000 }));
    const b = monteCarlo(base(mixed, { blockSize: 4, targetAt: 12_000 }));
    expect(b).toEqual(a);
    expect(monteCarlo(base(mixed, { blockSize: 4, targetAt: 12_000, seed: 8 })).final).not.toEqual(a.final);
  });

  it("never ruins a trader of only winners; ruins one of only losers exactly when the arithmetic says", () => {
    const winners = monteCarlo(base(Array.from({ length: 20 }, (_, i) => 0.5 + i / 10), { ruinAt: 9_999 }));
    expect(winners.ruined).toBe(0);
    expect(winners.sweep.withinLimit).toBeNull();
    // 10,000 risking 100 a trade at -1 R: 5,000 is reached on the 50th loss, not before.
    const losers = Array.from({ length: 20 }, () => -1);
    expect(monteCarlo(base(losers, { trades: 49, ruinAt: 5_000 })).ruined).toBe(0);
    const ruined = monteCarlo(base(losers, { trades: 50, ruinAt: 5_000 }));
    expect(ruined.ruined).toBe(2000);
    expect(ruined.final.p50).toBe(5_000);
    // The sweep: every path is ruined from a risk of exactly 100 on; 99.99 is the largest within 1 %.
    expect(ruined.sweep.withinLimit).toBe(99.99);
    expect(ruined.sweep.levels.find((l) => l.riskPerTrade === 100)?.ruinProbability).toBe(1);
    expect(ruined.sweep.levels.find((l) => l.riskPerTrade === 99.99)?.ruinProbability).toBe(0);
  });

  it("puts a known two-point distribution's median final equity inside its analytic band", () => {
    // +2 R or -1 R with equal chance over 101 trades: final R = 3W - 101, W ~ Binomial(101, 1/2), whose
    // median is 50 or 51: the median final equity lies between 10,000 + 100 x 49 and 10,000 + 100 x 52.
    const r = Array.from({ length: 20 }, (_, i) => (i % 2 ? 2 : -1));
    const result = monteCarlo(base(r, { paths: 20_001, trades: 101, seed: 2024 }));
    expect(result.final.p50).toBeGreaterThanOrEqual(14_900);
    expect(result.final.p50).toBeLessThanOrEqual(15_200);
    // The mean of W is 50.5 and its standard deviation sqrt(101)/2: the 5th and 95th percentiles of the
    // final equity sit near 10,000 + 100 x (3 x (50.5 -/+ 1.645 x 5.025) - 101).
    expect(Math.abs(result.final.p5 - (10_000 + 100 * (3 * (50.5 - 1.645 * 5.025) - 101)))).toBeLessThan(400);
    expect(Math.abs(result.final.p95 - (10_000 + 100 * (3 * (50.5 + 1.645 * 5.025) - 101)))).toBeLessThan(400);
  });

  it("with block size 1 draws as independent resampling does (Kolmogorov-Smirnov, alpha 0.001); blocks of a streaky record do not", () => {
    const r = Array.from({ length: 40 }, (_, i) => (i < 20 ? -1 : 1.5) + (i % 7) * 0.1);
    const paths = 4000;
    const critical = 1.949 * Math.sqrt((2 * paths) / (paths * paths));
    const iid = independentFinals(r, paths, 50, 99);
    expect(ks(simulatedFinals(r, paths, 50, 1, 5), iid)).toBeLessThan(critical);
    // The same record in blocks of 10 keeps its streaks: the spread of outcomes widens, and the test sees it.
    expect(ks(simulatedFinals(r, paths, 50, 10, 5), independentFinals(r, paths, 50, 99))).toBeGreaterThan(critical);
  });

  it("measures the drawdown below the running peak and reports target hits", () => {
    // Alternating +1, -3 (block 2 from an even start or odd start): the deepest fall is at least 3 R.
    const r = Array.from({ length: 20 }, (_, i) => (i % 2 ? -3 : 1));
    const result = monteCarlo(base(r, { trades: 10, targetAt: 10_100 }));
    expect(result.maxDrawdown.p50).toBeGreaterThanOrEqual(300);
    expect(result.reached).toBeGreaterThan(0);
    expect(result.reached).toBeLessThan(2000);
  });

  it("computes Wilson intervals and quantiles as published", () => {
    // Wilson's interval for 0 of 10 is [0, 0.2775]; for 5 of 10, [0.2366, 0.7634].
    expect(wilson(0, 10).map((v) => v.toFixed(4))).toEqual(["0.0000", "0.2775"]);
    expect(wilson(5, 10).map((v) => v.toFixed(4))).toEqual(["0.2366", "0.7634"]);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });
});

describe("prop-firm attempts", () => {
  const rules = (over: Partial<PropSimRules> = {}): PropSimRules => ({
    startingBalance: 50_000,
    profitTarget: 3_000,
    maxDrawdown: 2_000,
    drawdownMode: "static",
    dailyLossLimit: null,
    minTradingDays: 2,
    consistencyPct: null,
    floorLocksAt: null,
    ...over,
  });
  const run = (r: number[], over: Partial<PropSimRules> = {}, tradesPerDay = 3) =>
    propMonteCarlo({ r, paths: 500, trades: 30, riskPerTrade: 500, blockSize: 1, seed: 3, tradesPerDay, rules: rules(over) });

  it("passes at the end of the day the target and the days are met", () => {
    const result = run(Array.from({ length: 20 }, () => 1));
    expect(result).toMatchObject({ passed: 500, breached: 0, daysToPass: [2, 2] });
    // Three trading days at least: the third day's end.
    expect(run(Array.from({ length: 20 }, () => 1), { minTradingDays: 3 }).daysToPass).toEqual([3, 3]);
    // One trade a day at +500: the target's 3,000 on the 6th day.
    expect(run(Array.from({ length: 20 }, () => 1), {}, 1).daysToPass).toEqual([6, 6]);
  });

  it("breaches on the trade that reaches the floor or the daily loss limit", () => {
    expect(run(Array.from({ length: 20 }, () => -1))).toMatchObject({ passed: 0, breached: 500, daysToPass: null });
    // The floor at 48,000 is reached by the 4th loss; with a daily limit of 1,000, the 2nd (same day).
    expect(run(Array.from({ length: 20 }, () => -1), { dailyLossLimit: 1_000, maxDrawdown: 5_000 }).breached).toBe(500);
  });

  it("holds a pass back while the consistency rule fails", () => {
    // +500 a day against a 1,000 target: met on day 2, when the best day is 50 % of the profit. A 40 % rule
    // waits for day 3 (500 <= 40 % of 1,500).
    const steady = Array.from({ length: 20 }, () => 1);
    expect(run(steady, { profitTarget: 1_000, minTradingDays: 1, consistencyPct: 50 }, 1).daysToPass).toEqual([2, 2]);
    expect(run(steady, { profitTarget: 1_000, minTradingDays: 1, consistencyPct: 40 }, 1).daysToPass).toEqual([3, 3]);
  });
});
