import * as z from "zod/mini";
import { DecimalStringSchema, toUnits } from "../money.ts";
import { dateTimeSchema } from "../time/range.ts";

const digits = (name: string) => z.string().check(z.regex(/^\d{1,9}$/, `${name} must be a whole number`));

export const LEDGER_PAGE_SIZE_DEFAULT = 50;
export const LEDGER_PAGE_SIZE_MAX = 200;

export const LedgerPageQuerySchema = z.object({
  page: z._default(
    z.pipe(digits("page"), z.pipe(z.transform(Number), z.number().check(z.minimum(1, "must be at least 1")))),
    1,
  ),
  pageSize: z._default(
    z.pipe(
      digits("pageSize"),
      z.pipe(
        z.transform(Number),
        z.number().check(z.minimum(1, "must be at least 1"), z.maximum(LEDGER_PAGE_SIZE_MAX, `must be at most ${LEDGER_PAGE_SIZE_MAX}`)),
      ),
    ),
    LEDGER_PAGE_SIZE_DEFAULT,
  ),
});
export type LedgerPageQuery = z.infer<typeof LedgerPageQuerySchema>;

const isDecimal = (v: string) => DecimalStringSchema.safeParse(v).success;

/** The entries a trader writes by hand (docs/accounts.md; prop_fee and payout: docs/prop-firms.md). */
export const MANUAL_TYPES = ["deposit", "withdrawal", "adjustment", "prop_fee", "payout"] as const;
/** Money out of the account, stored negative. */
export const OUTGOING_TYPES: ReadonlySet<string> = new Set(["withdrawal", "prop_fee", "payout"]);

export const NewLedgerEntrySchema = z
  .object({
    type: z.enum(MANUAL_TYPES, { error: `must be one of ${MANUAL_TYPES.join(", ")}` }),
    /**
     * Deposits, withdrawals, a prop firm's fees (prop_fee: an evaluation, a reset, an activation) and payouts:
     * a positive amount (the type gives the direction). Adjustments: a signed, non-zero amount.
     */
    amount: DecimalStringSchema,
    occurredAt: z.optional(dateTimeSchema()),
    note: z.optional(z.string().check(z.maxLength(500, "must be at most 500 characters"))),
  })
  .check(
    z.superRefine((entry, ctx) => {
      if (!isDecimal(entry.amount)) return;
      if (toUnits(entry.amount) === 0n) ctx.addIssue({ code: "custom", path: ["amount"], message: "must not be zero", input: entry.amount });
      else if (entry.type !== "adjustment" && toUnits(entry.amount) < 0n) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: "must be positive (the type gives the direction)", input: entry.amount });
      }
    }),
  );
export type NewLedgerEntry = z.infer<typeof NewLedgerEntrySchema>;

export const AccountParamSchema = z.object({ accountId: z.uuid("must be a uuid") });
export const EntryParamSchema = z.object({ accountId: z.uuid("must be a uuid"), entryId: z.uuid("must be a uuid") });
