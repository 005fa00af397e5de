import { currentUser, requireUser } from "../lib/http/auth.ts";
import { z } from "zod/mini";
import { JournalAttachResultSchema, JournalImpactSchema, JournalListSchema, JournalSchema } from "../lib/trades/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { attachJournal, deleteJournal, getJournal, journalByTrade, journalImpact, listDetached } from "../lib/journals/journals.ts";
import {
  AttachJournalSchema,
  DetachedListQuerySchema,
  JournalIdParamSchema,
  JournalImageParamSchema,
  JournalImpactQuerySchema,
  TradeIdParamSchema,
} from "../lib/journals/schema.ts";
import { deleteTradeImage } from "../lib/trades/images.ts";
import { serveImage } from "./images.ts";

// What a trader wrote about a trade, apart from the trade: detached notes (their fills are gone), old trade
// links, attaching a note by hand, and what a confirmation must say (docs/trading.md, "Journals follow fills").
export const journals = createRouter()
  .get(
    "/detached",
    describeRoute({
      tag: "journals",
      summary: "Detached notes: journals whose trade's fills are gone (undone, deleted), newest first",
      responses: { 200: { description: "The notes.", schema: JournalListSchema } },
    }),
    requireUser,
    validate("query", DetachedListQuerySchema),
    async (c) => c.json(await listDetached(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/impact",
    describeRoute({
      tag: "journals",
      summary: "How many journaled trades and screenshots deleting a fill, undoing an import or deleting an account touches",
      responses: { 200: { description: "The counts.", schema: JournalImpactSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", JournalImpactQuerySchema),
    async (c) => c.json(await journalImpact(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/by-trade/:tradeId",
    describeRoute({
      tag: "journals",
      summary: "The journal that is or was on a trade: an old link finds the trade now holding it, or the detached note",
      responses: { 200: { description: "The journal (tradeId: where it is now; null when detached).", schema: JournalSchema } },
    }),
    requireUser,
    validate("param", TradeIdParamSchema),
    async (c) => c.json(await journalByTrade(c.var.deps, currentUser(c), c.req.valid("param").tradeId)),
  )
  .get(
    "/:id",
    describeRoute({ tag: "journals", summary: "One journal, attached or detached", responses: { 200: { description: "The journal.", schema: JournalSchema } } }),
    requireUser,
    validate("param", JournalIdParamSchema),
    async (c) => c.json(await getJournal(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .post(
    "/:id/attach",
    describeRoute({
      tag: "journals",
      summary: "Put a note on a trade of its account; when the trade has notes, this one is merged into them",
      responses: { 200: { description: "Where it went.", schema: JournalAttachResultSchema } },
    }),
    requireUser,
    validate("param", JournalIdParamSchema),
    validate("json", AttachJournalSchema),
    async (c) => c.json(await attachJournal(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "journals", summary: "Delete a note and its screenshots", responses: { 204: { description: "Deleted." } }, errors: ["SERVICE_UNAVAILABLE"] }),
    requireUser,
    validate("param", JournalIdParamSchema),
    async (c) => {
      await deleteJournal(c.var.deps, currentUser(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  )
  .get(
    "/:id/images/:imageId",
    describeRoute({
      tag: "journals",
      summary: "One screenshot of a journal (a detached note's too)",
      responses: {
        200: { description: "The image.", contentType: "image/*", schema: z.string().check(z.describe("The image bytes")) },
        304: { description: "Not modified (If-None-Match matched)." },
      },
      errors: ["SERVICE_UNAVAILABLE"],
    }),
    requireUser,
    validate("param", JournalImageParamSchema),
    async (c) => {
      const { id, imageId } = c.req.valid("param");
      return serveImage(c, { journalId: id }, imageId);
    },
  )
  .delete(
    "/:id/images/:imageId",
    describeRoute({ tag: "journals", summary: "Delete a screenshot of a journal", responses: { 204: { description: "Deleted." } } }),
    requireUser,
    validate("param", JournalImageParamSchema),
    async (c) => {
      const { id, imageId } = c.req.valid("param");
      await deleteTradeImage(c.var.deps, currentUser(c), { journalId: id }, imageId);
      return c.body(null, 204);
    },
  );

export const journalsGroup = { prefix: "/api/journals", app: journals } as const satisfies Group;
