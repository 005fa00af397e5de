import { createBrokerage, deleteBrokerage, getBrokerage, listBrokerages, renameBrokerage } from "../lib/accounts/brokerages.ts";
import { BrokeragePatchSchema, IdParamSchema, NewBrokerageSchema } from "../lib/accounts/schema.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";

export const brokerages = createRouter()
  .get("/", requireUser, async (c) => c.json({ brokerages: await listBrokerages(c.var.deps, currentUser(c)) }))
  .post("/", requireUser, validate("json", NewBrokerageSchema), async (c) =>
    c.json(await createBrokerage(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/:id", requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getBrokerage(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", requireUser, validate("param", IdParamSchema), validate("json", BrokeragePatchSchema), async (c) =>
    c.json(await renameBrokerage(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", requireUser, validate("param", IdParamSchema), async (c) => {
    await deleteBrokerage(c.var.deps, currentUser(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

export const brokeragesGroup = { prefix: "/api/brokerages", app: brokerages } as const satisfies Group;
