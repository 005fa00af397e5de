// The Monte Carlo of a trader's own R multiples (DESIGN.md section 11, "Simulations and what-if";
// docs/simulations.md). Pure arithmetic over numbers: the route reads the R multiples (simulations.ts).
//
// Each path takes `trades` trades, drawn as blocks of `blockSize` consecutive trades of the sampled history
// (a circular block bootstrap: a block starts at any trade with the same chance and wraps past the last),
// each trade risking `riskPerTrade` of money: a trade of R = 1.5 makes 1.5 x riskPerTrade. Block size 1 is
// independent resampling. Blocks keep what independent draws break up: losing streaks, a bad week, a regime.
//
// A path is computed in R (its running sum), so one pass serves every risk: equity = start + risk x R so far.
// - Ruin: the equity at or below `ruinAt`. The path stops there (a ruined trader does not trade on); its final
//   equity is the equity of the trade that ruined it.
// - Target: the equity at or above `targetAt` at some trade before any ruin.
// - Max drawdown: the deepest fall of the equity below its running peak (the start counts as a peak), up to ruin.
// - The sweep: per path the lowest running R and the final R (played to the end) give, for any risk x, whether
//   the path is ruined (start + x * lowest <= ruinAt) and its final equity; the largest risk that keeps ruin
//   under `maxRuin` is then a quantile of the paths' own ruinous risks, exact for these paths.
import { randomIndices, seedState } from "./random.ts";

export type MonteCarloParams = {
  /** The sampled trades' R multiples, oldest first. */
  r: ArrayLike<number>;
  paths: number;
  trades: number;
  riskPerTrade: number;
  startingBalance: number;
  blockSize: number;
  seed: number;
  ruinAt: number;
  targetAt: number | null;
  /** The trader's limit on the probability of ruin, for the sweep. */
  maxRuin: number;
};

/** The 95 % two-sided normal quantile. */
const Z95 = 1.959963984540054;

/** Wilson's score interval (95 %) for `k` successes in `n` trials: [lo, hi]. */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (Z95 / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The p-quantile of an ascending array (linear between the two nearest ranks, Hyndman & Fan's type 7). */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** The k-th smallest value (0-based) of `a`, reordering it (Hoare's selection, expected linear time). */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** The median (type 7) of `a`, reordering it. */
function median(a: Float64Array): number {
  const n = a.length;
  const lo = select(a, (n - 1) >>> 1);
  if (n % 2 === 1) return lo;
  let hi = Number.POSITIVE_INFINITY;
  for (let i = n >>> 1; i < n; i++) if (a[i]! < hi) hi = a[i]!;
  return (lo + hi) / 2;
}

export type Histogram = { from: number; width: number; counts: number[] };

/** `bins` equal bins from the smallest to the largest value of an ascending array. */
export function histogram(sorted: Float64Array, bins: number): Histogram {
  const from = sorted[0] ?? 0;
  const to = sorted[sorted.length - 1] ?? 0;
  const width = to > from ? (to - from) / bins : 1;
  const counts = new Array<number>(bins).fill(0);
  for (const v of sorted) counts[Math.min(bins - 1, Math.floor((v - from) / width))]! += 1;
  return { from, width, counts };
}

/** Paths kept for the fan chart (their equity at each checkpoint), and checkpoints along a path at most. */
export const FAN_PATHS = 2000;
export const FAN_POINTS = 100;
export const HISTOGRAM_BINS = 40;

/** The sweep's risks: these shares of the starting balance, with the trader's own risk and the largest within the limit. */
export const SWEEP_SHARES = [0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2];

export type SweepLevel = { riskPerTrade: number; medianFinal: number; ruinProbability: number };

export type MonteCarloResult = {
  final: { p5: number; p25: number; p50: number; p75: number; p95: number };
  maxDrawdown: { p50: number; p95: number };
  ruined: number;
  reached: number;
  fan: Array<{ trade: number; p5: number; p25: number; p50: number; p75: number; p95: number }>;
  samplePaths: number[][];
  histograms: { final: Histogram; maxDrawdown: Histogram };
  sweep: { levels: SweepLevel[]; bestMedian: SweepLevel; withinLimit: number | null };
  /** Every path's final equity, ascending (for the tests; the route answers with percentiles). */
  finals: Float64Array;
};

/** The default block: the cube root of the sampled trades (docs/simulations.md says why), at least 1. */
export function defaultBlockSize(sampled: number): number {
  return Math.max(1, Math.round(Math.cbrt(sampled)));
}

/** What walk leaves in `out`: the R at the end (where ruin stopped it), the deepest fall, the lowest R, the R played to the end, ruined (1), reached (1). */
const PATH_FIELDS = 6;

/**
 * One path in R over the trades `idx` (indices into `rs`), stopping at each of `stops` (ascending trade counts,
 * the last = all of them) to call `at(k, r)` with the path's R then. Stops counting at ruin (its R stays where it
 * crossed) but plays on in `out[2]` and `out[3]` for the sweep. Branch-free where the data decides.
 */
function walk(rs: Float64Array, idx: Uint32Array, ruinR: number, targetR: number, out: Float64Array, stops: ArrayLike<number>, at: ((k: number, r: number) => void) | null): void {
  let cum = 0;
  let peak = 0;
  let deepest = 0;
  let low = 0;
  let alive = true;
  let hit = false;
  let crossed = 0;
  let t = 0;
  for (let k = 0; k < stops.length; k++) {
    for (const end = stops[k]!; t < end; t++) {
      cum += rs[idx[t]!]!;
      low = Math.min(low, cum);
      if (alive) {
        peak = Math.max(peak, cum);
        deepest = Math.max(deepest, peak - cum);
        if (cum <= ruinR) {
          alive = false;
          crossed = cum;
        } else if (cum >= targetR) hit = true;
      }
    }
    if (at) at(k, alive ? cum : crossed);
  }
  out[0] = alive ? cum : crossed;
  out[1] = deepest;
  out[2] = low;
  out[3] = cum;
  out[4] = alive ? 0 : 1;
  out[5] = hit ? 1 : 0;
}

/** A path's trades: `starts.length` blocks of `blockSize` consecutive trades of `n` (wrapping past the last), cut at `idx.length`. */
export function expand(starts: Uint32Array, blockSize: number, n: number, idx: Uint32Array): void {
  if (blockSize === 1) {
    idx.set(starts);
    return;
  }
  const trades = idx.length;
  for (let b = 0, t = 0; b < starts.length; b++) {
    let pos = starts[b]!;
    for (let k = 0; k < blockSize && t < trades; k++, t++) {
      idx[t] = pos;
      if (++pos === n) pos = 0;
    }
  }
}

/** Runs the paths (one loop over numbers: the hot path of 100 million trades) and summarises them. */
export function monteCarlo(params: MonteCarloParams): MonteCarloResult {
  const { r, paths, trades, riskPerTrade: risk, startingBalance: start, blockSize } = params;
  const n = r.length;
  const rs = Float64Array.from(r as ArrayLike<number>);
  // Thresholds in R: ruined at or below, reached at or above.
  const ruinR = (params.ruinAt - start) / risk;
  const targetR = params.targetAt === null ? Number.POSITIVE_INFINITY : (params.targetAt - start) / risk;

  const finals = new Float64Array(paths);
  const drawdowns = new Float64Array(paths);
  const lowest = new Float64Array(paths);
  const ends = new Float64Array(paths);
  let ruined = 0;
  let reached = 0;

  const fanPaths = Math.min(paths, FAN_PATHS);
  const points = Math.min(trades, FAN_POINTS);
  const checkpoints = Array.from({ length: points + 1 }, (_, k) => Math.round((k * trades) / points));
  const fan = new Float64Array(fanPaths * (points + 1));
  // Each path draws its blocks' starts (one batch of uniform indices) and walks the trades they make.
  const state = seedState(params.seed);
  const starts = new Uint32Array(Math.ceil(trades / blockSize));
  const idx = new Uint32Array(trades);
  const out = new Float64Array(PATH_FIELDS);
  const all = [trades];
  const stops = checkpoints.slice(1);
  let row = 0;
  const toFan = (k: number, cum: number) => {
    fan[row + k + 1] = start + risk * cum;
  };

  for (let path = 0; path < paths; path++) {
    randomIndices(state, starts, n);
    expand(starts, blockSize, n, idx);
    const keep = path < fanPaths;
    row = path * (points + 1);
    if (keep) fan[row] = start;
    walk(rs, idx, ruinR, targetR, out, keep ? stops : all, keep ? toFan : null);
    if (out[4] === 1) ruined++;
    if (out[5] === 1) reached++;
    finals[path] = start + risk * out[0]!;
    drawdowns[path] = risk * out[1]!;
    lowest[path] = out[2]!;
    ends[path] = out[3]!;
  }

  finals.sort();
  drawdowns.sort();
  const fanRows = checkpoints.map((trade, k) => {
    const column = new Float64Array(fanPaths);
    for (let p = 0; p < fanPaths; p++) column[p] = fan[p * (points + 1) + k]!;
    column.sort();
    return { trade, p5: quantile(column, 0.05), p25: quantile(column, 0.25), p50: quantile(column, 0.5), p75: quantile(column, 0.75), p95: quantile(column, 0.95) };
  });
  const samplePaths = Array.from({ length: Math.min(fanPaths, 20) }, (_, p) => Array.from(fan.subarray(p * (points + 1), (p + 1) * (points + 1))));

  return {
    final: { p5: quantile(finals, 0.05), p25: quantile(finals, 0.25), p50: quantile(finals, 0.5), p75: quantile(finals, 0.75), p95: quantile(finals, 0.95) },
    maxDrawdown: { p50: quantile(drawdowns, 0.5), p95: quantile(drawdowns, 0.95) },
    ruined,
    reached,
    fan: fanRows,
    samplePaths,
    histograms: { final: histogram(finals, HISTOGRAM_BINS), maxDrawdown: histogram(drawdowns, HISTOGRAM_BINS) },
    sweep: sweep(params, lowest, ends),
    finals,
  };
}

/**
 * Median final equity and probability of ruin at each risk of the sweep, from each path's lowest and final R.
 * A ruined path counts at `ruinAt` (every ruined path ends at or below it and every other above it, so the
 * median is exact while ruin stays under half, and is `ruinAt` once it does not).
 */
function sweep(params: MonteCarloParams, lowest: Float64Array, ends: Float64Array): MonteCarloResult["sweep"] {
  const { startingBalance: start, ruinAt, paths, maxRuin } = params;
  const room = start - ruinAt;
  // The risk from which a path is ruined: room / -lowest (never, for a path that never went below its start).
  const ruinous = new Float64Array(paths);
  for (let i = 0; i < paths; i++) ruinous[i] = lowest[i]! < 0 ? room / -lowest[i]! : Number.POSITIVE_INFINITY;
  ruinous.sort();
  // Ruined at x when x >= a path's ruinous risk: at most floor(maxRuin * paths) paths ruined below the next one.
  const allowed = Math.floor(maxRuin * paths + 1e-9);
  const limit = allowed >= paths ? Number.POSITIVE_INFINITY : ruinous[allowed]!;
  const withinLimit = Number.isFinite(limit) ? Math.floor(limit * 100 - 1e-6) / 100 : null;

  const risks = new Set(SWEEP_SHARES.map((s) => Math.round(start * s * 100) / 100));
  risks.add(params.riskPerTrade);
  if (withinLimit !== null && withinLimit > 0) risks.add(withinLimit);
  const values = new Float64Array(paths);
  const levels = [...risks]
    .filter((x) => x > 0)
    .sort((a, b) => a - b)
    .map((x) => {
      let ruinedHere = 0;
      for (let i = 0; i < paths; i++) {
        const gone = x * lowest[i]! <= -room;
        if (gone) ruinedHere++;
        values[i] = gone ? ruinAt : start + x * ends[i]!;
      }
      return { riskPerTrade: x, medianFinal: median(values), ruinProbability: ruinedHere / paths };
    });
  const bestMedian = levels.reduce((best, l) => (l.medianFinal > best.medianFinal ? l : best), levels[0]!);
  return { levels, bestMedian, withinLimit };
}
