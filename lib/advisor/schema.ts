import * as z from "zod/mini";
import { MODEL_PROVIDERS } from "../providers/providers.ts";
import { ModelIdSchema } from "../providers/schema.ts";
import { SuggestRequestSchema } from "../imports/schema.ts";

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
