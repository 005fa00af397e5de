// Fee schedules: what an account's broker charges, for files that carry no fees (some brokers' exports leave
// commissions out). Per asset class, a rule adds up a charge per order, per share or contract, and a percent
// of the notional, then holds it to a minimum and a maximum. Applied on import to rows without a fee; each
// such fee is marked estimated on its fill (docs/imports.md, "Fee schedules"). Exact: decimal units, no floats.
import * as z from "zod/mini";
import type { AssetClass } from "../instruments/instruments.ts";
import { DecimalStringSchema, fromUnits, multiplyUnits, toUnits } from "../money.ts";

const amount = () =>
  z.optional(DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-"), "must not be negative")));

/** One asset class's charges; every part optional, summed. */
export const FeeRuleSchema = z.strictObject({
  /** A flat charge per fill (order). */
  perOrder: amount(),
  /** Per share (stocks) or per contract (options, futures). */
  perUnit: amount(),
  /** Percent of the notional (price x quantity x multiplier): "0.05" is 0.05 %. */
  percent: amount(),
  /** The charge is at least this... */
  minimum: amount(),
  /** ...and at most this. */
  maximum: amount(),
});
export type FeeRule = z.infer<typeof FeeRuleSchema>;

export const FeeScheduleSchema = z.strictObject({
  stock: z.optional(FeeRuleSchema),
  option: z.optional(FeeRuleSchema),
  future: z.optional(FeeRuleSchema),
});
export type FeeSchedule = z.infer<typeof FeeScheduleSchema>;

const units = (v: string | undefined) => (v === undefined ? 0n : toUnits(v));

/**
 * The fee a schedule charges for one fill, as a decimal string (exact to the 10 decimals every amount is
 * stored with, beyond them truncated), or null when the schedule has no rule for the fill's asset class.
 */
export function estimateFee(schedule: FeeSchedule | null | undefined, fill: { assetClass: AssetClass; quantity: string; price: string; multiplier: string }): string | null {
  const rule = schedule?.[fill.assetClass];
  if (!rule) return null;
  const quantity = toUnits(fill.quantity);
  const notional = multiplyUnits(multiplyUnits(quantity, toUnits(fill.price)), toUnits(fill.multiplier));
  let fee = units(rule.perOrder) + multiplyUnits(units(rule.perUnit), quantity) + multiplyUnits(notional, units(rule.percent)) / 100n;
  if (rule.minimum !== undefined && fee < units(rule.minimum)) fee = units(rule.minimum);
  if (rule.maximum !== undefined && fee > units(rule.maximum)) fee = units(rule.maximum);
  return fromUnits(fee);
}
