// What an option strategy is, from its legs as opened (DESIGN.md section 11, "Option strategies"; docs/options.md):
// its kind (a vertical, a straddle, an iron condor...), whether it was opened for a credit, and its payoff at expiry
// (max profit, max loss, breakevens). Pure: the legs in, the figures out. Money is exact (decimal units); the
// payoff is piecewise linear in the underlying's price, so it is read at the strikes and from the slopes beyond.

import { formatDecimal, fromUnits, multiplyUnits, toUnits } from "../money.ts";

export const STRATEGY_KINDS = [
  "single", "vertical", "straddle", "strangle", "iron_condor", "iron_butterfly", "butterfly", "calendar", "diagonal",
  "covered_call", "protective_put", "collar", "custom",
] as const;
export type StrategyKind = (typeof STRATEGY_KINDS)[number];

/** An option leg: its right, strike and expiry (YYYY-MM-DD), side, contracts, multiplier and average opening premium. */
export type OptionLeg = { right: "call" | "put"; strike: string; expiry: string; side: "long" | "short"; quantity: string; multiplier: string; price: string };
/** A stock leg (a covered call's shares): side, shares and average entry. */
export type StockLeg = { right: null; side: "long" | "short"; quantity: string; multiplier: string; price: string };
export type Leg = OptionLeg | StockLeg;

const isOption = (l: Leg): l is OptionLeg => l.right !== null;
const units = toUnits;
const eq = (a: string, b: string) => units(a) === units(b);
/** Contracts (options) or shares (stock) times the multiplier: how much of the underlying a leg moves with. */
const exposure = (l: Leg) => multiplyUnits(units(l.quantity), units(l.multiplier));

/**
 * The kind of a strategy from its legs (the legs with the same contract merged first). A near miss is `custom`:
 * a vertical needs one expiry, a butterfly and an iron butterfly symmetric wings, every multi-leg shape equal
 * sizes (a covered call: 100 shares a contract).
 */
export function classify(legs: readonly Leg[]): StrategyKind {
  const options = legs.filter(isOption);
  const stock = legs.filter((l): l is StockLeg => !isOption(l));
  if (stock.length > 1) return "custom";
  if (stock.length === 1) return withStock(stock[0]!, options);
  if (options.length === 1) return "single";
  const size = exposure(options[0]!);
  if (!options.every((l) => exposure(l) === size || isButterflyBody(l, options))) return "custom";
  const sameExpiry = options.every((l) => l.expiry === options[0]!.expiry);
  if (options.length === 2) {
    const [a, b] = options as [OptionLeg, OptionLeg];
    if (a.right === b.right && a.side !== b.side) {
      if (sameExpiry) return eq(a.strike, b.strike) ? "custom" : "vertical";
      return eq(a.strike, b.strike) ? "calendar" : "diagonal";
    }
    if (a.right !== b.right && a.side === b.side && sameExpiry) return eq(a.strike, b.strike) ? "straddle" : "strangle";
    return "custom";
  }
  if (!sameExpiry) return "custom";
  if (options.length === 3) return isButterfly(options) ? "butterfly" : "custom";
  if (options.length === 4) return ironShape(options);
  return "custom";
}

/** A butterfly's body is two contracts (the middle strike) against one on each wing. */
function isButterflyBody(l: OptionLeg, all: readonly OptionLeg[]): boolean {
  return all.length === 3 && exposure(l) === 2n * exposure(all.find((o) => o !== l)!);
}

function isButterfly(legs: readonly OptionLeg[]): boolean {
  if (!legs.every((l) => l.right === legs[0]!.right)) return false;
  const [low, mid, high] = [...legs].sort((a, b) => (units(a.strike) < units(b.strike) ? -1 : 1)) as [OptionLeg, OptionLeg, OptionLeg];
  return (
    low.side === high.side &&
    mid.side !== low.side &&
    exposure(mid) === 2n * exposure(low) &&
    exposure(low) === exposure(high) &&
    units(mid.strike) - units(low.strike) === units(high.strike) - units(mid.strike) &&
    units(low.strike) < units(mid.strike)
  );
}

/** Two puts below two calls, the inner pair one side and the outer pair the other: an iron condor or butterfly. */
function ironShape(legs: readonly OptionLeg[]): StrategyKind {
  const puts = legs.filter((l) => l.right === "put").sort((a, b) => (units(a.strike) < units(b.strike) ? -1 : 1));
  const calls = legs.filter((l) => l.right === "call").sort((a, b) => (units(a.strike) < units(b.strike) ? -1 : 1));
  if (puts.length !== 2 || calls.length !== 2) return "custom";
  const [outerPut, innerPut, innerCall, outerCall] = [puts[0]!, puts[1]!, calls[0]!, calls[1]!];
  const inner = innerPut.side;
  if (innerCall.side !== inner || outerPut.side === inner || outerCall.side === inner) return "custom";
  if (eq(outerPut.strike, innerPut.strike) || eq(innerCall.strike, outerCall.strike)) return "custom";
  const [op, ip, ic, oc] = [outerPut, innerPut, innerCall, outerCall].map((l) => units(l.strike)) as [bigint, bigint, bigint, bigint];
  if (ip > ic) return "custom";
  if (ip === ic) return ip - op === oc - ic ? "iron_butterfly" : "custom";
  return "iron_condor";
}

function withStock(stock: StockLeg, options: readonly OptionLeg[]): StrategyKind {
  if (stock.side !== "long" || options.length === 0 || options.length > 2) return "custom";
  const covers = (l: OptionLeg) => exposure(l) === exposure(stock);
  if (!options.every(covers)) return "custom";
  const shortCall = options.find((l) => l.right === "call" && l.side === "short");
  const longPut = options.find((l) => l.right === "put" && l.side === "long");
  if (options.length === 1) return shortCall ? "covered_call" : longPut ? "protective_put" : "custom";
  return shortCall && longPut && units(longPut.strike) < units(shortCall.strike) ? "collar" : "custom";
}

/** Opened for a credit: the premium the short legs brought in is more than the long legs cost. */
export function isCredit(legs: readonly Leg[]): boolean {
  let net = 0n;
  for (const l of legs.filter(isOption)) net += (l.side === "short" ? 1n : -1n) * multiplyUnits(exposure(l), units(l.price));
  return net > 0n;
}

export type Payoff = { maxProfit: string | null; maxLoss: string | null; breakevens: string[] };

/**
 * The strategy's profit at expiry as opened, fees excluded: max profit and max loss as positive amounts (null when
 * unbounded: the payoff still rises, or falls, past the last strike; a max loss of 0 when it cannot lose), and the
 * breakevens ascending (4 decimals). Legs of several expiries have no single expiry to read them at: null and none.
 */
export function payoffAtExpiry(legs: readonly Leg[]): Payoff {
  const options = legs.filter(isOption);
  if (legs.length === 0 || new Set(options.map((l) => l.expiry)).size > 1) return { maxProfit: null, maxLoss: null, breakevens: [] };
  const at = (spot: bigint) => profitAt(legs, spot);
  // Beyond the highest strike the payoff is a line: its slope (money per 1 of the underlying, in units of
  // exposure) comes from the shares and the calls; puts are worthless there.
  let slope = 0n;
  for (const l of legs) if (l.right !== "put") slope += (l.side === "long" ? 1n : -1n) * exposure(l);
  const knots = [0n, ...[...new Set(options.map((l) => units(l.strike)))].filter((k) => k > 0n).sort((a, b) => (a < b ? -1 : 1))];
  const ys = knots.map(at);
  const roots = new Set<bigint>();
  for (let i = 0; i < knots.length; i++) {
    const [x0, y0] = [knots[i]!, ys[i]!];
    if (y0 === 0n && x0 > 0n) roots.add(x0);
    if (i + 1 < knots.length) {
      const [x1, y1] = [knots[i + 1]!, ys[i + 1]!];
      if ((y0 < 0n && y1 > 0n) || (y0 > 0n && y1 < 0n)) roots.add(x0 + (-y0 * (x1 - x0)) / (y1 - y0));
    }
  }
  const [last, yLast] = [knots.at(-1)!, ys.at(-1)!];
  // The line past the last strike crosses zero when it heads away from its sign: x = last - y / slope.
  if (slope !== 0n && yLast !== 0n && yLast < 0n === slope > 0n) roots.add(last - (yLast * UNIT) / slope);
  const best = ys.reduce((m, v) => (v > m ? v : m));
  const worst = ys.reduce((m, v) => (v < m ? v : m));
  const money = (v: bigint) => fromUnits(v < 0n ? -v : v);
  return {
    maxProfit: slope > 0n ? null : money(best > 0n ? best : 0n),
    maxLoss: slope < 0n ? null : money(worst < 0n ? worst : 0n),
    breakevens: [...roots].sort((a, b) => (a < b ? -1 : 1)).map((b) => formatDecimal(roundUnits(b, 4))),
  };
}

/** The profit at expiry (fees excluded) with the underlying at `spot` (decimal units). */
function profitAt(legs: readonly Leg[], spot: bigint): bigint {
  let total = 0n;
  for (const l of legs) {
    const k = l.right === null ? 0n : units(l.strike);
    const intrinsic = l.right === null ? spot : l.right === "call" ? (spot > k ? spot - k : 0n) : k > spot ? k - spot : 0n;
    total += (l.side === "long" ? 1n : -1n) * multiplyUnits(exposure(l), intrinsic - units(l.price));
  }
  return total;
}

/**
 * The payoff at expiry drawn from `low` to `high` (prices of the underlying, low < high): the profit at both ends and
 * at every strike between, where the line bends, so straight segments between the points are exact. Legs of several
 * expiries have no single expiry: none.
 */
export function payoffLine(legs: readonly Leg[], low: string, high: string): Array<{ price: string; profit: string }> {
  const options = legs.filter(isOption);
  if (legs.length === 0 || new Set(options.map((l) => l.expiry)).size > 1) return [];
  const [lo, hi] = [units(low), units(high)];
  const xs = [...new Set([lo, ...options.map((l) => units(l.strike)).filter((k) => k > lo && k < hi), hi])].sort((a, b) => (a < b ? -1 : 1));
  return xs.map((x) => ({ price: fromUnits(x), profit: fromUnits(profitAt(legs, x)) }));
}

/** One in decimal units. */
const UNIT = toUnits("1");

/** Units to a decimal string of `places` decimals, rounded half away from zero. */
function roundUnits(v: bigint, places: number): string {
  const step = 10n ** BigInt(10 - places);
  const rounded = ((v < 0n ? -v : v) + step / 2n) / step;
  const text = rounded.toString().padStart(places + 1, "0");
  return `${v < 0n ? "-" : ""}${text.slice(0, -places)}.${text.slice(-places)}`;
}
