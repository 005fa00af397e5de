// What the trade chart draws (docs/charts.md, "The chart"), from GET /api/trades/:id/chart, up to a replay
// position: the candles, a marker per fill on the bar it happened in, the average-cost line, the running
// P&L (computed here, lib/market/running-pnl.ts). Pure functions, so the replay's steps are tested without a canvas.
import { runningPnl, type ChartFill } from "../../../../lib/market/running-pnl.ts";

export type ChartBar = { t: string; open: string; high: string; low: string; close: string; volume: string };
export type { ChartFill };
export type ChartData = {
  bars: ChartBar[];
  fills: ChartFill[];
  averageCost: Array<{ t: string; price: string | null }>;
  direction: "long" | "short";
  multiplier: string;
  closedAt: string | null;
};

const pnlCache = new WeakMap<ChartData, Array<{ t: string; pnl: string }>>();

/** The running P&L after each fill and at each bar's close while open (once per answer). */
export function pnlOf(data: ChartData) {
  let pnl = pnlCache.get(data);
  if (!pnl) {
    pnl = runningPnl(data.fills, data.bars, data.direction, data.multiplier, data.closedAt);
    pnlCache.set(data, pnl);
  }
  return pnl;
}

/** Seconds since the epoch, as lightweight-charts takes time. */
export const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The index of the bar an instant falls in (the last bar starting at or before it), -1 before the first. */
export function barIndexAt(bars: readonly ChartBar[], iso: string): number {
  const t = Date.parse(iso);
  let lo = 0;
  let hi = bars.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (Date.parse(bars[mid]!.t) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Where a replay starts: the bar before the one of the first fill (or the first bar). */
export function replayStart(data: ChartData): number {
  const first = data.fills[0];
  if (!first || !data.bars.length) return 0;
  return Math.max(0, barIndexAt(data.bars, first.t) - 1);
}

/** The time a point is drawn at: its bar's start with bars, else its own second. */
function drawnAt(data: ChartData, iso: string): number | null {
  if (!data.bars.length) return seconds(iso);
  const i = barIndexAt(data.bars, iso);
  return i < 0 ? null : seconds(data.bars[i]!.t);
}

/** The last value per drawn time, in time order (lightweight-charts takes one point per time). */
function perTime<T>(points: ReadonlyArray<{ time: number | null; value: T }>): Array<{ time: number; value: T }> {
  const byTime = new Map<number, T>();
  for (const p of points) if (p.time !== null) byTime.set(p.time, p.value);
  return [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([time, value]) => ({ time, value }));
}

/**
 * The series up to `upTo` (a bar index; the whole chart when undefined): what has happened by the end of that
 * bar. Without bars, the path through the fills stands for the price.
 */
export function seriesUpTo(data: ChartData, upTo?: number) {
  const end = upTo === undefined || !data.bars.length ? Infinity : Date.parse(data.bars[upTo]!.t) + (upTo + 1 < data.bars.length ? Date.parse(data.bars[upTo + 1]!.t) - Date.parse(data.bars[upTo]!.t) : 60_000);
  const seen = (iso: string) => Date.parse(iso) < end;
  const candles = (upTo === undefined ? data.bars : data.bars.slice(0, upTo + 1)).map((b) => ({
    time: seconds(b.t),
    open: Number(b.open),
    high: Number(b.high),
    low: Number(b.low),
    close: Number(b.close),
  }));
  const fills = data.fills.filter((f) => seen(f.t));
  const path = perTime(fills.map((f) => ({ time: seconds(f.t), value: Number(f.price) })));
  const markers = fills.flatMap((f) => {
    const time = drawnAt(data, f.t);
    if (time === null) return [];
    const buy = f.side === "buy";
    return [{ time, position: buy ? ("belowBar" as const) : ("aboveBar" as const), shape: buy ? ("arrowUp" as const) : ("arrowDown" as const), buy, text: `${buy ? "B" : "S"} ${Number(f.quantity)}`, id: f.id }];
  });
  const cost = perTime(data.averageCost.filter((a) => seen(a.t)).map((a) => ({ time: drawnAt(data, a.t), value: a.price === null ? null : Number(a.price) })));
  const sofar = pnlOf(data).filter((p) => seen(p.t));
  const pnl = perTime(sofar.map((p) => ({ time: drawnAt(data, p.t), value: Number(p.pnl) })));
  const lastPnl = sofar.at(-1)?.pnl ?? null;
  return { candles, path, markers, cost, pnl, fills, lastPnl, finished: upTo === undefined || upTo >= data.bars.length - 1 };
}

/** The fills of the bar at a drawn time (the chart's hover). */
export function fillsAt(data: ChartData, time: number): ChartFill[] {
  return data.fills.filter((f) => drawnAt(data, f.t) === time);
}
