import { createBrokerage, deleteBrokerage, getBrokerage, listBrokerages, renameBrokerage } from "../lib/accounts/brokerages.ts";
import { BrokeragePatchSchema, IdParamSchema, NewBrokerageSchema } from "../lib/accounts/schema.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { BrokerageListSchema, BrokerageSchema } from "../lib/accounts/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

export const brokerages = createRouter()
  .get("/", describeRoute({ tag: "brokerages", summary: "Your brokerages", responses: { 200: { description: "Every brokerage of yours.", schema: BrokerageListSchema } } }), requireUser, async (c) => c.json({ brokerages: await listBrokerages(c.var.deps, currentUser(c)) }))
  .post("/", describeRoute({ tag: "brokerages", summary: "Add a brokerage", responses: { 201: { description: "The new brokerage.", schema: BrokerageSchema } }, errors: ["CONFLICT"] }), requireUser, validate("json", NewBrokerageSchema), async (c) =>
    c.json(await createBrokerage(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/:id", describeRoute({ tag: "brokerages", summary: "One brokerage", responses: { 200: { description: "The brokerage.", schema: BrokerageSchema } } }), requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getBrokerage(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", describeRoute({ tag: "brokerages", summary: "Rename a brokerage", responses: { 200: { description: "The brokerage after the change.", schema: BrokerageSchema } }, errors: ["CONFLICT"] }), requireUser, validate("param", IdParamSchema), validate("json", BrokeragePatchSchema), async (c) =>
    c.json(await renameBrokerage(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", describeRoute({ tag: "brokerages", summary: "Delete a brokerage (its accounts keep their history, without it)", responses: { 204: { description: "Deleted." } } }), requireUser, validate("param", IdParamSchema), async (c) => {
    await deleteBrokerage(c.var.deps, currentUser(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

export const brokeragesGroup = { prefix: "/api/brokerages", app: brokerages } as const satisfies Group;
