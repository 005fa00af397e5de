import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { IdParamSchema, TradeJournalSchema, TradeListQuerySchema } from "../lib/trades/schema.ts";
import { getTrade, journalTrade, listTrades } from "../lib/trades/trades.ts";

export const trades = createRouter()
  .get("/", requireUser, validate("query", TradeListQuerySchema), async (c) =>
    c.json(await listTrades(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get("/:id", requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getTrade(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", requireUser, validate("param", IdParamSchema), validate("json", TradeJournalSchema), async (c) =>
    c.json(await journalTrade(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  );

export const tradesGroup = { prefix: "/api/trades", app: trades } as const satisfies Group;
