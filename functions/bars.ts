import { z } from "zod/mini";
import { deleteStoredKey, getDataKey, saveDataKey } from "../lib/keys/keys.ts";
import { BARS } from "../lib/providers/providers.ts";
import { MarketDataKeySaveSchema } from "../lib/providers/schema.ts";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { createRouter, readUpload, validate, type Group } from "../lib/http/index.ts";
import { BarsUploadBodySchema, BarsUploadSchema } from "../lib/market/responses.ts";
import { MarketDataKeySchema } from "../lib/keys/responses.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { AppError, validationError } from "../lib/errors.ts";
import { BAR_RESOLUTIONS, BARS_UPLOAD_MAX_BYTES } from "../lib/market/bars.ts";
import { uploadBars } from "../lib/market/bars-upload.ts";

const UploadFieldsSchema = z.object({
  symbol: z.string().check(z.minLength(1, "is required"), z.maxLength(40, "is too long")),
  resolution: z.enum(BAR_RESOLUTIONS, { error: "must be 1m or 1d" }),
});

// Price bars (docs/charts.md): the trader's bar provider key (Polygon.io), and a candle CSV a trader uploads
// for a symbol when they have none.
export const bars = createRouter()
  .get("/key", describeRoute({ tag: "bars", scope: null, summary: "Whether you have a bar provider key (Polygon.io)", responses: { 200: { description: "configured false, or its last four characters.", schema: MarketDataKeySchema } } }), requireUser, async (c) =>
    c.json(await getDataKey(c.var.deps, currentUser(c), BARS)),
  )
  .put(
    "/key",
    describeRoute({ tag: "bars", summary: "Save a bar provider key (Polygon.io; probed first; stored sealed)", responses: { 200: { description: "The saved key.", schema: MarketDataKeySchema } }, errors: ["BARS_KEY_INVALID"] }),
    requireUser,
    rateLimit(LIMITS.barsKeySave, "user"),
    validate("json", MarketDataKeySaveSchema),
    async (c) => c.json(await saveDataKey(c.var.deps, currentUser(c), c.req.valid("json"), BARS)),
  )
  .delete("/key", describeRoute({ tag: "bars", summary: "Delete your bar provider key", responses: { 204: { description: "Deleted." } }, errors: ["NOT_FOUND"] }), requireUser, async (c) => {
    await deleteStoredKey(c.var.deps, currentUser(c), BARS);
    return c.body(null, 204);
  })
  .post(
  "/upload",
  describeRoute({
    tag: "bars",
    summary: "Upload a candle CSV (time, open, high, low, close, volume) as your bars of a symbol; all or nothing",
    body: { contentType: "multipart/form-data", schema: BarsUploadBodySchema },
    responses: { 201: { description: "What was stored.", schema: BarsUploadSchema } },
    errors: ["VALIDATION_ERROR", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  }),
  requireUser,
  async (c) => {
    const { fields: parts, file } = await readUpload(c, BARS_UPLOAD_MAX_BYTES, "the 5 MB limit for one candle file", "the candle CSV");
    const fields = UploadFieldsSchema.safeParse({ symbol: parts.get("symbol"), resolution: parts.get("resolution") });
    if (!fields.success) throw validationError(fields.error.issues, "Name the symbol and the resolution (1m or 1d) of the bars.");
    if (file.bytes.length === 0) throw new AppError("VALIDATION_ERROR", "The file is empty.", { fields: [{ path: "file", message: "is empty" }] });
    return c.json(await uploadBars(c.var.deps, currentUser(c), { ...fields.data, bytes: file.bytes }), 201);
  },
);

export const barsGroup = { prefix: "/api/bars", app: bars } as const satisfies Group;
