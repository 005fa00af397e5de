import { currentUser, requireUser } from "../lib/http/auth.ts";
import { InsightsSchema } from "../lib/insights/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { findings, InsightsQuerySchema } from "../lib/insights/findings.ts";

// Behaviour findings (docs/discipline.md, "Insights"): deterministic detectors over the trader's own record.
export const insights = createRouter().get(
  "/",
  describeRoute({
    tag: "insights",
    summary: "Behaviour findings over a period: revenge trades, overtrading, size-up after a loss, losers held longer than winners; each citing its trades",
    responses: { 200: { description: "The findings.", schema: InsightsSchema } },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  validate("query", InsightsQuerySchema),
  async (c) => c.json(await findings(c.var.deps, currentUser(c), c.req.valid("query"))),
);

export const insightsGroup = { prefix: "/api/insights", app: insights } as const satisfies Group;
