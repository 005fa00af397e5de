// The response bodies of the settings routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";

const DigestSettingsSchema = z.object({ weekly: z.boolean(), weekday: z.number(), hour: z.number(), zone: z.string(), reading: z.optional(z.nullable(z.string())), washWatch: z.optional(z.boolean()) });

export const SettingsSchema = z.object({
  baseCurrency: z.nullable(z.string()).check(z.describe("ISO 4217 code every account's figures convert to (currency=base), null when off")),
  digest: z.nullable(DigestSettingsSchema),
  privacyMode: z.boolean(),
});
