import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { PropFirmListSchema, PropReplaySchema, PropSummarySchema } from "../lib/prop/responses.ts";
import { propSummary, replayEvaluation } from "../lib/prop/evaluations.ts";
import { ReplaySchema } from "../lib/prop/schema.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { presetsView } from "../lib/prop/presets.ts";

// Prop-firm accounts (DESIGN.md section 11, docs/prop-firms.md): the built-in presets of the firms' rules.
// An account's evaluation itself is under /api/accounts/:id/evaluation.
export const propFirms = createRouter()
  .get(
    "/",
    describeRoute({ tag: "prop-firms", summary: "The built-in presets of the firms' rules, each with the date it was checked and its sources (a starting point to edit)", responses: { 200: { description: "The presets.", schema: PropFirmListSchema } } }),
    requireUser,
    (c) => c.json({ firms: presetsView() }),
  )
  .get(
    "/summary",
    describeRoute({ tag: "prop-firms", summary: "What the prop firms cost and paid: per account and in total per currency, fees paid, payouts received, net cash, its return on the fees", responses: { 200: { description: "The summary.", schema: PropSummarySchema } } }),
    requireUser,
    async (c) => c.json(await propSummary(c.var.deps, currentUser(c))),
  )
  .post(
    "/replay",
    describeRoute({ tag: "prop-firms", summary: "An account's own trades of a period under any rules, day by day: where they would have passed or breached", responses: { 200: { description: "The replay.", schema: PropReplaySchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("json", ReplaySchema),
    async (c) => c.json(await replayEvaluation(c.var.deps, currentUser(c), c.req.valid("json"))),
  );

export const propFirmsGroup = { prefix: "/api/prop-firms", app: propFirms } as const satisfies Group;
