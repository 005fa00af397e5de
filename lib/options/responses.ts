// The response bodies of the options routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, iso } from "../fields.ts";

const strategyKind = () => z.enum(["single", "vertical", "straddle", "strangle", "iron_condor", "iron_butterfly", "butterfly", "calendar", "diagonal", "covered_call", "protective_put", "collar", "custom"]);

const StrategyFields = z.object({
  id: id(),
  accountId: id(),
  currency: z.string(),
  underlying: z.string(),
  kind: strategyKind(),
  credit: z.nullable(z.boolean()).check(z.describe("Opened for a credit (the short premium more than the long); null without an option leg")),
  premium: z.nullable(decimal()).check(z.describe("The option legs' premium at opening, x contracts x multiplier: positive a credit received, negative a debit paid")),
  source: z.enum(["auto", "manual"]),
  status: z.enum(["open", "closed"]),
  openedAt: iso(),
  closedAt: z.nullable(iso()),
  legs: z.array(
    z.object({
      tradeId: id(),
      symbol: z.string(),
      assetClass: z.enum(["option", "stock"]).check(z.describe("An option, or a covered call's (collar's, protective put's) shares")),
      right: z.nullable(z.enum(["call", "put"])).check(z.describe("null for shares, or an option symbol that does not parse")),
      strike: z.nullable(decimal()),
      expiry: z.nullable(z.string()),
      side: z.enum(["long", "short"]),
      quantity: decimal(),
      multiplier: decimal(),
      price: z.nullable(decimal()).check(z.describe("The average price of its opening fills")),
      netPnl: decimal().check(z.describe("The leg's trade's net P&L, fees included")),
      entry: z
        .nullable(z.object({ underlyingPrice: decimal(), iv: z.string(), delta: z.string(), gamma: z.string(), theta: z.string(), vega: z.string() }))
        .check(z.describe("An option leg's figures at its opening fill (Black-Scholes at the implied volatility; per unit of the underlying; theta a day, vega a volatility point); null without the underlying's price then")),
    }),
  ),
  netPnl: decimal().check(z.describe("Its legs' net P&L, fees included (realised so far while open)")),
  maxProfit: z.nullable(decimal()).check(z.describe("At expiry as opened, fees excluded; null when unbounded (or with legs of several expiries)")),
  maxLoss: z.nullable(decimal()).check(z.describe("A positive amount; null when unbounded (or with legs of several expiries)")),
  breakevens: z.array(decimal()),
  rollOfId: z.nullable(id()),
  rolledIntoId: z.nullable(id()),
  campaignNetPnl: decimal().check(z.describe("Net P&L of its roll chain, up to and including it")),
  greeks: z
    .nullable(z.object({ delta: z.string(), gamma: z.string(), theta: z.string(), vega: z.string(), iv: z.nullable(z.string()) }))
    .check(z.describe("The legs' Greeks at entry x contracts x multiplier x side (shares count a delta of 1), and the option legs' implied volatility weighted by the size of their vega; null when a leg's are unknown")),
  notes: z.nullable(z.string()),
  tags: z.array(z.string()),
  setup: z.nullable(z.string()),
  rating: z.nullable(z.number()),
  plannedRisk: z.nullable(decimal()),
  playbookId: z.nullable(id()),
  rMultiple: z.nullable(decimal()).check(z.describe("netPnl / (plannedRisk, else maxLoss), 2 decimals")),
});

export const StrategySchema = z.object({
  strategy: StrategyFields,
  campaign: z
    .nullable(
      z.object({
        strategies: z.array(z.object({ id: id(), kind: strategyKind(), credit: z.nullable(z.boolean()), premium: z.nullable(decimal()), openedAt: iso(), closedAt: z.nullable(iso()), netPnl: decimal() })),
        netPnl: decimal(),
        days: z.number().check(z.describe("Days in trade: from the first opening to the last close (or now, while open)")),
      }),
    )
    .check(z.describe("Its roll chain, first strategy first; null when it was never rolled")),
  underlyingQuote: z
    .nullable(z.object({ price: decimal(), asOf: iso(), stale: z.boolean() }))
    .check(z.describe("The underlying's delayed quote while the strategy is open, when the instance has a quote provider")),
});

export const StrategyListSchema = z.object({ strategies: z.array(StrategyFields), nextCursor: z.nullable(z.string()) });
