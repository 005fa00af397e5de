import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { IdParamSchema, TradeJournalSchema, TradeListQuerySchema } from "../lib/trades/schema.ts";
import { valueOpenPositions } from "../lib/market/quotes.ts";
import { getTrade, journalTrade, listTrades } from "../lib/trades/trades.ts";

export const trades = createRouter()
  .get("/", requireUser, validate("query", TradeListQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const list = await listTrades(c.var.deps, currentUser(c), query);
    // Open stock positions valued at the delayed quote: one lookup per distinct symbol, cached 60 s.
    if (query.quotes !== "true" || !c.var.deps.config.features.quotes) return c.json(list);
    return c.json({ ...list, trades: await valueOpenPositions(c.var.deps, list.trades) });
  })
  .get("/:id", requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getTrade(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", requireUser, validate("param", IdParamSchema), validate("json", TradeJournalSchema), async (c) =>
    c.json(await journalTrade(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  );

export const tradesGroup = { prefix: "/api/trades", app: trades } as const satisfies Group;
