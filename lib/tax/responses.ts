// The response shapes of the tax routes (docs/tax.md) for the OpenAPI document.
import * as z from "zod/mini";
import { day, decimal, id } from "../fields.ts";

const year = () => z.number().check(z.describe("The tax year"));
const currency = () => z.nullable(z.string()).check(z.describe("The currency of the accounts counted (with currency=base, the user's base currency); null without accounts"));
const missingRates = () =>
  z
    .array(z.object({ currency: z.string(), date: day() }))
    .check(z.describe("With currency=base: the rates to the base the instance does not have (docs/currencies.md); the rows that needed one are left out of the figures. Empty otherwise."));

export const TaxLotsSchema = z.object({
  year: year(),
  method: z.literal("fifo"),
  currency: currency(),
  lots: z.array(
    z.object({
      symbol: z.string(),
      accountId: id(),
      quantity: decimal(),
      acquiredAt: day().check(z.describe("The day the holding period counts from (a wash sale's replacement takes in the days the sold shares were held)")),
      soldAt: day(),
      proceeds: decimal(),
      costBasis: decimal(),
      adjustment: decimal().check(z.describe("Form 8949 column (g): the loss disallowed by a wash sale, positive")),
      gain: decimal().check(z.describe("Column (h): proceeds - cost basis + adjustment")),
      term: z.enum(["short", "long"]),
      washSale: z.nullable(z.object({ code: z.literal("W"), disallowed: decimal(), replacementLotOpenedAt: day(), permanent: z.boolean() })),
      section1256: z.boolean(),
      short: z.boolean(),
      markedToMarket: z.boolean(),
      markSource: z.nullable(z.enum(["bars", "last fill"])),
    }),
  ),
  possibleWashSales: z.array(
    z.object({
      symbol: z.string(),
      lossSoldAt: day(),
      replacementSymbol: z.string(),
      replacementAt: day(),
      loss: decimal(),
      decision: z.nullable(z.enum(["wash", "not_wash"])).check(z.describe("The trader's decision (PUT /api/tax/possible-wash-sales); wash: applied to the lots and forms; null: undecided, not adjusted")),
    }),
  ),
  basisUnknown: z
    .array(z.object({ symbol: z.string(), accountId: z.uuid(), soldAt: day(), quantity: decimal(), proceeds: decimal() }))
    .check(z.describe("Stock sales the journal holds no purchase for, still open as short sales: their basis is unknown (shares bought before the journal's first fill) or they are short sales not yet covered. Never given an invented basis; no Form 8949 row.")),
  deferredLosses: z.array(z.object({ symbol: z.string(), lossSoldAt: day(), disallowed: decimal(), replacementLotOpenedAt: day() })).check(z.describe("Losses of the year disallowed into replacements still held at its end")),
  missingRates: missingRates(),
});

const totals = () => z.object({ proceeds: decimal(), costBasis: decimal(), adjustment: decimal(), gain: decimal() });

export const ScheduleDSchema = z.object({
  year: year(),
  currency: currency(),
  line3: totals().check(z.describe("Short-term, Form 8949 box C")),
  line4: decimal().check(z.describe("Short-term from Form 6781 (40%)")),
  line7: decimal(),
  line10: totals().check(z.describe("Long-term, Form 8949 box F")),
  line11: decimal().check(z.describe("Long-term from Form 6781 (60%)")),
  line15: decimal(),
  line16: decimal(),
  missingRates: missingRates(),
});

export const Form6781Schema = z.object({
  year: year(),
  currency: currency(),
  line1: z.array(z.object({ account: z.string(), loss: decimal(), gain: decimal() })),
  line2: z.object({ loss: decimal(), gain: decimal() }),
  line3: decimal(),
  line7: decimal(),
  line8: decimal().check(z.describe("40% of line 7: short-term")),
  line9: decimal().check(z.describe("60% of line 7: long-term")),
  missingRates: missingRates(),
});

export const WashWatchSchema = z.object({
  currency: currency(),
  today: day(),
  losses: z.array(z.object({ symbol: z.string(), accountId: id(), soldAt: day(), quantity: decimal(), loss: decimal(), washableUntil: day() })),
});

export const WashDecisionResponseSchema = z.object({
  decision: z.object({ symbol: z.string(), lossSoldAt: day(), replacementSymbol: z.string(), replacementAt: day(), decision: z.nullable(z.enum(["wash", "not_wash"])) }),
});
