// The response bodies of the rules routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, missingRates, ratio } from "../fields.ts";

export const RuleSchema = z.object({
  id: id(),
  accountId: id(),
  rule: z.record(z.string(), z.unknown()).check(z.describe("The rule: {type, ...its parameters} (see the POST body)")),
  label: z.string().check(z.describe("The rule in words")),
  weight: z.enum(["critical", "important", "nice"]),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const RuleListSchema = z.object({ rules: z.array(RuleSchema) });

const ComplianceFigures = z.object({ trades: z.number(), wins: z.number(), netPnl: decimal(), winRate: ratio(), expectancy: z.nullable(decimal()) });

export const ComplianceSchema = z.object({
  accountId: id(),
  currency: z.string(),
  missingRates: missingRates(),
  rules: z.array(
    z.extend(RuleSchema, {
      brokenTrades: z.number(),
      brokenDays: z.number(),
      brokenNetPnl: decimal().check(z.describe("Net P&L of the closed trades that broke it")),
    }),
  ),
  score: z.nullable(z.number()).check(z.describe("The period's average day score, out of 100")),
  trades: z.object({ compliant: ComplianceFigures, broken: ComplianceFigures }),
  days: z.array(z.object({ day: z.string(), trades: z.number(), netPnl: decimal(), score: z.nullable(z.number()), broken: z.array(id()) })),
  streak: z.object({ current: z.number(), best: z.number() }).check(z.describe("Fully compliant trading days in a row")),
});
