// A trade's average cost and running P&L from its fills and bars (docs/charts.md, "The chart"): the server
// sends the average cost with the chart; the browser draws the running P&L (and steps it in a replay). Exact
// decimal units (lib/money.ts), average cost as the trades are built, the position held at a bar's start
// counting for that bar, as the excursions count it.
import { fromUnits, multiplyUnits, toUnits } from "../money.ts";

export type ChartFill = { id: string; t: string; side: "buy" | "sell"; quantity: string; price: string; role: "open" | "add" | "reduce" | "close" };
type ChartBar = { t: string; close: string };


/** The position's average cost after each fill while it is open (null once flat). */
export function averageCostLine(fills: readonly ChartFill[]) {
  let openQ = 0n;
  let cost = 0n;
  return fills.map((f) => {
    const q = toUnits(f.quantity);
    const px = toUnits(f.price);
    if (f.role === "open" || f.role === "add") {
      openQ += q;
      cost += multiplyUnits(q, px);
    } else if (openQ > 0n) {
      cost -= (cost * q) / openQ;
      openQ -= q;
    }
    return { t: f.t, price: openQ > 0n ? fromUnits((cost * 10n ** 10n) / openQ) : null };
  });
}

/**
 * The running P&L (gross) at each fill and at each bar's close while the trade was open, with the position
 * held at the bar's start, as the excursions count it.
 */
export function runningPnl(fills: readonly ChartFill[], bars: readonly ChartBar[], direction: "long" | "short", multiplier: string, closedAt: string | null) {
  const dir = direction === "long" ? 1n : -1n;
  const m = toUnits(multiplier);
  type Event = { at: number; kind: 0; bar: ChartBar } | { at: number; kind: 1; fill: ChartFill };
  const events: Event[] = [
    ...bars.map((b) => ({ at: Date.parse(b.t), kind: 0 as const, bar: b })),
    ...fills.map((f) => ({ at: Date.parse(f.t), kind: 1 as const, fill: f })),
  ].sort((a, b) => a.at - b.at || a.kind - b.kind);
  let openQ = 0n;
  let cost = 0n;
  let realised = 0n;
  const mark = (px: bigint) => realised + multiplyUnits(dir * (multiplyUnits(openQ, px) - cost), m);
  const out: Array<{ t: string; pnl: string }> = [];
  const end = closedAt ? Date.parse(closedAt) : Infinity;
  for (const e of events) {
    if (e.kind === 1) {
      const q = toUnits(e.fill.quantity);
      const px = toUnits(e.fill.price);
      if (e.fill.role === "open" || e.fill.role === "add") {
        openQ += q;
        cost += multiplyUnits(q, px);
      } else if (openQ > 0n) {
        const part = (cost * q) / openQ;
        realised += multiplyUnits(dir * (multiplyUnits(q, px) - part), m);
        cost -= part;
        openQ -= q;
      }
      out.push({ t: e.fill.t, pnl: fromUnits(mark(px)) });
    } else if (openQ > 0n && e.at < end) {
      out.push({ t: e.bar.t, pnl: fromUnits(mark(toUnits(e.bar.close))) });
    }
  }
  return out;
}
