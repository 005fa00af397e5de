// The response bodies of the insights routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, iso, statsCurrency } from "../fields.ts";

const CitedTrade = z.object({
  id: id(),
  symbol: z.string(),
  openedAt: iso(),
  netPnl: decimal(),
  afterLoss: z.optional(id().check(z.describe("The losing trade it followed"))),
  day: z.optional(z.string().check(z.describe("The day it belongs to (overtrading)"))),
});

const Finding = {
  found: z.boolean(),
  title: z.string(),
  detail: z.string().check(z.describe("The finding in words, with the trader's own figures")),
  count: z.number().check(z.describe("Trades it found")),
  netPnl: decimal().check(z.describe("What those trades made")),
  trades: z.array(CitedTrade).check(z.describe("The trades it cites, newest first (at most 50)")),
};

export const InsightsSchema = z.object({
  currency: statsCurrency(),
  findings: z.array(
    z.union([
      z.object({ kind: z.literal("revenge"), ...Finding }),
      z.object({ kind: z.literal("overtrading"), ...Finding, days: z.array(z.object({ day: z.string(), trades: z.number() })) }),
      z.object({ kind: z.literal("size_up_after_loss"), ...Finding }),
      z.object({ kind: z.literal("losers_held_longer"), ...Finding, averageWinnerMinutes: z.nullable(z.number()), averageLoserMinutes: z.nullable(z.number()) }),
    ]),
  ),
});
