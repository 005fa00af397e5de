import { currentUser, requireUser } from "../lib/http/auth.ts";
import { ComplianceSchema, RuleListSchema, RuleSchema } from "../lib/rules/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { complianceReport } from "../lib/rules/compliance.ts";
import { createRule, deleteRule, listRules, updateRule } from "../lib/rules/rules.ts";
import { ComplianceQuerySchema, NewRuleSchema, RuleIdParamSchema, RuleListQuerySchema, RulePatchSchema } from "../lib/rules/schema.ts";

// Trading rules and compliance (docs/discipline.md, "Trading rules"): limits set per account, scored after
// the fact from the trades; they never block a fill.
export const rules = createRouter()
  .get(
    "/",
    describeRoute({ tag: "rules", summary: "An account's trading rules", responses: { 200: { description: "The rules.", schema: RuleListSchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("query", RuleListQuerySchema),
    async (c) => c.json(await listRules(c.var.deps, currentUser(c), c.req.valid("query").accountId)),
  )
  .post(
    "/",
    describeRoute({ tag: "rules", summary: "Add a trading rule to an account", responses: { 201: { description: "The rule.", schema: RuleSchema } }, errors: ["NOT_FOUND", "CONFLICT"] }),
    requireUser,
    validate("json", NewRuleSchema),
    async (c) => c.json(await createRule(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get(
    "/compliance",
    describeRoute({
      tag: "rules",
      summary: "An account's compliance from one day to another: each rule with what broke it and what that cost, compliant trades against the others, each day's score, the streak",
      responses: { 200: { description: "The report.", schema: ComplianceSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", ComplianceQuerySchema),
    async (c) => {
      const { accountId, from, to, currency } = c.req.valid("query");
      return c.json(await complianceReport(c.var.deps, currentUser(c), accountId, { from, to, currency }));
    },
  )
  .patch(
    "/:id",
    describeRoute({ tag: "rules", summary: "Change a rule, its weight, or turn it off and on", responses: { 200: { description: "The rule.", schema: RuleSchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", RuleIdParamSchema),
    validate("json", RulePatchSchema),
    async (c) => c.json(await updateRule(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "rules", summary: "Delete a rule", responses: { 204: { description: "Deleted." } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", RuleIdParamSchema),
    async (c) => {
      await deleteRule(c.var.deps, currentUser(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

export const rulesGroup = { prefix: "/api/rules", app: rules } as const satisfies Group;
