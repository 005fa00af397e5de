import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { addFill, deleteFill, getFill, listFills, updateFill } from "../lib/trades/fills.ts";
import { FillListQuerySchema, FillPatchSchema, IdParamSchema, NewFillSchema } from "../lib/trades/schema.ts";

export const fills = createRouter()
  .get("/", requireUser, validate("query", FillListQuerySchema), async (c) =>
    c.json(await listFills(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .post("/", requireUser, validate("json", NewFillSchema), async (c) =>
    c.json(await addFill(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get("/:id", requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getFill(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", requireUser, validate("param", IdParamSchema), validate("json", FillPatchSchema), async (c) =>
    c.json(await updateFill(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", requireUser, validate("param", IdParamSchema), async (c) => {
    await deleteFill(c.var.deps, currentUser(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

export const fillsGroup = { prefix: "/api/fills", app: fills } as const satisfies Group;
