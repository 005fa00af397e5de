// The response bodies of the fx routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { day, decimal } from "../fields.ts";

export const FxOverrideSchema = z.object({ override: z.object({ date: day(), currency: z.string(), base: z.string(), rate: decimal().check(z.describe("Units of currency per 1 base")) }) });

export const FxRatesSchema = z.object({
  base: z.string(),
  from: day(),
  to: day(),
  service: z.string().check(z.describe("The rate service asked (FX_RATES_BASE_URL)")),
  rates: z.array(z.object({ date: day(), currency: z.string(), rate: decimal(), rateDate: day(), source: z.enum(["same", "override", "broker", "reference"]) })),
  missingRates: z.array(z.object({ currency: z.string(), date: day() })),
  overrides: z.array(z.object({ date: day(), currency: z.string(), rate: decimal() })),
});
