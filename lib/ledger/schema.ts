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

export const NewLedgerEntrySchema = z
  .object({
    type: z.enum(["deposit", "withdrawal", "adjustment"], { error: "must be deposit, withdrawal or adjustment" }),
    /** Deposits and withdrawals: a positive amount. Adjustments: a signed, non-zero amount. */
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
