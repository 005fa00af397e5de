// What a trader sends about their providers' keys (DESIGN.md section 8): the model providers' keys (the advisor)
// and the market-data keys (charts), and the providers' names as the screens show them.
import * as z from "zod/mini";
import { MODEL_PROVIDERS } from "./providers.ts";

/** A provider's API key as pasted: printable ASCII without spaces (surrounding whitespace is trimmed). */
const ApiKeySchema = z
  .string({ error: (iss) => (iss.input === undefined ? "is required" : "must be a string") })
  .check(
    z.trim(),
    z.minLength(8, "is too short to be an API key"),
    z.maxLength(512, "is too long to be an API key"),
    z.regex(/^[\x21-\x7e]+$/, "must be the key alone: letters, digits and punctuation, no spaces"),
  );

export const ModelIdSchema = z
  .string({ error: (iss) => (iss.input === undefined ? "is required" : "must be a string") })
  .check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(200, "is too long"), z.regex(/^[\w.:/@-]+$/, "is not a model id"));

export const ProviderKeySaveSchema = z.strictObject({ apiKey: ApiKeySchema, defaultModel: z.optional(ModelIdSchema) });
export type ProviderKeySave = z.infer<typeof ProviderKeySaveSchema>;

export const ProviderKeyPatchSchema = z.strictObject({ defaultModel: ModelIdSchema });
export type ProviderKeyPatch = z.infer<typeof ProviderKeyPatchSchema>;

export const MarketDataKeySaveSchema = z.strictObject({ apiKey: ApiKeySchema });
export type MarketDataKeySave = z.infer<typeof MarketDataKeySaveSchema>;

/** Any other provider name is answered 404 (DESIGN.md section 8), before the body is read. */
export const ProviderParamSchema = z.object({ provider: z.string().check(z.maxLength(50)) });

export const PROVIDER_NAMES = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  gemini: "Google Gemini",
  openrouter: "OpenRouter",
} as const satisfies Record<(typeof MODEL_PROVIDERS)[number], string>;
