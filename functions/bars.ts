import { z } from "zod/mini";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, readFilePart, type Group } from "../lib/http/index.ts";
import { BarsUploadBodySchema, BarsUploadSchema } from "../lib/http/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { AppError, validationError } from "../lib/errors.ts";
import { BAR_RESOLUTIONS, BARS_UPLOAD_MAX_BYTES, uploadBars } from "../lib/market/bars.ts";

const UploadFieldsSchema = z.object({
  symbol: z.string().check(z.minLength(1, "is required"), z.maxLength(40, "is too long")),
  resolution: z.enum(BAR_RESOLUTIONS, { error: "must be 1m or 1d" }),
});

// Price bars (docs/charts.md): a candle CSV a trader uploads for a symbol, when they have no bar provider key.
export const bars = createRouter().post(
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
    const { form, file } = await readFilePart(c, BARS_UPLOAD_MAX_BYTES, "the 5 MB limit for one candle file", "the candle CSV");
    const fields = UploadFieldsSchema.safeParse({ symbol: form.get("symbol"), resolution: form.get("resolution") });
    if (!fields.success) throw validationError(fields.error.issues, "Name the symbol and the resolution (1m or 1d) of the bars.");
    if (file.size === 0) throw new AppError("VALIDATION_ERROR", "The file is empty.", { fields: [{ path: "file", message: "is empty" }] });
    const bytes = new Uint8Array(await file.arrayBuffer());
    return c.json(await uploadBars(c.var.deps, currentUser(c), { ...fields.data, bytes }), 201);
  },
);

export const barsGroup = { prefix: "/api/bars", app: bars } as const satisfies Group;
