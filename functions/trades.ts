import { currentUser, requireUser, requireUserInStatement, statementCaller } from "../lib/http/auth.ts";
import { z } from "zod/mini";
import { TradeChartSchema } from "../lib/market/responses.ts";
import { TradeDetailSchema, TradeImageListSchema, TradeImageSchema, TradeImageUploadSchema, TradeListSchema } from "../lib/trades/responses.ts";
import { ChartQuerySchema, tradeChart } from "../lib/market/chart.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, jsonText, readUpload, validate, type Group } from "../lib/http/index.ts";
import { addTradeImage, deleteTradeImage, IMAGE_MAX_BYTES, listTradeImages } from "../lib/trades/images.ts";
import { serveImage } from "./images.ts";
import { IdParamSchema, TradeJournalSchema, TradeListQuerySchema } from "../lib/trades/schema.ts";
import { valueOpenPositions } from "../lib/market/quotes.ts";
import { getTrade, journalTrade, listTrades, tradeSuccessor } from "../lib/trades/trades.ts";
import { AppError } from "../lib/errors.ts";
import { commentRoutes } from "./comments.ts";

const ImageParamSchema = z.object({ id: z.uuid("must be a uuid"), imageId: z.uuid("must be a uuid") });

export const tradeImages = createRouter()
  .post(
    "/:id/images",
    describeRoute({
      tag: "trades",
      summary: "Add a screenshot to a trade (PNG, JPEG or WebP by content; at most 5 MB and 10 per trade; metadata removed)",
      body: { contentType: "multipart/form-data", schema: TradeImageUploadSchema },
      responses: { 201: { description: "The image as stored.", schema: TradeImageSchema } },
      errors: ["VALIDATION_ERROR", "NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "SERVICE_UNAVAILABLE"],
    }),
    requireUser,
    validate("param", IdParamSchema),
    async (c) => {
      const { file } = await readUpload(c, IMAGE_MAX_BYTES, "the 5 MB limit for one image", "the image");
      return c.json(await addTradeImage(c.var.deps, currentUser(c), { tradeId: c.req.valid("param").id }, file.bytes), 201);
    },
  )
  .get(
    "/:id/images",
    describeRoute({ tag: "trades", summary: "A trade's screenshots, oldest first", responses: { 200: { description: "The images.", schema: TradeImageListSchema } } }),
    requireUser,
    validate("param", IdParamSchema),
    async (c) => c.json(await listTradeImages(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .get(
    "/:id/images/:imageId",
    describeRoute({
      tag: "trades",
      summary: "One screenshot's bytes (ETag; cached private, revalidated on every use)",
      responses: {
        200: { description: "The image.", contentType: "image/*", schema: z.string().check(z.describe("The image bytes")) },
        304: { description: "Not modified (If-None-Match matched)." },
      },
      errors: ["SERVICE_UNAVAILABLE"],
    }),
    requireUser,
    validate("param", ImageParamSchema),
    async (c) => {
      const { id, imageId } = c.req.valid("param");
      return serveImage(c, { tradeId: id }, imageId);
    },
  )
  .delete(
    "/:id/images/:imageId",
    describeRoute({ tag: "trades", summary: "Delete a screenshot", responses: { 204: { description: "Deleted." } } }),
    requireUser,
    validate("param", ImageParamSchema),
    async (c) => {
      const { id, imageId } = c.req.valid("param");
      await deleteTradeImage(c.var.deps, currentUser(c), { tradeId: id }, imageId);
      return c.body(null, 204);
    },
  );
export const trades = createRouter()
  .get(
    "/",
    describeRoute({
      tag: "trades",
      summary: "Your trades, newest opened first unless sort/order say otherwise; totals=true adds the filtered set's totals; quotes=true values open stock positions at the delayed quote",
      responses: { 200: { description: "A page of trades.", schema: TradeListSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", TradeListQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const list = await listTrades(c.var.deps, currentUser(c), query);
    // Open stock positions valued at the delayed quote: one lookup per distinct symbol, cached 60 s.
    if (query.quotes !== "true" || !c.var.deps.config.features.quotes) return c.json(list);
    return c.json({ ...list, trades: await valueOpenPositions(c.var.deps, list.trades) });
  })
  .get(
    "/:id",
    describeRoute({
      tag: "trades",
      summary: "One trade with its fills",
      description: "A trade rebuilt when its fills changed (a fill added, corrected or deleted, an import undone and made again) has a new id: its old id answers 308 with Location the trade that holds its notes now.",
      responses: { 200: { description: "The trade.", schema: TradeDetailSchema }, 308: { description: "Rebuilt: Location is the trade that holds its notes now." } },
    }),
    requireUser,
    validate("param", IdParamSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const user = currentUser(c);
      try {
        return c.json(await getTrade(c.var.deps, user, id));
      } catch (err) {
        // An old address of a trade the user has (its journal remembers the ids it was on): sent on, so a page or a
        // link kept from before the rebuild reaches the trade without a 404.
        if (!(err instanceof AppError) || err.code !== "NOT_FOUND") throw err;
        const now = await tradeSuccessor(c.var.deps, user, id);
        if (!now) throw err;
        const url = new URL(c.req.url);
        return c.redirect(`${url.pathname.replace(/[^/]+$/, now)}${url.search}`, 308);
      }
    },
  )
  .get(
    "/:id/chart",
    describeRoute({
      tag: "trades",
      summary: "A trade's chart: your bars around it (fetched on your bar provider key, or uploaded), its fills, average cost, plan and running P&L",
      responses: { 200: { description: "The chart; coverage.missing lists the days without bars yet and why.", schema: TradeChartSchema } },
      errors: ["NOT_FOUND", "VALIDATION_ERROR"],
    }),
    requireUserInStatement,
    validate("param", IdParamSchema),
    validate("query", ChartQuerySchema),
    async (c) => jsonText(c, await tradeChart(c.var.deps, statementCaller(c), c.req.valid("param").id, c.req.valid("query"))),
  )
  .patch("/:id", describeRoute({ tag: "trades", summary: "Journal a trade: notes, tags, setup, rating", responses: { 200: { description: "The trade after the change.", schema: TradeDetailSchema } } }), requireUser, validate("param", IdParamSchema), validate("json", TradeJournalSchema), async (c) =>
    c.json(await journalTrade(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .route("/", tradeImages)
  .route("/", commentRoutes({ path: "/:id", what: "a trade", param: IdParamSchema, target: (p) => ({ tradeId: p.id }) }));



export const tradesGroup = { prefix: "/api/trades", app: trades } as const satisfies Group;
