// The response bodies of the trades routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, iso } from "../fields.ts";

export const assetClass = () => z.enum(["stock", "option", "future"]);

const FillFields = {
  id: id(),
  accountId: id(),
  symbol: z.string(),
  assetClass: assetClass(),
  multiplier: decimal(),
  side: z.enum(["buy", "sell"]),
  quantity: decimal(),
  price: decimal(),
  fees: decimal(),
  feesEstimated: z.boolean().check(z.describe("The fees are the account's fee schedule's estimate: the imported row carried none")),
  generated: z.nullable(z.enum(["expiry"])).check(
    z.describe("expiry: the journal wrote this fill, priced 0, to close an option still open after its expiry. The broker's own rows replace it when they come; deleting it keeps the option open"),
  ),
  executedAt: iso(),
  executionId: z.nullable(z.string()),
  importId: z.nullable(id()),
};

export const FillSchema = z.object(FillFields);

/** GET /api/fills/:id: the fill and the trades it is in now (two when it reversed a position). */
export const FillDetailSchema = z.object({ ...FillFields, tradeIds: z.array(id()) });

export const FillListSchema = z.object({ fills: z.array(FillSchema), hasMore: z.boolean(), page: z.number(), pageSize: z.number() });

const TradeFields = {
  id: id(),
  accountId: id(),
  /** The account's currency: every amount of the trade is in it. */
  currency: z.string(),
  symbol: z.string(),
  assetClass: assetClass(),
  multiplier: decimal(),
  direction: z.enum(["long", "short"]),
  status: z.enum(["open", "closed"]),
  openedAt: iso(),
  closedAt: z.nullable(iso()),
  openQuantity: decimal(),
  maxQuantity: decimal(),
  averageEntryPrice: z.nullable(decimal()),
  averageExitPrice: z.nullable(decimal()),
  fees: decimal(),
  grossPnl: decimal(),
  netPnl: decimal(),
  notes: z.nullable(z.string()),
  tags: z.array(z.string()),
  setup: z.nullable(z.string()),
  rating: z.nullable(z.number()),
  journalId: z.nullable(id()).check(z.describe("The journal holding what is written on this trade (notes, tags, setup, rating, plan, screenshots); null when nothing is")),
  playbookId: z.nullable(id()).check(z.describe("The playbook the trade was taken from")),
  playbookAnswers: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])).check(z.describe("Answers to the playbook's checklist by item id")),
  base: z.optional(
    z
      .object({
        currency: z.string(),
        netPnl: z.nullable(decimal()),
        rate: z.nullable(decimal()).check(z.describe("Units of the trade's currency per 1 base")),
        rateDate: z.nullable(z.string()).check(z.describe("The date of the rate (an earlier one over a weekend or holiday)")),
      })
      .check(z.describe("When a base currency is set (docs/currencies.md): the net P&L at the close date's rate (today's while open); null figures when the instance lacks the rate")),
  ),
  risk: z.object({
    stopPrice: z.nullable(decimal()),
    targetPrice: z.nullable(decimal()),
    plannedRisk: z.nullable(decimal()),
    oneR: z.nullable(decimal()).check(z.describe("1R in money: plannedRisk, else |entry - stop| x largest size x multiplier, else the account's defaultRisk")),
    rMultiple: z.nullable(decimal()).check(z.describe("Net realised P&L (so far, while open) / oneR, 2 decimals")),
    plannedRR: z.nullable(decimal()).check(z.describe("|target - entry| / |entry - stop|, 2 decimals")),
  }),
  excursions: z.nullable(
    z.object({
      priceMae: z.nullable(decimal()).check(z.describe("The worst price against the trade while it was open")),
      priceMfe: z.nullable(decimal()).check(z.describe("The best price for the trade while it was open")),
      positionMae: z.nullable(decimal()).check(z.describe("The lowest running P&L (gross), scale-ins and partial exits included")),
      positionMfe: z.nullable(decimal()).check(z.describe("The highest running P&L (gross)")),
      maeR: z.nullable(decimal()),
      mfeR: z.nullable(decimal()),
      bestExitPnl: z.nullable(decimal()).check(z.describe("positionMfe less the trade's fees: its net P&L had it left at its best")),
      efficiency: z.nullable(z.string()).check(z.describe("netPnl / bestExitPnl, 4 decimals; null when bestExitPnl is not positive")),
      barsFrom: z.enum(["1m", "1d"]).check(z.describe("The bars they were read from: 1-minute, else daily")),
    }),
  ).check(z.describe("Null while the trade is open, for options, and when no bars cover it (docs/charts.md)")),
};

export const ValuationSchema = z.object({ price: decimal(), asOf: iso(), stale: z.boolean(), marketValue: decimal(), unrealizedPnl: decimal() });

export const TradeListSchema = z.object({
  trades: z.array(z.object({ ...TradeFields, valuation: z.optional(z.nullable(ValuationSchema)) })),
  hasMore: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
  totals: z.optional(
    z.array(
      z.object({
        currency: z.string(),
        trades: z.number().check(z.describe("Every trade the filters match, on every page")),
        closed: z.number(),
        wins: z.number().check(z.describe("Closed trades with a net P&L above 0")),
        winRate: z.nullable(decimal()).check(z.describe("wins / closed, 4 decimals; null when none closed")),
        netPnl: decimal().check(z.describe("Their net P&L summed (realised so far for open trades)")),
      }),
    ),
  ).check(z.describe("With totals=true: one row per currency of the matching trades")),
});

export const TradeDetailSchema = z.object({
  trade: z.object(TradeFields),
  fills: z.array(z.object({ ...FillFields, role: z.enum(["open", "add", "reduce", "close"]), quantityInTrade: decimal(), feesInTrade: decimal(),
    splitFactor: decimal().check(z.describe("Today's shares per share of the fill after the stock splits since it (1 without any): the trade counts its quantity times this and its price divided by it")) })),
  compliance: z.nullable(
    z.object({
      score: z.number().check(z.describe("Out of 100: the weights of the account's rules it kept over all of them")),
      rules: z.number().check(z.describe("The account's rules turned on")),
      broken: z.array(z.object({ ruleId: id(), label: z.string(), weight: z.enum(["critical", "important", "nice"]) })),
    }),
  ).check(z.describe("The account's trading rules this trade broke; null when the account has none")),
  adjacent: z
    .object({ older: z.nullable(id()), newer: z.nullable(id()) })
    .check(z.describe("The trades of the same account opened just before and just after this one (null at either end), to step through them")),
});

export const TradeImageSchema = z.object({
  id: id(),
  contentType: z.enum(["image/png", "image/jpeg", "image/webp"]),
  bytes: z.number().check(z.describe("Size after metadata was removed")),
  createdAt: iso(),
});

export const TradeImageListSchema = z.object({ images: z.array(TradeImageSchema) });

export const JournalSchema = z.object({
  id: id(),
  accountId: id(),
  currency: z.string(),
  tradeId: z.nullable(id()).check(z.describe("The trade it is on; null for a detached note")),
  symbol: z.string(),
  direction: z.nullable(z.enum(["long", "short"])),
  openedAt: z.nullable(iso()).check(z.describe("Of the trade it is (or was last) on")),
  closedAt: z.nullable(iso()),
  netPnl: z.nullable(decimal()),
  fills: z.number().check(z.describe("Fills of the trade it is (or was last) on")),
  notes: z.nullable(z.string()),
  tags: z.array(z.string()),
  setup: z.nullable(z.string()),
  rating: z.nullable(z.number()),
  images: z.array(TradeImageSchema),
  detachedAt: z.nullable(iso()),
  formerTradeIds: z.array(id()).check(z.describe("Trades it was on before (old links to them lead here)")),
  createdAt: iso(),
  updatedAt: iso(),
});

export const JournalListSchema = z.object({ journals: z.array(JournalSchema) });

export const JournalAttachResultSchema = z.object({
  outcome: z.enum(["attached", "merged", "same"]).check(z.describe("merged: the trade had notes of its own, and these were added to them")),
  tradeId: id(),
  journalId: id(),
});

export const JournalImpactSchema = z.object({
  journaledTrades: z.number().check(z.describe("Trades with something written on them (notes, tags, setup, rating or screenshots) that the change touches")),
  screenshots: z.number(),
});

/** POST /api/trades/:id/images: a multipart form. */
export const TradeImageUploadSchema = z.object({
  file: z.string().check(z.describe("A PNG, JPEG or WebP image (checked by its content), at most 5 MB")),
});

export const SplitSchema = z.object({
  id: id(),
  symbol: z.string(),
  effectiveAt: iso().check(z.describe("Fills before this instant count in post-split shares")),
  newShares: decimal().check(z.describe("Shares after the split for oldShares before: 2 for 1 in a 2-for-1 split, 1 for 10 in a 1-for-10 reverse split")),
  oldShares: decimal(),
});

export const SplitListSchema = z.object({ splits: z.array(SplitSchema) });

export const ExcursionPointsSchema = z.object({
  currency: z.nullable(z.string()),
  trades: z.number().check(z.describe("Closed trades in scope")),
  withExcursions: z.number().check(z.describe("Those with excursions (bars cover them)")),
  points: z.array(
    z.object({
      tradeId: id(),
      symbol: z.string(),
      netPnl: decimal(),
      positionMae: decimal(),
      positionMfe: decimal(),
      maeR: z.nullable(decimal()),
      mfeR: z.nullable(decimal()),
      rMultiple: z.nullable(decimal()),
      efficiency: z.nullable(z.string()),
    }),
  ),
});
