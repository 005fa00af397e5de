// What a strategy is called on screen (lib/options/kinds.ts names the kinds).
import { kindLabel } from "../../../../lib/options/kinds.ts";
import type { StrategyKind } from "../../../../lib/options/strategy-shape.ts";

export { KIND_LABELS } from "../../../../lib/options/kinds.ts";

type Named = { kind: StrategyKind; credit: boolean | null; legs: ReadonlyArray<{ side: "long" | "short"; right: "call" | "put" | null }> };

/** "Iron condor (credit)", "Long put": a single option by its side and right, anything else by kindLabel. */
export function strategyName(s: Named): string {
  const [only] = s.legs;
  if (s.kind === "single" && only?.right) return `${only.side === "long" ? "Long" : "Short"} ${only.right}`;
  return kindLabel(s.kind, s.credit);
}

type Bounded = { currency: string; legs: ReadonlyArray<{ assetClass: "option" | "stock"; right: "call" | "put" | null; expiry: string | null }> };

/**
 * A max profit or max loss as read: the amount; "No limit" when the payoff keeps rising (or falling); "—" when there
 * is no single expiry to read it at, or a leg's symbol could not be read.
 */
export function payoffFigure(value: string | null, s: Bounded, format: (v: string, currency: string) => string): string {
  if (value !== null) return format(value, s.currency);
  const unreadable = s.legs.some((l) => l.assetClass === "option" && l.right === null);
  const expiries = new Set(s.legs.flatMap((l) => (l.expiry ? [l.expiry] : [])));
  return unreadable || expiries.size > 1 ? "—" : "No limit";
}
