import { rateLimit, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { getQuote, quotesConfigured } from "../lib/market/quotes.ts";
import { QuoteParamSchema, SymbolSearchQuerySchema } from "../lib/market/schema.ts";
import { searchSymbols } from "../lib/market/symbols.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";

export const symbols = createRouter().get("/", requireUser, validate("query", SymbolSearchQuerySchema), async (c) =>
  c.json(await searchSymbols(c.var.deps, c.req.valid("query").q)),
);

// Without STOCK_QUOTE_API_KEY the route is absent for everyone: 404 before anything is counted or sent.
export const quotes = createRouter().get(
  "/:symbol",
  requireUser,
  async (c, next) => {
    quotesConfigured(c.var.deps.config);
    await next();
  },
  rateLimit(LIMITS.quote, "user"),
  validate("param", QuoteParamSchema),
  async (c) => c.json(await getQuote(c.var.deps, c.req.valid("param").symbol)),
);

export const symbolsGroup = { prefix: "/api/symbols", app: symbols } as const satisfies Group;
export const quotesGroup = { prefix: "/api/quotes", app: quotes } as const satisfies Group;
