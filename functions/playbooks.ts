import { z } from "zod/mini";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { PlaybookListSchema, PlaybookSchema } from "../lib/playbooks/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { createPlaybook, deletePlaybook, getPlaybook, listPlaybooks, updatePlaybook } from "../lib/playbooks/playbooks.ts";
import { ownerImages } from "./images.ts";
import { NewPlaybookSchema, PlaybookListQuerySchema, PlaybookPatchSchema } from "../lib/playbooks/schema.ts";

const IdParam = z.object({ id: z.uuid("must be a uuid") });

// Playbooks (docs/discipline.md): the setups a trader trades, with a checklist their trades answer
// (PATCH /api/trades/:id {playbookId, playbookAnswers}); the report is GET /api/stats/playbooks.
export const playbooks = createRouter()
  .get(
    "/",
    describeRoute({ tag: "playbooks", summary: "Your playbooks (active first, by name)", responses: { 200: { description: "The playbooks.", schema: PlaybookListSchema } } }),
    requireUser,
    validate("query", PlaybookListQuerySchema),
    async (c) => c.json(await listPlaybooks(c.var.deps, currentUser(c), c.req.valid("query").archived)),
  )
  .post(
    "/",
    describeRoute({ tag: "playbooks", summary: "Create a playbook with its checklist", responses: { 201: { description: "The playbook.", schema: PlaybookSchema } }, errors: ["CONFLICT"] }),
    requireUser,
    validate("json", NewPlaybookSchema),
    async (c) => c.json(await createPlaybook(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get(
    "/:id",
    describeRoute({ tag: "playbooks", summary: "One playbook", responses: { 200: { description: "The playbook.", schema: PlaybookSchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", IdParam),
    async (c) => c.json(await getPlaybook(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch(
    "/:id",
    describeRoute({
      tag: "playbooks",
      summary: "Edit a playbook: name, criteria, the checklist (items keep their answers by id), archived",
      responses: { 200: { description: "The playbook.", schema: PlaybookSchema } },
      errors: ["NOT_FOUND", "CONFLICT"],
    }),
    requireUser,
    validate("param", IdParam),
    validate("json", PlaybookPatchSchema),
    async (c) => c.json(await updatePlaybook(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id",
    describeRoute({
      tag: "playbooks",
      summary: "Delete a playbook no trade is taken from (one with trades is archived instead: 409)",
      responses: { 204: { description: "Deleted." } },
      errors: ["NOT_FOUND", "CONFLICT"],
    }),
    requireUser,
    validate("param", IdParam),
    async (c) => {
      await deletePlaybook(c.var.deps, currentUser(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

playbooks.route("/", ownerImages({ tag: "playbooks", what: "a playbook (its examples)", path: "/:id", param: IdParam, ownerOf: (p) => ({ playbookId: p.id }) }));

export const playbooksGroup = { prefix: "/api/playbooks", app: playbooks } as const satisfies Group;
