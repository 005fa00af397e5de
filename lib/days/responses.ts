// The response bodies of the days routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { id, iso } from "../fields.ts";

export const DayEntryOutSchema = z.object({
  accountId: id(),
  day: z.string().check(z.describe("The trading day on the account's clock, YYYY-MM-DD")),
  plan: z.nullable(z.string()).check(z.describe("The plan, written before the open")),
  review: z.nullable(z.string()).check(z.describe("The review, written after the close")),
  mood: z.nullable(z.number()).check(z.describe("1 (worst) to 5 (best)")),
  tags: z.array(z.string()),
  createdAt: iso(),
  updatedAt: iso(),
});

export const DayListSchema = z.object({ days: z.array(DayEntryOutSchema) });
