import { currentUser, requireUser } from "../lib/http/auth.ts";
import { FillDetailSchema, FillListSchema, FillSchema } from "../lib/trades/responses.ts";
import { PushResultSchema } from "../lib/imports/responses.ts";
import { AppError } from "../lib/errors.ts";
import { IdempotencyKeySchema, PUSH_MAX_FILLS, PushBatchSchema, pushFills } from "../lib/imports/push.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { addFill, deleteFill, getFill, listFills, updateFill } from "../lib/trades/fills.ts";
import { FillListQuerySchema, FillPatchSchema, IdParamSchema, NewFillSchema } from "../lib/trades/schema.ts";

export const fills = createRouter()
  .get("/", describeRoute({ tag: "fills", summary: "An account's fills, newest first", responses: { 200: { description: "A page of fills.", schema: FillListSchema } }, errors: ["NOT_FOUND"] }), requireUser, validate("query", FillListQuerySchema), async (c) =>
    c.json(await listFills(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .post(
    "/",
    describeRoute({ tag: "fills", scope: "fills:write", summary: "Record a fill by hand (its trade and cash follow)", responses: { 201: { description: "The fill.", schema: FillSchema } }, errors: ["NOT_FOUND", "CONFLICT"] }),
    requireUser,
    validate("json", NewFillSchema), async (c) =>
    c.json(await addFill(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .post(
    "/push",
    describeRoute({
      tag: "fills",
      scope: "fills:write",
      summary: "Push a batch of fills from a script or a platform (Idempotency-Key header), through the import pipeline",
      description: `Up to ${PUSH_MAX_FILLS} fills, all or nothing, imported like a CSV file (duplicates of fills already in the account skipped by execution id, else by symbol, time, side, quantity and price), listed in the import history as "API push" and undoable. The \`Idempotency-Key\` header (1 to 255 visible ASCII characters) is required: the same key with the same batch answers the first answer again and adds nothing; with another batch, 409.`,
      responses: { 201: { description: "Per fill, in order: imported (with its id) or duplicate.", schema: PushResultSchema } },
      errors: ["NOT_FOUND", "CONFLICT", "INVALID_TIMEZONE"],
    }),
    requireUser,
    validate("json", PushBatchSchema),
    async (c) => {
      const key = IdempotencyKeySchema.safeParse(c.req.header("Idempotency-Key") ?? "");
      if (!key.success) {
        throw new AppError("VALIDATION_ERROR", "The Idempotency-Key header is required.", {
          fields: [{ path: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }],
        });
      }
      return c.json(await pushFills(c.var.deps, currentUser(c), key.data, c.req.valid("json")), 201);
    },
  )
  .get("/:id", describeRoute({ tag: "fills", summary: "One fill, and the trades it is in now", responses: { 200: { description: "The fill and its trades' ids.", schema: FillDetailSchema } } }), requireUser, validate("param", IdParamSchema), async (c) =>
    c.json(await getFill(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .patch("/:id", describeRoute({ tag: "fills", scope: "fills:write", summary: "Correct a fill", responses: { 200: { description: "The fill after the change.", schema: FillSchema } }, errors: ["CONFLICT"] }), requireUser, validate("param", IdParamSchema), validate("json", FillPatchSchema), async (c) =>
    c.json(await updateFill(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", describeRoute({ tag: "fills", scope: "fills:write", summary: "Delete a fill (its trade and cash follow)", responses: { 204: { description: "Deleted." } } }), requireUser, validate("param", IdParamSchema), async (c) => {
    await deleteFill(c.var.deps, currentUser(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

export const fillsGroup = { prefix: "/api/fills", app: fills } as const satisfies Group;
