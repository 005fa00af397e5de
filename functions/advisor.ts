import {
  deleteStoredKey,
  getMarketDataKey,
  listAvailableModels,
  listProviderKeys,
  modelProvider,
  saveMarketDataKey,
  saveProviderKey,
  updateProviderKey,
} from "../lib/advisor/keys.ts";
import { MARKET_DATA } from "../lib/advisor/providers.ts";
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
import { sseResponse } from "../lib/http/sse.ts";
import {
  ConversationIdSchema,
  ConversationListQuerySchema,
  ConversationPatchSchema,
  MarketDataKeySaveSchema,
  NewConversationSchema,
  ProviderKeyPatchSchema,
  ProviderKeySaveSchema,
  ProviderParamSchema,
  SettingsSchema,
  TurnSchema,
} from "../lib/advisor/schema.ts";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";

// The provider is checked (404 for an unknown one) before the rate limit and the body.
export const advisor = createRouter()
  .get("/provider-keys", requireUser, async (c) => c.json(await listProviderKeys(c.var.deps, currentUser(c))))
  .put(
    "/provider-keys/:provider",
    requireUser,
    validate("param", ProviderParamSchema),
    async (c, next) => (modelProvider(c.req.valid("param").provider), next()),
    rateLimit(LIMITS.providerKeySave, "user"),
    validate("json", ProviderKeySaveSchema),
    async (c) =>
      c.json(await saveProviderKey(c.var.deps, currentUser(c), modelProvider(c.req.valid("param").provider), c.req.valid("json"))),
  )
  .patch("/provider-keys/:provider", requireUser, validate("param", ProviderParamSchema), validate("json", ProviderKeyPatchSchema), async (c) =>
    c.json(await updateProviderKey(c.var.deps, currentUser(c), modelProvider(c.req.valid("param").provider), c.req.valid("json"))),
  )
  .delete("/provider-keys/:provider", requireUser, validate("param", ProviderParamSchema), async (c) => {
    await deleteStoredKey(c.var.deps, currentUser(c), modelProvider(c.req.valid("param").provider));
    return c.body(null, 204);
  })
  .get("/models", requireUser, async (c) => c.json(await listAvailableModels(c.var.deps, currentUser(c))))
  .get("/market-data-key", requireUser, async (c) => c.json(await getMarketDataKey(c.var.deps, currentUser(c))))
  .put("/market-data-key", requireUser, rateLimit(LIMITS.marketDataKeySave, "user"), validate("json", MarketDataKeySaveSchema), async (c) =>
    c.json(await saveMarketDataKey(c.var.deps, currentUser(c), c.req.valid("json"))),
  )
  .delete("/market-data-key", requireUser, async (c) => {
    await deleteStoredKey(c.var.deps, currentUser(c), MARKET_DATA);
    return c.body(null, 204);
  })
  .get("/settings", requireUser, async (c) => c.json(await getSettings(c.var.deps, currentUser(c))))
  .put("/settings", requireUser, validate("json", SettingsSchema), async (c) => c.json(await saveSettings(c.var.deps, currentUser(c), c.req.valid("json"))))
  .post("/conversations", requireUser, validate("json", NewConversationSchema), async (c) =>
    c.json(await createConversation(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/conversations", requireUser, validate("query", ConversationListQuerySchema), async (c) =>
    c.json(await listConversations(c.var.deps, currentUser(c), c.req.valid("query").cursor)),
  )
  .get("/conversations/:id", requireUser, validate("param", ConversationIdSchema), async (c) =>
    c.json(await getConversation(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/conversations/:id", requireUser, validate("param", ConversationIdSchema), validate("json", ConversationPatchSchema), async (c) =>
    c.json(await updateConversation(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/conversations/:id", requireUser, validate("param", ConversationIdSchema), async (c) => {
    await deleteConversation(c.var.deps, currentUser(c), c.req.valid("param").id);
    return c.body(null, 204);
  })
  // A turn: refusals are ordinary JSON errors; after them, the answer as server-sent events (DESIGN.md section 9).
  .post(
    "/conversations/:id/turns",
    requireUser,
    validate("param", ConversationIdSchema),
    rateLimit(LIMITS.advisorTurn, "user"),
    validate("json", TurnSchema),
    async (c) => {
      const { deps } = c.var;
      const prepared = await prepareTurn(deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"));
      const { response, finished } = sseResponse(c.req.raw, deps.config.ADVISOR_KEEPALIVE_MS, async ({ send, gone }) => {
        if (prepared.kind === "replay") {
          for (const e of prepared.events) await send(e.event, e.data);
          return;
        }
        await runTurn(deps, prepared, (e) => send(e.event, e.data), gone);
      });
      // A Worker stays alive until the turn has been stored and settled, even after the client is gone.
      deps.defer(() => finished);
      return response;
    },
  );

export const advisorGroup = { prefix: "/api/advisor", app: advisor } as const satisfies Group;
