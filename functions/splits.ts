import { currentUser, requireUser } from "../lib/http/auth.ts";
import { z } from "zod/mini";
import { SplitListSchema, SplitSchema } from "../lib/trades/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { addSplit, deleteSplit, listSplits } from "../lib/trades/splits.ts";
import { NewSplitSchema, SplitListQuerySchema } from "../lib/trades/schema.ts";

const IdParam = z.object({ id: z.uuid("must be a uuid") });

// Stock splits the trader records (docs/trading.md, "Stock splits"): trades of the symbol are matched in
// post-split shares in every account of theirs.
export const splits = createRouter()
  .get(
    "/",
    describeRoute({ tag: "splits", summary: "Your recorded stock splits, newest first", responses: { 200: { description: "The splits.", schema: SplitListSchema } } }),
    requireUser,
    validate("query", SplitListQuerySchema),
    async (c) => c.json(await listSplits(c.var.deps, currentUser(c), c.req.valid("query").symbol)),
  )
  .post(
    "/",
    describeRoute({
      tag: "splits",
      summary: "Record a stock split: the symbol's trades are rebuilt in post-split shares in all your accounts (cash is untouched)",
      responses: { 201: { description: "The split.", schema: SplitSchema } },
      errors: ["CONFLICT", "INVALID_TIMEZONE"],
    }),
    requireUser,
    validate("json", NewSplitSchema),
    async (c) => c.json(await addSplit(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "splits", summary: "Remove a split (the symbol's trades are rebuilt without it)", responses: { 204: { description: "Removed." } } }),
    requireUser,
    validate("param", IdParam),
    async (c) => {
      await deleteSplit(c.var.deps, currentUser(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

export const splitsGroup = { prefix: "/api/splits", app: splits } as const satisfies Group;
