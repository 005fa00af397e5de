// The response bodies of the accounts routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { FeeScheduleSchema } from "./fees.ts";
import { decimal, id, iso } from "../fields.ts";

export const AccountSchema = z.object({
  id: id(),
  name: z.string(),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/)),
  startingBalance: decimal(),
  startingBalanceAt: z.nullable(iso()),
  timezone: z.string(),
  brokerageId: z.nullable(id()),
  createdAt: iso(),
  balance: decimal(),
  defaultRisk: z.nullable(decimal()).check(z.describe("1R in money for trades without a plan of their own; null: none")),
  taxStatus: z.enum(["taxable", "ira", "exempt"]).check(z.describe("For tax lots and wash sales (docs/tax.md)")),
  feeSchedule: z.nullable(FeeScheduleSchema).check(z.describe("What the broker charges per asset class, for imported rows that carry no fee; null: none")),
});

export const AccountListSchema = z.object({ accounts: z.array(AccountSchema) });

export const BrokerageSchema = z.object({ id: id(), name: z.string(), createdAt: iso(), updatedAt: iso() });

export const BrokerageListSchema = z.object({ brokerages: z.array(BrokerageSchema) });
