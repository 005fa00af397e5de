// The response bodies of the health routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";

export const HealthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.optional(z.string()),
  database: z.enum(["up", "down"]),
});
