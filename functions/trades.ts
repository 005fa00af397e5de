import { currentUser, requireUser } from "../lib/http/auth.ts";
import { TradeDetailSchema, TradeListSchema } from "../lib/http/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { IdParamSchema, TradeJournalSchema, TradeListQuerySchema } from "../lib/trades/schema.ts";
import { valueOpenPositions } from "../lib/market/quotes.ts";
import { getTrade, journalTrade, listTrades } from "../lib/trades/trades.ts";

export const trades = createRouter()
  .get(
    "/",
    describeRoute({
      tag: "trades",
      summary: "Your trades, newest opened first; quotes=true values open stock positions at the delayed quote",
      responses: { 200: { description: "A page of trades.", schema: TradeListSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", TradeListQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const list = await listTrades(c.var.deps, currentUser(c), query);
    // Open stock positions valued at the delayed quote: one lookup per distinct symbol, cached 60 s.
    if (query.quotes !== "true" || !c.var.deps.config.features.quotes) return c.json(list);
    return c.json({ ...list, trades: await valueOpenPositions(c.var.deps, list.trades) });
  })
  .get("/:id", describeRoute({ tag: "trades", summary: "One trade with its fills", responses: { 200: { description: "The trade.", schema: TradeDetailSchema } } }), requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getTrade(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", describeRoute({ tag: "trades", summary: "Journal a trade: notes, tags, setup, rating", responses: { 200: { description: "The trade after the change.", schema: TradeDetailSchema } } }), requireUser, validate("param", IdParamSchema), validate("json", TradeJournalSchema), async (c) =>
    c.json(await journalTrade(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  );

export const tradesGroup = { prefix: "/api/trades", app: trades } as const satisfies Group;
