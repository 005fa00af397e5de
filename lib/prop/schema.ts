// PUT /api/accounts/:id/evaluation (DESIGN.md section 11, docs/prop-firms.md): the rules of a prop-firm
// evaluation or funded account. Rules that cannot hold together are a 400 naming the field.
import * as z from "zod/mini";
import { DecimalStringSchema } from "../money.ts";
import { daySchema } from "../days/schema.ts";
import { CANONICAL_TIME_ZONES } from "../time/zones.ts";
import { DRAWDOWN_MODES } from "./engine.ts";

const positive = () => DecimalStringSchema.check(z.refine((v) => Number(v) > 0, "must be above 0"));
const count = (max: number) => z.int("must be a whole number").check(z.gte(0, "must be 0 or more"), z.lte(max, `must be at most ${max}`));

/** The rules' own fields (PropRules), as an evaluation and a replay take them. */
const RULES = {
  startingBalance: positive(),
  profitTarget: z.nullable(positive()),
  maxDrawdown: positive(),
  drawdownMode: z.enum(DRAWDOWN_MODES, { error: `must be one of ${DRAWDOWN_MODES.join(", ")}` }),
  dailyLossLimit: z.nullable(positive()),
  dailyLossIncludesOpen: z.boolean("must be true or false"),
  dayStartsAt: z.string("must be a string").check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM such as 17:00")),
  dayZone: z.string("must be a string").check(z.refine((v) => CANONICAL_TIME_ZONES.has(v), "must be a canonical IANA time zone such as America/Chicago")),
  minTradingDays: count(365),
  consistencyPct: z.nullable(z.number("must be a number").check(z.gt(0, "must be above 0"), z.lte(100, "must be at most 100"))),
  maxContracts: z.nullable(count(100_000).check(z.gte(1, "must be at least 1"))),
  /** Where a trailing floor stops, over the starting balance (docs/prop-firms.md); not in DESIGN.md's list. */
  floorLocksAt: z.optional(z.nullable(DecimalStringSchema.check(z.refine((v) => !v.startsWith("-"), "must be 0 or more")))),
  /** What the day's loss is measured from (docs/prop-firms.md); not in DESIGN.md's list. */
  dailyLossFrom: z.optional(z.enum(["balance", "higher_of_balance_and_equity"], { error: "must be balance or higher_of_balance_and_equity" })),
  /** What the static and end-of-day floors are measured against (docs/prop-firms.md); not in DESIGN.md's list. */
  drawdownOn: z.optional(z.enum(["balance", "equity"], { error: "must be balance or equity" })),
  /** A soft daily loss limit: reaching it ends the day, not the account (docs/prop-firms.md); not in DESIGN.md's list. */
  dailyLossSoft: z.optional(z.boolean("must be true or false")),
  /** Days count toward minTradingDays only when they made this percentage of the start (docs/prop-firms.md). */
  minDayProfitPct: z.optional(z.nullable(z.number("must be a number").check(z.gt(0, "must be above 0"), z.lte(100, "must be at most 100")))),
};

type RulesInput = { startingBalance: string; maxDrawdown: string; dailyLossLimit: string | null; drawdownMode: string; floorLocksAt?: string | null | undefined };

/** What rules must hold together; each compares fields only once they are numbers (a field refused has its own error). */
const together = () => [
  z.refine<RulesInput>((e) => !(Number(e.maxDrawdown) >= Number(e.startingBalance)), { message: "must be less than the starting balance", path: ["maxDrawdown"] }),
  z.refine<RulesInput>((e) => !(Number(e.dailyLossLimit) > Number(e.maxDrawdown)), { message: "must not be larger than the maximum drawdown", path: ["dailyLossLimit"] }),
  z.refine<RulesInput>((e) => e.floorLocksAt == null || e.drawdownMode !== "static", { message: "applies to a trailing drawdown only", path: ["floorLocksAt"] }),
];

export const EvaluationSchema = z
  .strictObject({
    firm: z.string("must be a string").check(z.trim(), z.minLength(1, "is required"), z.maxLength(100, "must be at most 100 characters")),
    phase: z.enum(["evaluation", "funded"], { error: "must be evaluation or funded" }),
    startDate: daySchema(),
    ...RULES,
    /** The rules' currency (a preset's): must be the account's. */
    currency: z.optional(z.string().check(z.regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code"))),
  })
  .check(
    ...together(),
    z.refine((e) => e.phase === "funded" || e.profitTarget !== null, { message: "is required for an evaluation (null only for a funded account)", path: ["profitTarget"] }),
  );
export type EvaluationBody = z.infer<typeof EvaluationSchema>;

/** Up to 3 years at once. */
export const MAX_REPLAY_DAYS = 1100;

/** The rules alone (a replay's, an archive's evaluation). */
export const RulesSchema = z.strictObject(RULES).check(...together());

/** POST /api/prop-firms/replay: an account's own history over [from, to] (its days) under these rules. */
export const ReplaySchema = z
  .strictObject({
    accountId: z.uuid("must be a uuid"),
    rules: RulesSchema,
    from: daySchema(),
    to: daySchema(),
  })
  .check(
    z.refine((q) => !(q.from > q.to), { message: "must not be before from", path: ["to"] }),
    z.refine((q) => !(Date.parse(q.to) - Date.parse(q.from) > MAX_REPLAY_DAYS * 86_400_000), { message: `must be within ${MAX_REPLAY_DAYS} days of from`, path: ["to"] }),
  );
export type ReplayBody = z.infer<typeof ReplaySchema>;
