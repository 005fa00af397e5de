import { requireUser } from "../lib/http/auth.ts";
import { createRouter, type Group } from "../lib/http/index.ts";
import { PropFirmListSchema } from "../lib/http/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { presetsView } from "../lib/prop/presets.ts";

// Prop-firm accounts (DESIGN.md section 11, docs/prop-firms.md): the built-in presets of the firms' rules.
// An account's evaluation itself is under /api/accounts/:id/evaluation.
export const propFirms = createRouter().get(
  "/",
  describeRoute({ tag: "prop-firms", summary: "The built-in presets of the firms' rules, each with the date it was checked and its sources (a starting point to edit)", responses: { 200: { description: "The presets.", schema: PropFirmListSchema } } }),
  requireUser,
  (c) => c.json({ firms: presetsView() }),
);

export const propFirmsGroup = { prefix: "/api/prop-firms", app: propFirms } as const satisfies Group;
