import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { MonteCarloResultSchema } from "../lib/simulations/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { MonteCarloSchema, runMonteCarlo } from "../lib/simulations/simulations.ts";

// Simulations (DESIGN.md section 11, docs/simulations.md): the Monte Carlo of the trader's own R multiples.
// The what-if on the real history is a statistic: GET /api/stats/what-if.
export const simulations = createRouter().post(
  "/monte-carlo",
  describeRoute({
    tag: "simulations",
    summary: "Block-bootstrap Monte Carlo of the period's own R multiples: final equity and drawdown percentiles, ruin and target probabilities (Wilson 95%), a sweep of risk per trade, and with `prop` the chance to pass an evaluation",
    responses: { 200: { description: "The simulation.", schema: MonteCarloResultSchema } },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  validate("json", MonteCarloSchema),
  async (c) => c.json(await runMonteCarlo(c.var.deps, currentUser(c), c.req.valid("json"))),
);

export const simulationsGroup = { prefix: "/api/simulations", app: simulations } as const satisfies Group;
