// A trade's average cost and running P&L from its fills and bars (docs/charts.md, "The chart"): the server
// sends the average cost with the chart; the browser draws the running P&L (and steps it in a replay). Exact
// decimal units (lib/money.ts), average cost as the trades are built, the position held at a bar's start
// counting for that bar, as the excursions count it.
import { fromUnits, multiplyUnits, toUnits } from "../money.ts";

export type ChartFill = { id: string; t: string; side: "buy" | "sell"; quantity: string; price: string; role: "open" | "add" | "reduce" | "close" };
type ChartBar = { t: string; close: string };

/**
 * The position as the trade's fills build it, at average cost: the open quantity, its cost and the gross
 * P&L realised so far, in decimal units. `apply` takes one fill; `mark` the P&L with the rest at a price.
 */
function position(direction: "long" | "short", multiplier: string) {
  const dir = direction === "long" ? 1n : -1n;
  const m = toUnits(multiplier);
  const p = {
    openQ: 0n,
    cost: 0n,
    realised: 0n,
    apply(f: ChartFill) {
      const q = toUnits(f.quantity);
      const px = toUnits(f.price);
      if (f.role === "open" || f.role === "add") {
        p.openQ += q;
        p.cost += multiplyUnits(q, px);
      } else if (p.openQ > 0n) {
        const part = (p.cost * q) / p.openQ;
        p.realised += multiplyUnits(dir * (multiplyUnits(q, px) - part), m);
        p.cost -= part;
        p.openQ -= q;
      }
      return px;
    },
    mark: (px: bigint) => p.realised + multiplyUnits(dir * (multiplyUnits(p.openQ, px) - p.cost), m),
  };
  return p;
}

/** The position's average cost after each fill while it is open (null once flat). */
export function averageCostLine(fills: readonly ChartFill[]) {
  const p = position("long", "1");
  return fills.map((f) => {
    p.apply(f);
    return { t: f.t, price: p.openQ > 0n ? fromUnits((p.cost * 10n ** 10n) / p.openQ) : null };
  });
}

/**
 * The running P&L (gross) at each fill and at each bar's close while the trade was open, with the position
 * held at the bar's start, as the excursions count it.
 */
export function runningPnl(fills: readonly ChartFill[], bars: readonly ChartBar[], direction: "long" | "short", multiplier: string, closedAt: string | null) {
  type Event = { at: number; kind: 0; bar: ChartBar } | { at: number; kind: 1; fill: ChartFill };
  const events: Event[] = [
    ...bars.map((b) => ({ at: Date.parse(b.t), kind: 0 as const, bar: b })),
    ...fills.map((f) => ({ at: Date.parse(f.t), kind: 1 as const, fill: f })),
  ].sort((a, b) => a.at - b.at || a.kind - b.kind);
  const p = position(direction, multiplier);
  const out: Array<{ t: string; pnl: string }> = [];
  const end = closedAt ? Date.parse(closedAt) : Infinity;
  for (const e of events) {
    if (e.kind === 1) out.push({ t: e.fill.t, pnl: fromUnits(p.mark(p.apply(e.fill))) });
    else if (p.openQ > 0n && e.at < end) out.push({ t: e.bar.t, pnl: fromUnits(p.mark(toUnits(e.bar.close))) });
  }
  return out;
}
