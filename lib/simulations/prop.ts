// A prop-firm evaluation over the Monte Carlo's paths (docs/simulations.md, "Prop-firm pass probability"):
// each path is a fresh attempt under the evaluation's rules (lib/prop/engine.ts says what they mean), its
// trades the same blocks of the trader's own R as the Monte Carlo's, `tradesPerDay` of them a trading day.
//
// What a path cannot know, and so does not model: the open P&L inside a trade (each trade's result lands at
// once, so an intraday trailing floor trails the balance after each trade; a breach that a trade's worst
// moment would have caused is missed: the pass figure is an upper bound for intraday rules), contracts held
// (maxContracts), and the days a trader skips. Passing is judged at a day's end, as the engine does.
import type { DrawdownMode } from "../prop/engine.ts";
import { expand, quantile, wilson } from "./monte-carlo.ts";
import { randomIndices, seedState } from "./random.ts";

export type PropSimRules = {
  startingBalance: number;
  profitTarget: number | null;
  maxDrawdown: number;
  drawdownMode: DrawdownMode;
  dailyLossLimit: number | null;
  minTradingDays: number;
  consistencyPct: number | null;
  floorLocksAt: number | null;
};

export type PropSimParams = {
  r: ArrayLike<number>;
  paths: number;
  trades: number;
  riskPerTrade: number;
  blockSize: number;
  seed: number;
  tradesPerDay: number;
  rules: PropSimRules;
};

export type PropSimResult = {
  passed: number;
  breached: number;
  /** Neither within the path's trades. */
  undecided: number;
  /** Trading days to a pass, over the passing paths: [median, 95th percentile], null when none passed. */
  daysToPass: [number, number] | null;
  passCi: [number, number];
  breachCi: [number, number];
};

const PASSED = 1;
const BREACHED = 2;

export function propMonteCarlo(params: PropSimParams): PropSimResult {
  const { r, paths, trades, riskPerTrade: risk, blockSize, tradesPerDay, rules } = params;
  const rs = Float64Array.from(r as ArrayLike<number>);
  const n = rs.length;
  const start = rules.startingBalance;
  const intraday = rules.drawdownMode === "intraday_trailing" || rules.drawdownMode === "trailing_lock";
  const lockOffset = rules.floorLocksAt ?? (rules.drawdownMode === "trailing_lock" ? 0 : null);
  const lockAt = lockOffset === null || rules.drawdownMode === "static" ? null : start + lockOffset;
  const goal = rules.profitTarget;
  const dailyLimit = rules.dailyLossLimit;
  const share = rules.consistencyPct === null ? null : rules.consistencyPct / 100;

  const state = seedState(params.seed);
  const starts = new Uint32Array(Math.ceil(trades / blockSize));
  const idx = new Uint32Array(trades);
  const passDays: number[] = [];
  let passed = 0;
  let breached = 0;
  for (let path = 0; path < paths; path++) {
    randomIndices(state, starts, n);
    expand(starts, blockSize, n, idx);
    let balance = start;
    let floor = start - rules.maxDrawdown;
    let peak = start;
    let locked = false;
    let dayStart = start;
    let days = 0;
    let bestDay = 0;
    let outcome = 0;
    const lock = () => {
      if (lockAt !== null && floor >= lockAt) {
        floor = lockAt;
        locked = true;
      }
    };
    for (let t = 0; t < trades && outcome === 0; t++) {
      balance += risk * rs[idx[t]!]!;
      if (intraday && !locked && balance > peak) {
        peak = balance;
        floor = peak - rules.maxDrawdown;
        lock();
      }
      if (balance <= floor || (dailyLimit !== null && dayStart - balance >= dailyLimit)) {
        outcome = BREACHED;
        break;
      }
      // The day's end: the end-of-day trailing floor moves, then a pass is judged.
      if ((t + 1) % tradesPerDay === 0 || t + 1 === trades) {
        days++;
        bestDay = Math.max(bestDay, balance - dayStart);
        if (rules.drawdownMode === "eod_trailing" && !locked && balance > peak) {
          peak = balance;
          floor = peak - rules.maxDrawdown;
          lock();
        }
        const profit = balance - start;
        if (goal !== null && profit >= goal && days >= rules.minTradingDays && (share === null || bestDay <= share * profit)) {
          outcome = PASSED;
          passDays.push(days);
        }
        dayStart = balance;
      }
    }
    if (outcome === PASSED) passed++;
    else if (outcome === BREACHED) breached++;
  }
  passDays.sort((a, b) => a - b);
  return {
    passed,
    breached,
    undecided: paths - passed - breached,
    daysToPass: passDays.length ? [quantile(passDays, 0.5), quantile(passDays, 0.95)] : null,
    passCi: wilson(passed, paths),
    breachCi: wilson(breached, paths),
  };
}
