// The payoff diagram's data (payoff-chart.tsx): the price range to draw, and the line over it from the strategy's
// legs as opened (lib/options/strategy-shape.ts, the server's own exact arithmetic).
import { payoffLine, type Leg } from "../../../../lib/options/strategy-shape.ts";

export type ApiLeg = {
  assetClass: "option" | "stock";
  right: "call" | "put" | null;
  strike: string | null;
  expiry: string | null;
  side: "long" | "short";
  quantity: string;
  multiplier: string;
  price: string | null;
  entry: { underlyingPrice: string } | null;
};

/** The legs as the payoff reads them; null when one cannot be read (an option symbol that does not parse, no price). */
export function payoffLegs(legs: readonly ApiLeg[]): Leg[] | null {
  const out: Leg[] = [];
  for (const l of legs) {
    if (l.price === null) return null;
    if (l.assetClass === "stock") out.push({ right: null, side: l.side, quantity: l.quantity, multiplier: l.multiplier, price: l.price });
    else if (l.right && l.strike && l.expiry) out.push({ right: l.right, strike: l.strike, expiry: l.expiry, side: l.side, quantity: l.quantity, multiplier: l.multiplier, price: l.price });
    else return null;
  }
  return out;
}

/**
 * From 10 % below the lowest price worth seeing (a strike, a breakeven, the shares' entry, the underlying at entry) to
 * 10 % above the highest (the underlying's price now among them, when known), never below 0; then the payoff over it. Empty when the legs have no single expiry.
 */
export function payoffData(legs: readonly ApiLeg[], breakevens: readonly string[], now: string | null = null): { low: number; high: number; points: Array<{ price: number; profit: number }> } | null {
  const shaped = payoffLegs(legs);
  if (!shaped) return null;
  const marks = [
    ...legs.flatMap((l) => [l.strike, l.assetClass === "stock" ? l.price : null, l.entry?.underlyingPrice ?? null]),
    ...breakevens,
    now,
  ].flatMap((v) => (v === null ? [] : [Number(v)]));
  if (marks.length === 0) return null;
  const [min, max] = [Math.min(...marks), Math.max(...marks)];
  const low = Math.max(0, min * 0.9);
  const high = max * 1.1 > low ? max * 1.1 : low + 1;
  const points = payoffLine(shaped, low.toFixed(2), high.toFixed(2)).map((p) => ({ price: Number(p.price), profit: Number(p.profit) }));
  return points.length ? { low, high, points } : null;
}
