// The response bodies of the keys routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { iso } from "../fields.ts";

export const modelProvider = () => z.enum(["openai", "anthropic", "gemini", "openrouter"]);

export const ProviderKeySchema = z.object({
  provider: modelProvider(),
  keyHintTail: z.string(),
  defaultModel: z.string(),
  verified: z.boolean(),
  createdAt: iso(),
  updatedAt: iso(),
});

export const ProviderKeyListSchema = z.object({ keys: z.array(ProviderKeySchema) });

export const ModelListSchema = z.object({
  providers: z.array(z.object({ provider: modelProvider(), defaultModel: z.string(), verified: z.boolean(), models: z.nullable(z.array(z.string())) })),
});

export const MarketDataKeySchema = z.object({ configured: z.boolean(), keyHintTail: z.optional(z.string()), verified: z.optional(z.boolean()) });
