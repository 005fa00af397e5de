// The response bodies of the config routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";

export const PublicConfigSchema = z.object({ registrationOpen: z.boolean(), newsletterUrl: z.nullable(z.string()) });

export const PackSchema = z.object({ id: z.string(), name: z.string(), credits: z.number(), priceCents: z.number(), currency: z.string() });

export const ConfigSchema = z.object({
  weekStartDay: z.number().check(z.int(), z.minimum(0), z.maximum(6)),
  quotes: z.boolean(),
  billing: z.boolean(),
  pro: z.boolean(),
  email: z.boolean(),
  objectStorage: z.boolean(),
  analytics: z.boolean(),
  schwab: z.boolean().check(z.describe("Traders can connect Schwab (the operator's Schwab app is set up)")),
  packs: z.optional(z.array(PackSchema)),
  proPrice: z.optional(
    z.nullable(z.object({ id: z.string(), amountCents: z.nullable(z.number()), currency: z.nullable(z.string()), interval: z.nullable(z.string()) })),
  ),
});
