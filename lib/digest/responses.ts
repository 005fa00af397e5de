// The response shapes of the digest routes (docs/digest.md) for the OpenAPI document.
import * as z from "zod/mini";

export const DigestPreviewSchema = z.object({
  subject: z.string(),
  text: z.string().check(z.describe("The plain-text part, as it would be sent now")),
  html: z.string().check(z.describe("The HTML part")),
  figures: z.looseObject({
    week: z.object({ firstDay: z.string(), lastDay: z.string(), zone: z.string(), from: z.string(), to: z.string() }),
    tradingDays: z.number(),
    comparable: z.boolean().check(z.describe("False for a week with one trading day or none: no comparison and no reading")),
    figures: z.array(z.looseObject({ currency: z.string(), trades: z.number(), netPnl: z.string() })),
  }),
  reading: z.looseObject({ text: z.nullable(z.string()) }),
});
