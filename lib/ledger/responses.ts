// The response bodies of the ledger routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, iso } from "../fields.ts";

export const LedgerEntrySchema = z.object({
  id: id(),
  type: z.enum(["opening", "deposit", "withdrawal", "fill", "adjustment", "prop_fee", "payout"]),
  amount: decimal(),
  occurredAt: iso(),
  note: z.nullable(z.string()),
  fillId: z.optional(id()),
  fill: z.optional(z.object({ symbol: z.string(), side: z.enum(["buy", "sell"]), quantity: decimal(), price: decimal() })),
  base: z.optional(
    z
      .object({
        currency: z.string(),
        amount: z.nullable(decimal()),
        rate: z.nullable(decimal()).check(z.describe("Units of the account's currency per 1 base")),
        rateDate: z.nullable(z.string()).check(z.describe("The date of the rate (an earlier one over a weekend or holiday)")),
      })
      .check(z.describe("In a page, when a base currency other than the account's is set (docs/currencies.md): the amount at its date's rate in the account's zone; null figures when the instance lacks the rate")),
  ),
});

export const LedgerPageSchema = z.object({
  entries: z.array(LedgerEntrySchema),
  hasMore: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
  runningBalanceAtFirstRow: decimal(),
});
