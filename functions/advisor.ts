import {
  deleteStoredKey,
  getDataKey,
  listAvailableModels,
  listProviderKeys,
  modelProvider,
  saveDataKey,
  saveProviderKey,
  updateProviderKey,
} from "../lib/keys/keys.ts";
import { MARKET_DATA } from "../lib/providers/providers.ts";
import {
  createConversation,
  deleteConversation,
  getConversation,
  getSettings,
  listConversations,
  saveSettings,
  updateConversation,
} from "../lib/advisor/conversations.ts";
import { prepareTurn, runTurn } from "../lib/advisor/turns.ts";
import { suggestMappingByModel } from "../lib/advisor/import-mapping.ts";
import {
  ConversationIdSchema,
  ConversationListQuerySchema,
  ConversationPatchSchema,
  ImportMappingAskSchema,
  NewConversationSchema,
  SettingsSchema,
  TurnSchema,
} from "../lib/advisor/schema.ts";
import { MarketDataKeySaveSchema, ProviderKeyPatchSchema, ProviderKeySaveSchema, ProviderParamSchema } from "../lib/providers/schema.ts";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { AdvisorSettingsSchema, ConversationDetailSchema, ConversationListSchema, ConversationSchema, ModelSuggestionSchema, TurnEventSchema } from "../lib/advisor/responses.ts";
import { MarketDataKeySchema, ModelListSchema, ProviderKeyListSchema, ProviderKeySchema } from "../lib/keys/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { streamSSE } from "hono/streaming";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";

// The provider is checked (404 for an unknown one) before the rate limit and the body.
export const advisor = createRouter()
  .get("/provider-keys", describeRoute({ tag: "advisor", summary: "Your model provider keys (never the key itself)", responses: { 200: { description: "The keys: last four characters, default model, whether verified.", schema: ProviderKeyListSchema } } }), requireUser, async (c) => c.json(await listProviderKeys(c.var.deps, currentUser(c))))
  .put(
    "/provider-keys/:provider",
    describeRoute({ tag: "advisor", summary: "Save a provider key (probed first; stored sealed)", responses: { 200: { description: "The saved key.", schema: ProviderKeySchema } }, errors: ["PROVIDER_KEY_INVALID"] }), 
    requireUser,
    validate("param", ProviderParamSchema),
    async (c, next) => (modelProvider(c.req.valid("param").provider), next()),
    rateLimit(LIMITS.providerKeySave, "user"),
    validate("json", ProviderKeySaveSchema),
    async (c) =>
      c.json(await saveProviderKey(c.var.deps, currentUser(c), modelProvider(c.req.valid("param").provider), c.req.valid("json"))),
  )
  .patch("/provider-keys/:provider", describeRoute({ tag: "advisor", summary: "Choose the default model of a provider key", responses: { 200: { description: "The key after the change.", schema: ProviderKeySchema } } }), requireUser, validate("param", ProviderParamSchema), validate("json", ProviderKeyPatchSchema), async (c) =>
    c.json(await updateProviderKey(c.var.deps, currentUser(c), modelProvider(c.req.valid("param").provider), c.req.valid("json"))),
  )
  .delete("/provider-keys/:provider", describeRoute({ tag: "advisor", summary: "Delete a provider key", responses: { 204: { description: "Deleted." } } }), requireUser, validate("param", ProviderParamSchema), async (c) => {
    await deleteStoredKey(c.var.deps, currentUser(c), modelProvider(c.req.valid("param").provider));
    return c.body(null, 204);
  })
  .get("/models", describeRoute({ tag: "advisor", summary: "The models each of your keys can use", responses: { 200: { description: "Per provider: the listing, or null when it cannot be fetched now.", schema: ModelListSchema } } }), requireUser, async (c) => c.json(await listAvailableModels(c.var.deps, currentUser(c))))
  .get("/market-data-key", describeRoute({ tag: "advisor", summary: "Whether you have a market-data key", responses: { 200: { description: "configured false, or its last four characters.", schema: MarketDataKeySchema } } }), requireUser, async (c) => c.json(await getDataKey(c.var.deps, currentUser(c))))
  .put("/market-data-key", describeRoute({ tag: "advisor", summary: "Save a market-data key (probed first; stored sealed)", responses: { 200: { description: "The saved key.", schema: MarketDataKeySchema } }, errors: ["MARKET_DATA_KEY_INVALID"] }), requireUser, rateLimit(LIMITS.marketDataKeySave, "user"), validate("json", MarketDataKeySaveSchema), async (c) =>
    c.json(await saveDataKey(c.var.deps, currentUser(c), c.req.valid("json"))),
  )
  .delete("/market-data-key", describeRoute({ tag: "advisor", summary: "Delete your market-data key", responses: { 204: { description: "Deleted." } }, errors: ["NOT_FOUND"] }), requireUser, async (c) => {
    await deleteStoredKey(c.var.deps, currentUser(c), MARKET_DATA);
    return c.body(null, 204);
  })
  .get("/settings", describeRoute({ tag: "advisor", summary: "Whether the advisor may send your journal data to your model provider", responses: { 200: { description: "The settings.", schema: AdvisorSettingsSchema } } }), requireUser, async (c) => c.json(await getSettings(c.var.deps, currentUser(c))))
  .put("/settings", describeRoute({ tag: "advisor", summary: "Allow or refuse sending your journal data to your model provider", responses: { 200: { description: "The settings.", schema: AdvisorSettingsSchema } } }), requireUser, validate("json", SettingsSchema), async (c) => c.json(await saveSettings(c.var.deps, currentUser(c), c.req.valid("json"))))
  .post("/conversations", describeRoute({ tag: "advisor", summary: "Start a conversation with a provider and model", responses: { 201: { description: "The conversation.", schema: ConversationSchema } }, errors: ["PROVIDER_KEY_REQUIRED", "MODEL_NOT_PRICED"] }), requireUser, validate("json", NewConversationSchema), async (c) =>
    c.json(await createConversation(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/conversations", describeRoute({ tag: "advisor", summary: "Your conversations, most recent first", responses: { 200: { description: "A page of conversations.", schema: ConversationListSchema } } }), requireUser, validate("query", ConversationListQuerySchema), async (c) =>
    c.json(await listConversations(c.var.deps, currentUser(c), c.req.valid("query").cursor)),
  )
  .get("/conversations/:id", describeRoute({ tag: "advisor", summary: "A conversation and its messages", responses: { 200: { description: "The conversation.", schema: ConversationDetailSchema } } }), requireUser, validate("param", ConversationIdSchema), async (c) =>
    c.json(await getConversation(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/conversations/:id", describeRoute({ tag: "advisor", summary: "Rename a conversation or change its model", responses: { 200: { description: "The conversation.", schema: ConversationSchema } }, errors: ["PROVIDER_KEY_REQUIRED", "MODEL_NOT_PRICED"] }), requireUser, validate("param", ConversationIdSchema), validate("json", ConversationPatchSchema), async (c) =>
    c.json(await updateConversation(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/conversations/:id", describeRoute({ tag: "advisor", summary: "Delete a conversation", responses: { 204: { description: "Deleted." } } }), requireUser, validate("param", ConversationIdSchema), async (c) => {
    await deleteConversation(c.var.deps, currentUser(c), c.req.valid("param").id);
    return c.body(null, 204);
  })
  .post(
    "/import-mapping",
    describeRoute({
      tag: "advisor",
      summary: "Ask your own model for the column mapping of a CSV file no preset reads (it sees the header and the first five rows only)",
      responses: { 200: { description: "The suggestion, to confirm in the mapping form.", schema: ModelSuggestionSchema } },
      errors: ["PROVIDER_KEY_REQUIRED", "PROVIDER_KEY_INVALID", "MODEL_NOT_PRICED", "INSUFFICIENT_CREDITS", "SERVICE_UNAVAILABLE"],
    }),
    requireUser,
    rateLimit(LIMITS.advisorTurn, "user"),
    validate("json", ImportMappingAskSchema),
    async (c) => c.json(await suggestMappingByModel(c.var.deps, currentUser(c), c.req.valid("json"))),
  )
  // A turn: refusals are ordinary JSON errors; after them, the answer as server-sent events (DESIGN.md section 9).
  .post(
    "/conversations/:id/turns",
    describeRoute({ tag: "advisor", summary: "Ask: the answer streams back as server-sent events (credits are held first, then charged)", description: "Refusals (no credits, no key, a turn already running) are ordinary JSON errors before the stream starts. The stream: start, delta (answer text), tool_call and tool_result, usage, then done or error. A clientMessageId already answered replays its events.", responses: { 200: { description: "The stream of events (each as `event:` and a JSON `data:` line).", contentType: "text/event-stream", schema: TurnEventSchema } }, errors: ["INSUFFICIENT_CREDITS", "PROVIDER_KEY_REQUIRED", "TURN_IN_PROGRESS", "MODEL_NOT_PRICED", "CONFLICT"] }), 
    requireUser,
    validate("param", ConversationIdSchema),
    rateLimit(LIMITS.advisorTurn, "user"),
    validate("json", TurnSchema),
    async (c) => {
      const { deps } = c.var;
      const prepared = await prepareTurn(deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"));
      let finished!: Promise<void>;
      const response = streamSSE(c, (stream) => {
        // Gone: the response body cancelled (hono aborts the stream) or the request aborted.
        const gone = new AbortController();
        const leave = () => gone.abort();
        stream.onAbort(leave);
        // Removed when the turn ends: undici keeps a request's signal until the request is collected, and this
        // listener's scope holds the request (the soak found every turn's request and response kept for good).
        const requestSignal = c.req.raw.signal;
        requestSignal?.addEventListener("abort", leave);
        const keepalive = setInterval(() => void stream.write(": keepalive\n\n"), deps.config.ADVISOR_KEEPALIVE_MS);
        // Events are queued, never awaited: a client that stops reading must not hold up the turn's
        // accounting (the answer stored, the hold settled) behind its socket.
        const send = async (event: string, data: unknown) => {
          if (gone.signal.aborted) throw new Error("the client is gone");
          void stream.writeSSE({ event, data: JSON.stringify(data) });
        };
        finished = (async () => {
          if (prepared.kind === "replay") {
            for (const e of prepared.events) await send(e.event, e.data);
            return;
          }
          await runTurn(deps, prepared, (e) => send(e.event, e.data), gone.signal);
        })().finally(() => {
          clearInterval(keepalive);
          requestSignal?.removeEventListener("abort", leave);
        });
        // A failure is logged once, by defer below (hono would print it raw).
        return finished.catch(() => undefined);
      });
      // no-transform and X-Accel-Buffering keep proxies (the web container's nginx) from buffering events.
      response.headers.set("Cache-Control", "no-cache, no-transform");
      response.headers.set("X-Accel-Buffering", "no");
      response.headers.set("Content-Type", "text/event-stream; charset=utf-8");
      // A Worker stays alive until the turn has been stored and settled, even after the client is gone.
      deps.defer(() => finished);
      return response;
    },
  );

export const advisorGroup = { prefix: "/api/advisor", app: advisor } as const satisfies Group;
