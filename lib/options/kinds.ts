// What each kind of option strategy is called (docs/options.md lists how each is recognised): on the screens, and as
// the groups of the statistics' breakdown by strategy, where credit and debit spreads are told apart.
import type { StrategyKind } from "./strategy-shape.ts";

export const KIND_LABELS: Record<StrategyKind, string> = {
  single: "Single option",
  vertical: "Vertical spread",
  straddle: "Straddle",
  strangle: "Strangle",
  iron_condor: "Iron condor",
  iron_butterfly: "Iron butterfly",
  butterfly: "Butterfly",
  calendar: "Calendar spread",
  diagonal: "Diagonal spread",
  covered_call: "Covered call",
  protective_put: "Protective put",
  collar: "Collar",
  custom: "Custom",
};

/** Kinds held with shares: opened for a credit or a debit says nothing of them (the shares cost more than any premium). */
const WITH_SHARES: readonly StrategyKind[] = ["covered_call", "protective_put", "collar"];

/** "Vertical spread (credit)", "Iron condor (credit)", "Covered call": the kind, and how it was opened when that tells. */
export function kindLabel(kind: StrategyKind, credit: boolean | null): string {
  const label = KIND_LABELS[kind];
  return credit === null || WITH_SHARES.includes(kind) ? label : `${label} (${credit ? "credit" : "debit"})`;
}

/** The kind a label names (kindLabel's inverse, credit or debit aside), for a link from a breakdown row to the list. */
export function kindOfLabel(label: string): StrategyKind | null {
  const base = label.replace(/ \((credit|debit)\)$/, "");
  return (Object.entries(KIND_LABELS).find(([, l]) => l === base)?.[0] as StrategyKind | undefined) ?? null;
}
