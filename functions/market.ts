import { rateLimit, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { FuturesListSchema, QuoteSchema, SymbolListSchema } from "../lib/market/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { getQuote, quotesConfigured } from "../lib/market/quotes.ts";
import { QuoteParamSchema, SymbolSearchQuerySchema } from "../lib/market/schema.ts";
import { searchSymbols } from "../lib/market/symbols.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import { listFutures } from "../lib/instruments/futures.ts";

export const symbols = createRouter().get(
  "/",
  describeRoute({ tag: "symbols", summary: "Search tickers by prefix or company-name words (at most 20, exact ticker first)", responses: { 200: { description: "The matches.", schema: SymbolListSchema } } }),
  requireUser,
  validate("query", SymbolSearchQuerySchema), async (c) =>
  c.json(await searchSymbols(c.var.deps, c.req.valid("query").q)),
);

// Without STOCK_QUOTE_API_KEY the route is absent for everyone: 404 before anything is counted or sent.
export const quotes = createRouter().get(
  "/:symbol",
  describeRoute({
    tag: "quotes",
    summary: "The delayed last price of a stock (404 for everyone when the instance has no quote provider)",
    responses: { 200: { description: "The quote; `stale` when the provider failed and an older value is served.", schema: QuoteSchema } },
    errors: ["QUOTE_PROVIDER_REJECTED", "QUOTE_PROVIDER_UNAVAILABLE", "QUOTE_PROVIDER_BUSY"],
  }),
  requireUser,
  async (c, next) => {
    quotesConfigured(c.var.deps.config);
    await next();
  },
  rateLimit(LIMITS.quote, "user"),
  validate("param", QuoteParamSchema),
  async (c) => c.json(await getQuote(c.var.deps, c.req.valid("param").symbol)),
);

// The futures contracts the journal knows (lib/instruments/futures.ts): a fill of one takes its multiplier and currency from here.
export const instruments = createRouter().get(
  "/futures",
  describeRoute({
    tag: "instruments",
    summary: "The futures contracts the journal knows by root: name, exchange, multiplier, tick size, currency",
    responses: { 200: { description: "The contracts, by group and root.", schema: FuturesListSchema } },
  }),
  requireUser,
  (c) => {
    c.header("Cache-Control", "private, max-age=3600");
    return c.json(listFutures());
  },
);

export const symbolsGroup = { prefix: "/api/symbols", app: symbols } as const satisfies Group;
export const instrumentsGroup = { prefix: "/api/instruments", app: instruments } as const satisfies Group;
export const quotesGroup = { prefix: "/api/quotes", app: quotes } as const satisfies Group;
