// The response shapes of the prop-firm routes (docs/prop-firms.md) for the OpenAPI document.
import * as z from "zod/mini";
import { day, decimal, id, iso } from "../fields.ts";

/** Prop-firm accounts (docs/prop-firms.md). */
const PropRulesFields = {
  startingBalance: decimal(),
  profitTarget: z.nullable(decimal()),
  maxDrawdown: decimal(),
  drawdownMode: z.enum(["static", "eod_trailing", "intraday_trailing", "trailing_lock"]),
  dailyLossLimit: z.nullable(decimal()),
  dailyLossIncludesOpen: z.boolean(),
  dayStartsAt: z.string(),
  dayZone: z.string(),
  minTradingDays: z.number(),
  consistencyPct: z.nullable(z.number()),
  maxContracts: z.nullable(z.number()),
  floorLocksAt: z.optional(z.nullable(decimal()).check(z.describe("Where a trailing floor stops, over the starting balance"))),
  dailyLossFrom: z.optional(z.enum(["balance", "higher_of_balance_and_equity"]).check(z.describe("What the day's loss is measured from"))),
  drawdownOn: z.optional(z.enum(["balance", "equity"]).check(z.describe("What the static and end-of-day floors are measured against"))),
  dailyLossSoft: z.optional(z.boolean().check(z.describe("A soft daily loss limit: reaching it ends the day, not the account"))),
  minDayProfitPct: z.optional(z.nullable(z.number()).check(z.describe("A day counts toward minTradingDays only when it made this percentage of the start"))),
};
export const PropEvaluationSchema = z.object({
  evaluation: z.object({ accountId: id(), firm: z.string(), phase: z.enum(["evaluation", "funded"]), startDate: day(), ...PropRulesFields }),
});
export const PropStatusSchema = z.object({
  state: z.enum(["active", "passed", "breached"]),
  breachedAt: z.nullable(iso()),
  breachRule: z.nullable(z.enum(["max_drawdown", "daily_loss", "max_contracts"])),
  breachFillId: z.nullable(id()),
  balance: decimal(),
  floor: decimal(),
  distanceToFloor: decimal(),
  dailyLossUsed: decimal(),
  profitToTarget: z.nullable(decimal()),
  tradingDays: z.number(),
  bestDayPct: z.nullable(decimal()),
  consistencyOk: z.boolean(),
});
export const PropEvaluationStatusSchema = z.extend(PropEvaluationSchema, { status: PropStatusSchema });
export const PropWarningsSchema = z.object({
  warnings: z.object({
    floorDistance: z.nullable(decimal()),
    dailyLossLeft: z.nullable(decimal()),
    email: z.boolean(),
    given: z.array(z.object({ kind: z.enum(["floor", "daily_loss"]), day: day(), value: decimal(), threshold: decimal(), at: iso(), emailed: z.boolean() })),
  }),
});
export const PropFirmListSchema = z.object({
  firms: z.array(
    z.object({
      id: z.string(),
      firm: z.string(),
      name: z.string(),
      phase: z.enum(["evaluation", "funded"]),
      currency: z.string(),
      rules: z.object(PropRulesFields),
      fees: z.object({ evaluation: z.nullable(z.string()), evaluationPer: z.nullable(z.enum(["month", "once"])), reset: z.nullable(z.string()), activation: z.nullable(z.string()), profitSplitPct: z.nullable(z.number()) }),
      checkedOn: day(),
      sources: z.array(z.string()),
      unverified: z.array(z.string()).check(z.describe("The figures only review sites gave, or none")),
      notes: z.array(z.string()),
    }),
  ),
});
export const PropReplaySchema = z.object({
  accountId: id(),
  from: day(),
  to: day(),
  rules: z.object(PropRulesFields),
  passedOn: z.nullable(day()).check(z.describe("The first trading day at whose end every condition of a pass held, before any breach")),
  breachedOn: z.nullable(day()),
  breachRule: z.nullable(z.enum(["max_drawdown", "daily_loss", "max_contracts"])),
  status: PropStatusSchema,
  days: z.array(
    z.object({
      day: day(),
      startBalance: decimal(),
      endBalance: decimal(),
      pnl: decimal(),
      floor: decimal(),
      worstLoss: decimal(),
      traded: z.boolean(),
      breached: z.nullable(z.enum(["max_drawdown", "daily_loss", "max_contracts"])),
      limitHit: z.optional(z.boolean().check(z.describe("A soft daily loss limit reached this day"))),
    }),
  ),
});
const PropCash = {
  feesPaid: decimal(),
  payoutsReceived: decimal(),
  netCash: decimal(),
  roi: z.nullable(z.string().check(z.regex(/^-?\d+\.\d{4}$/))).check(z.describe("Net cash over the fees paid, 4 decimals (0.5000 = +50%); null without fees")),
};
export const PropSummarySchema = z.object({
  accounts: z.array(
    z.object({
      accountId: id(),
      name: z.string(),
      currency: z.string(),
      firm: z.nullable(z.string()),
      phase: z.nullable(z.enum(["evaluation", "funded"])),
      state: z.nullable(z.enum(["active", "passed", "breached"])),
      distanceToFloor: z.nullable(decimal()),
      profitToTarget: z.nullable(decimal()),
      ...PropCash,
    }),
  ),
  totals: z.array(z.object({ currency: z.string(), accounts: z.number(), ...PropCash })).check(z.describe("Per currency: amounts are never added across currencies")),
});
