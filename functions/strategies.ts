import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { StrategyListSchema, StrategySchema } from "../lib/options/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { NewStrategySchema, StrategyJournalSchema, StrategyListQuerySchema } from "../lib/options/schema.ts";
import { getStrategy, groupStrategy, journalStrategy, listStrategies, ungroupStrategy } from "../lib/options/strategies.ts";
import { IdParamSchema } from "../lib/trades/schema.ts";

// Option strategies (DESIGN.md section 11, "Option strategies"; docs/options.md): the legs of a spread, a condor, a
// covered call read as one trade, grouped by themselves or by hand, journaled as a whole.
export const strategies = createRouter()
  .get(
    "/",
    describeRoute({
      tag: "strategies",
      summary: "Your option strategies, newest opened first: each option trade is a leg of exactly one",
      description: "Grouped by themselves (opening fills within 60 seconds of the first, on one account and underlying) or by hand. `kind` filters by what the legs make (vertical, iron_condor...); `tradeId` finds the strategy a trade is a leg of.",
      responses: { 200: { description: "A page of strategies, and the cursor of the next.", schema: StrategyListSchema } },
    }),
    requireUser,
    validate("query", StrategyListQuerySchema),
    async (c) => c.json(await listStrategies(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .post(
    "/",
    describeRoute({
      tag: "strategies",
      summary: "Group trades by hand into one strategy (they leave the strategies they were in; no regrouping undoes it)",
      description: "Trades of one account and one underlying (options, and a covered call's shares): two accounts or underlyings, or a future, are 400 naming tradeIds.",
      responses: { 201: { description: "The strategy.", schema: StrategySchema } },
      errors: ["VALIDATION_ERROR", "NOT_FOUND"],
    }),
    requireUser,
    validate("json", NewStrategySchema),
    async (c) => c.json(await groupStrategy(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get(
    "/:id",
    describeRoute({ tag: "strategies", summary: "One strategy: its legs, figures, payoff at expiry, roll and journal", responses: { 200: { description: "The strategy.", schema: StrategySchema } } }),
    requireUser,
    validate("param", IdParamSchema),
    async (c) => c.json(await getStrategy(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch(
    "/:id",
    describeRoute({ tag: "strategies", summary: "Journal a strategy as a whole: notes, tags, setup, rating, planned risk", responses: { 200: { description: "The strategy.", schema: StrategySchema } } }),
    requireUser,
    validate("param", IdParamSchema),
    validate("json", StrategyJournalSchema),
    async (c) => c.json(await journalStrategy(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "strategies", summary: "Split a strategy back into one per trade (none regrouped by itself after)", responses: { 204: { description: "Split." } } }),
    requireUser,
    validate("param", IdParamSchema),
    async (c) => {
      await ungroupStrategy(c.var.deps, currentUser(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

export const strategiesGroup = { prefix: "/api/strategies", app: strategies } as const satisfies Group;
