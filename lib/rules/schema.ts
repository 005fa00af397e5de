import * as z from "zod/mini";
import { DecimalStringSchema } from "../money.ts";
import { daySchema } from "../days/schema.ts";

const positive = (what: string) =>
  DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-") && !/^[+]?0+(\.0+)?$/.test(v), `${what} must be greater than zero`));
const clock = () => z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time such as 09:30"));

/**
 * The rule types (DESIGN.md section 10) and their parameters. Days and hours are on the account's clock;
 * weekdays are ISO (1 Monday … 7 Sunday).
 */
export const RuleParamsSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("max_daily_loss"), amount: positive("amount") }),
  z
    .strictObject({ type: z.literal("max_loss_per_trade"), amount: z.optional(positive("amount")), r: z.optional(positive("r")) })
    .check(z.refine((p) => (p.amount === undefined) !== (p.r === undefined), { message: "give either amount (money) or r", path: ["amount"] })),
  z.strictObject({ type: z.literal("max_trades_per_day"), count: z.number().check(z.int("must be a whole number"), z.minimum(1, "must be at least 1"), z.maximum(1000, "must be at most 1000")) }),
  z.strictObject({ type: z.literal("max_risk_per_trade"), amount: positive("amount") }),
  z.strictObject({ type: z.literal("min_planned_rr"), ratio: positive("ratio") }),
  z.strictObject({
    type: z.literal("no_trading_weekdays"),
    weekdays: z
      .array(z.number().check(z.int("must be a whole number"), z.minimum(1, "must be 1 (Monday) to 7 (Sunday)"), z.maximum(7, "must be 1 (Monday) to 7 (Sunday)")))
      .check(z.minLength(1, "name at least one weekday"), z.maxLength(6, "leave at least one weekday to trade"), z.refine((d) => new Set(d).size === d.length, "names a weekday twice")),
  }),
  z
    .strictObject({ type: z.literal("trading_hours"), from: clock(), to: clock() })
    .check(z.refine((p) => !/^\d\d:\d\d$/.test(p.from) || !/^\d\d:\d\d$/.test(p.to) || p.from < p.to, { message: "must be after from", path: ["to"] })),
  z.strictObject({ type: z.literal("cooldown_after_loss"), minutes: z.number().check(z.int("must be a whole number"), z.minimum(1, "must be at least 1"), z.maximum(1440, "must be at most 1440 (a day)")) }),
]);
export type RuleParams = z.infer<typeof RuleParamsSchema>;
export type RuleType = RuleParams["type"];

export const WEIGHTS = { critical: 3, important: 2, nice: 1 } as const;
export type Weight = keyof typeof WEIGHTS;
const weight = () => z.enum(["critical", "important", "nice"], { error: "must be critical, important or nice" });

export const NewRuleSchema = z.strictObject({ accountId: z.uuid("must be a uuid"), rule: RuleParamsSchema, weight: z._default(weight(), "important") });
export type NewRule = z.infer<typeof NewRuleSchema>;

export const RulePatchSchema = z.strictObject({ rule: z.optional(RuleParamsSchema), weight: z.optional(weight()), enabled: z.optional(z.boolean({ error: "must be true or false" })) });
export type RulePatch = z.infer<typeof RulePatchSchema>;

export const RuleIdParamSchema = z.object({ id: z.uuid("must be a uuid") });
export const RuleListQuerySchema = z.object({ accountId: z.uuid("must be a uuid") });

/** One account's days, the first and last included (the account's clock). */
export const ComplianceQuerySchema = z.object({
  accountId: z.uuid("must be a uuid"),
  from: z.optional(daySchema()),
  to: z.optional(daySchema()),
  /** The money figures in the user's base currency (docs/currencies.md); the rules stay in the account's. */
  currency: z.optional(z.literal("base", { error: "must be base (or left out: the account's currency)" })),
});
