// The response bodies of the stats routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, missingRates, ratio, statsCurrency } from "../fields.ts";
import { tagKind } from "../tags/responses.ts";

export const StatsSummarySchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  trades: z.number(),
  wins: z.number(),
  losses: z.number(),
  netPnl: decimal(),
  grossPnl: decimal(),
  fees: decimal(),
  winRate: ratio(),
  profitFactor: ratio(),
  expectancy: z.nullable(decimal()),
  averageWin: z.nullable(decimal()),
  averageLoss: z.nullable(decimal()),
  largestWin: z.nullable(decimal()),
  largestLoss: z.nullable(decimal()),
  maxDrawdown: decimal(),
  r: z
    .object({
      trades: z.number(),
      withRisk: z.number().check(z.describe("Closed trades of the period with a 1R: what every R figure is over")),
      total: z.nullable(decimal()),
      expectancy: z.nullable(decimal()),
      averageWin: z.nullable(decimal()),
      averageLoss: z.nullable(decimal()),
      best: z.nullable(decimal()),
      worst: z.nullable(decimal()),
    })
    .check(z.describe("The closed trades in R (2 decimals); the figures are null when none has a 1R")),
});

/** A bucket's closed trades in R: the sum over those with a 1R (null when none), and how many they are. */
const rFields = {
  rTotal: z.nullable(decimal()),
  withRisk: z.number(),
};

export const CalendarSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  days: z.array(z.object({ date: z.string(), netPnl: decimal(), trades: z.number(), ...rFields })),
});

export const EquitySchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  bucket: z.enum(["day", "week", "month"]),
  points: z.array(
    z.object({ start: z.string(), netPnl: decimal(), equity: decimal(), trades: z.number(), ...rFields, rEquity: decimal().check(z.describe("Cumulative R")) }),
  ),
});

export const BreakdownSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  by: z.enum(["symbol", "direction", "tag", "setup", "weekday", "hour", "rules", "strategy"]),
  groups: z.array(z.object({ key: z.string(), netPnl: decimal(), trades: z.number(), wins: z.number(), winRate: ratio(), ...rFields })),
});

export const RDistributionSchema = z.object({
  currency: statsCurrency(),
  trades: z.number().check(z.describe("Closed trades of the period")),
  withRisk: z.number().check(z.describe("Those with a 1R: the ones counted in the buckets")),
  buckets: z.array(
    z.object({
      from: z.nullable(z.string()).check(z.describe("Lower bound in R (inclusive); null: the lower tail")),
      to: z.nullable(z.string()).check(z.describe("Upper bound in R (exclusive); null: the upper tail")),
      trades: z.number(),
    }),
  ),
});

const PlaybookFigures = z.object({
  trades: z.number().check(z.describe("Closed trades of the period")),
  wins: z.number().check(z.describe("Of them, those that made money")),
  netPnl: decimal(),
  winRate: ratio(),
  expectancy: z.nullable(decimal()).check(z.describe("Net P&L per trade")),
  withRisk: z.number().check(z.describe("Those with a 1R")),
  expectancyR: z.nullable(decimal()).check(z.describe("R per trade over those with a 1R, 2 decimals")),
});

export const PlaybookReportSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  playbooks: z.array(
    z.extend(PlaybookFigures, {
      id: id(),
      name: z.string(),
      archived: z.boolean(),
      items: z.array(
        z.object({
          id: id(),
          label: z.string(),
          kind: z.enum(["checkbox", "number", "text", "choice"]),
          followed: PlaybookFigures.check(z.describe("Trades that ticked it (a checkbox) or answered it")),
          broken: PlaybookFigures.check(z.describe("Trades that did not")),
        }),
      ),
    }),
  ),
  none: PlaybookFigures.check(z.describe("Closed trades of the period taken from no playbook")),
});

export const TagReportSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  kind: tagKind(),
  tags: z.array(
    z.object({
      tag: z.string(),
      kind: tagKind(),
      trades: z.number().check(z.describe("Closed trades of the period carrying it")),
      wins: z.number().check(z.describe("Of them, those that made money")),
      netPnl: decimal().check(z.describe("What they made (for a mistake: what it cost)")),
      winRate: ratio(),
      expectancy: decimal(),
    }),
  ),
});
