// The response bodies of the advisor routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { id, iso, loose } from "../fields.ts";
import { modelProvider } from "../keys/responses.ts";

export const ModelSuggestionSchema = z.object({
  mapping: loose().check(z.describe("Field -> column name, as ImportRequest.mapping; only fields naming a column of the header")),
  options: loose().check(z.describe("dateFormat, numberFormat, sideFromQuantitySign when the model gave a known one")),
  notes: z.array(z.string()).check(z.describe("Which model suggested it, then what the model says to check")),
  source: z.literal("model"),
  savedAt: z.null(),
  provider: z.string(),
  model: z.string(),
});

export const AdvisorSettingsSchema = z.object({ shareJournal: z.boolean() });

export const ConversationSchema = z.object({ id: id(), title: z.string(), provider: modelProvider(), model: z.string(), createdAt: iso(), updatedAt: iso() });

export const ConversationListSchema = z.object({ conversations: z.array(ConversationSchema), nextCursor: z.nullable(z.string()) });

export const ConversationDetailSchema = z.object({
  conversation: ConversationSchema,
  messages: z.array(
    z.object({
      id: id(),
      role: z.enum(["user", "assistant"]),
      text: z.string(),
      toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.unknown(), summary: z.nullable(z.optional(z.string())) })),
      usage: z.optional(loose()),
      status: z.enum(["complete", "incomplete", "failed"]),
      createdAt: iso(),
    }),
  ),
});

/**
 * POST /api/advisor/conversations/:id/turns answers text/event-stream: one `event:` line and one JSON `data:`
 * line per event, in this order: start, then delta (answer text), tool_call and tool_result (the journal
 * lookups), usage, and finally done or error. Comment lines keep the connection alive.
 */
export const TurnEventSchema = z.object({
  event: z.enum(["start", "delta", "tool_call", "tool_result", "usage", "done", "error"]),
  data: loose(),
});
