import * as z from "zod/mini";
import { MODEL_PROVIDERS } from "./providers.ts";
import { SuggestRequestSchema } from "../imports/schema.ts";

/** A provider's API key as pasted: printable ASCII without spaces (surrounding whitespace is trimmed). */
const ApiKeySchema = z
  .string({ error: (iss) => (iss.input === undefined ? "is required" : "must be a string") })
  .check(
    z.trim(),
    z.minLength(8, "is too short to be an API key"),
    z.maxLength(512, "is too long to be an API key"),
    z.regex(/^[\x21-\x7e]+$/, "must be the key alone: letters, digits and punctuation, no spaces"),
  );

const ModelIdSchema = z
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

const TitleSchema = z.string({ error: "must be a string" }).check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(120, "must be at most 120 characters"));
const ProviderSchema = z.enum(MODEL_PROVIDERS, { error: `must be one of ${MODEL_PROVIDERS.join(", ")}` });

export const NewConversationSchema = z.strictObject({ title: z.optional(TitleSchema), provider: z.optional(ProviderSchema), model: z.optional(ModelIdSchema) });
export type NewConversation = z.infer<typeof NewConversationSchema>;

export const ConversationPatchSchema = z.strictObject({ title: z.optional(TitleSchema), provider: z.optional(ProviderSchema), model: z.optional(ModelIdSchema) });
export type ConversationPatch = z.infer<typeof ConversationPatchSchema>;

export const ConversationIdSchema = z.object({ id: z.uuid("must be a uuid") });
export const ConversationListQuerySchema = z.object({ cursor: z.optional(z.string().check(z.maxLength(300, "is too long"))) });

export const TurnSchema = z.strictObject({
  clientMessageId: z.uuid("must be a uuid"),
  text: z.string({ error: (iss) => (iss.input === undefined ? "is required" : "must be a string") }).check(
    z.minLength(1, "must not be empty"),
    z.maxLength(20_000, "must be at most 20000 characters"),
    z.refine((v: string) => v.trim().length > 0, "must not be blank"),
  ),
});
export type TurnInput = z.infer<typeof TurnSchema>;

export const SettingsSchema = z.strictObject({ shareJournal: z.boolean("must be true or false") });

/** POST /api/advisor/import-mapping: a file's header and first rows (only the first five reach the model), and which key asks. */
export const ImportMappingAskSchema = z.strictObject({
  provider: z.enum(MODEL_PROVIDERS, { error: `must be one of ${MODEL_PROVIDERS.join(", ")}` }),
  model: z.optional(ModelIdSchema),
  header: SuggestRequestSchema.shape.header,
  rows: SuggestRequestSchema.shape.rows,
});
