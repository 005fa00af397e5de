// Geometry of the equity curve: from the API's buckets (decimal strings) to SVG coordinates. The extremes
// are picked by exact decimal comparison, and the axis labels are those exact values; only the pixel
// positions go through Number, where a float's precision is far finer than a pixel.
import { compareDecimals, normalizeDecimal, subtractDecimals } from "../../lib/decimal.ts";

export type EquityPoint = { start: string; netPnl: string; equity: string; trades: number };

/** The period each point of the curve covers. */
export type Bucket = "day" | "week" | "month";

export type ChartBox = { width: number; height: number; top: number; right: number; bottom: number; left: number };

export type EquityGeometry = {
  /** One coordinate per point, in the order given. */
  coords: { x: number; y: number; point: EquityPoint }[];
  /** SVG path of the line ("M x y L x y ..."). */
  line: string;
  /** Closed path between the line and the zero line, for a light fill. */
  area: string;
  /** Vertical position of 0 (the axis always includes it: the curve starts from nothing). */
  zeroY: number;
  /** The exact highest and lowest values drawn (including 0). */
  max: string;
  min: string;
};

const round = (n: number) => Math.round(n * 100) / 100;

export function scaleEquity(points: readonly EquityPoint[], box: ChartBox): EquityGeometry {
  let max = "0";
  let min = "0";
  for (const p of points) {
    if (compareDecimals(p.equity, max) > 0) max = p.equity;
    if (compareDecimals(p.equity, min) < 0) min = p.equity;
  }
  const innerW = box.width - box.left - box.right;
  const innerH = box.height - box.top - box.bottom;
  const hi = Number(max);
  const lo = Number(min);
  const span = hi - lo;
  // A flat curve (all zero) is drawn along the middle rather than dividing by zero.
  const y = (v: number) => (span === 0 ? box.top + innerH / 2 : box.top + ((hi - v) / span) * innerH);
  // One point sits in the middle; several are spread edge to edge in bucket order (gaps between buckets
  // are not drawn as time: a weekend is not a flat stretch).
  const x = (i: number) => (points.length <= 1 ? box.left + innerW / 2 : box.left + (i / (points.length - 1)) * innerW);
  const coords = points.map((point, i) => ({ x: round(x(i)), y: round(y(Number(point.equity))), point }));
  const zeroY = round(y(0));
  const line = coords.map((c, i) => `${i === 0 ? "M" : "L"}${c.x} ${c.y}`).join(" ");
  const area = coords.length ? `${line} L${coords[coords.length - 1]!.x} ${zeroY} L${coords[0]!.x} ${zeroY} Z` : "";
  return { coords, line, area, zeroY, max, min };
}

/** At most `count` evenly spread indexes (always the first and the last), for the x-axis labels. */
export function labelIndexes(length: number, count: number): number[] {
  if (length <= 0) return [];
  if (length <= count) return Array.from({ length }, (_, i) => i);
  const out = new Set<number>();
  for (let k = 0; k < count; k++) out.add(Math.round((k * (length - 1)) / (count - 1)));
  return [...out];
}

/**
 * The drawdown at each point, exactly: how far the cumulative P&L stands below its highest value so far
 * (the curve starts at 0, so the first peak is at least 0). 0 at a new high, negative below it.
 */
export function drawdowns(points: readonly EquityPoint[]): string[] {
  let peak = "0";
  return points.map((p) => {
    if (compareDecimals(p.equity, peak) > 0) peak = p.equity;
    return normalizeDecimal(subtractDecimals(p.equity, peak));
  });
}

/** The deepest drawdown of the curve (0 or negative). */
export function maxDrawdown(points: readonly EquityPoint[]): string {
  return drawdowns(points).reduce((low, d) => (compareDecimals(d, low) < 0 ? d : low), "0");
}

/**
 * How many periods the curve has and what they hold: a period appears when a trade closed in it, or when only
 * fees or a partial exit of a trade still open moved its P&L, and those are counted apart.
 */
export function periodsLine(points: readonly EquityPoint[], bucket: Bucket): string {
  const plural = (n: number) => `${n} ${bucket}${n === 1 ? "" : "s"}`;
  const closed = points.filter((p) => p.trades > 0).length;
  const other = points.length - closed;
  return `${plural(closed)} with closed trades${other ? `, ${plural(other)} with only fees or partial exits of open trades` : ""}.`;
}
