// Requests of the strategies routes (DESIGN.md section 11, "Option strategies"; docs/options.md).
import * as z from "zod/mini";
import { TagListSchema } from "../tags/tag.ts";
import { positiveDecimal } from "../trades/schema.ts";
import { STRATEGY_KINDS } from "./strategy-shape.ts";

/** A number in a query (a bound): digits, an optional "-" and ".". */
const signedNumber = () => z.pipe(z.string().check(z.regex(/^-?\d{1,9}(\.\d{1,6})?$/, "must be a number like 0.25 or -10")), z.transform(Number));

export const StrategyListQuerySchema = z.object({
  accountId: z.optional(z.uuid("must be a uuid")),
  underlying: z.optional(z.string().check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(12, "must be at most 12 characters"))),
  status: z.optional(z.enum(["open", "closed"], { error: "must be open or closed" })),
  tradeId: z.optional(z.uuid("must be a uuid")),
  kind: z.optional(z.enum(STRATEGY_KINDS, { error: `must be one of ${STRATEGY_KINDS.join(", ")}` })),
  /** Entry IV (a fraction: 0.25 is 25 %) and entry delta (shares' worth) bounds, inclusive. */
  minIv: z.optional(signedNumber()),
  maxIv: z.optional(signedNumber()),
  minDelta: z.optional(signedNumber()),
  maxDelta: z.optional(signedNumber()),
  cursor: z.optional(z.string().check(z.maxLength(300, "is too long"))),
  limit: z.optional(
    z.pipe(z.string().check(z.regex(/^\d{1,3}$/, "must be a whole number from 1 to 200")), z.pipe(z.transform(Number), z.number().check(z.minimum(1, "must be at least 1"), z.maximum(200, "must be at most 200")))),
  ),
});
export type StrategyListQuery = z.infer<typeof StrategyListQuerySchema>;

/** POST /api/strategies: the trades grouped by hand, of one account and one underlying. */
export const NewStrategySchema = z.strictObject({
  tradeIds: z.array(z.uuid("must be a uuid")).check(z.minLength(1, "must name at least one trade"), z.maxLength(20, "must name at most 20 trades")),
});
export type NewStrategy = z.infer<typeof NewStrategySchema>;

/** PATCH /api/strategies/:id: what is written on the strategy as a whole (the fields named are set; null clears). */
export const StrategyJournalSchema = z.strictObject({
  notes: z.optional(z.nullable(z.string().check(z.maxLength(20_000, "must be at most 20000 characters")))),
  tags: z.optional(TagListSchema),
  setup: z.optional(z.nullable(z.string().check(z.maxLength(100, "must be at most 100 characters")))),
  rating: z.optional(z.nullable(z.number().check(z.int("must be a whole number"), z.minimum(1, "must be 1 to 5"), z.maximum(5, "must be 1 to 5")))),
  plannedRisk: z.optional(z.nullable(positiveDecimal("planned risk"))),
  /** The playbook it was taken from (one of the user's); null clears. */
  playbookId: z.optional(z.nullable(z.uuid("must be a uuid"))),
});
export type StrategyJournal = z.infer<typeof StrategyJournalSchema>;
