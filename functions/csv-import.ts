import type { Context } from "hono";
import { safeParse } from "zod/mini";
import { AppError, validationError } from "../lib/errors.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { ImportHistorySchema, ImportSchema, PresetListSchema, PreviewBodySchema, PreviewSchema, SuggestionSchema } from "../lib/imports/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, readUpload, validate, type AppEnv, type Group } from "../lib/http/index.ts";
import {
  commitImport,
  discardImport,
  getImport,
  importHistory,
  previewImport,
  undoImport,
  type PreviewInput,
} from "../lib/imports/imports.ts";
import { PRESETS } from "../lib/imports/presets.ts";
import { CommitSchema, HistoryQuerySchema, ImportIdParamSchema, ImportRequestSchema, SuggestRequestSchema } from "../lib/imports/schema.ts";
import { suggestFor } from "../lib/imports/suggest.ts";

export const csvImport = createRouter()
  .get("/presets", describeRoute({ tag: "csv-import", summary: "The broker formats the importer knows", responses: { 200: { description: "The presets.", schema: PresetListSchema } } }), requireUser, (c) => c.json({ presets: PRESETS }))
  .post(
    "/suggest",
    describeRoute({ tag: "csv-import", summary: "A column mapping for a file no preset reads: the account's saved one for this header, else one read from the names and values", responses: { 200: { description: "The suggestion, to confirm.", schema: SuggestionSchema } }, errors: ["NOT_FOUND"] }),
    requireUser, validate("json", SuggestRequestSchema), async (c) => c.json(await suggestFor(c.var.deps, currentUser(c), c.req.valid("json"))),
  )
  .post(
    "/preview",
    describeRoute({ tag: "csv-import", scope: "import", summary: "Stage a CSV file: parse it, check it, show what a commit would write", body: { contentType: "multipart/form-data", schema: PreviewBodySchema }, responses: { 201: { description: "The staged preview (it expires).", schema: PreviewSchema } }, errors: ["VALIDATION_ERROR", "NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"] }), 
    requireUser, async (c) => c.json(await previewImport(c.var.deps, currentUser(c), await readPreviewUpload(c)), 201),
  )
  .post("/commit", describeRoute({ tag: "csv-import", scope: "import", summary: "Commit a staged preview: its fills, trades and cash, all at once", responses: { 200: { description: "The committed import.", schema: ImportSchema } }, errors: ["NOT_FOUND", "CONFLICT", "GONE"] }), requireUser, validate("json", CommitSchema), async (c) => {
    const { importId, includeDuplicates } = c.req.valid("json");
    return c.json(await commitImport(c.var.deps, currentUser(c), importId, includeDuplicates ?? false));
  })
  .get("/history", describeRoute({ tag: "csv-import", summary: "The imports of an account, newest first", responses: { 200: { description: "The imports.", schema: ImportHistorySchema } }, errors: ["NOT_FOUND"] }), requireUser, validate("query", HistoryQuerySchema), async (c) =>
    c.json(await importHistory(c.var.deps, currentUser(c), c.req.valid("query").accountId)),
  )
  .get("/:importId", describeRoute({ tag: "csv-import", summary: "One import", responses: { 200: { description: "The import.", schema: ImportSchema } } }), requireUser, validate("param", ImportIdParamSchema), async (c) =>
    c.json(await getImport(c.var.deps, currentUser(c), c.req.valid("param").importId)),
  )
  .delete("/:importId", describeRoute({ tag: "csv-import", scope: "import", summary: "Discard a staged preview", responses: { 204: { description: "Discarded." } }, errors: ["CONFLICT"] }), requireUser, validate("param", ImportIdParamSchema), async (c) => {
    await discardImport(c.var.deps, currentUser(c), c.req.valid("param").importId);
    return c.body(null, 204);
  })
  .post("/:importId/undo", describeRoute({ tag: "csv-import", scope: "import", summary: "Undo a committed import: its fills, trades and cash go", responses: { 200: { description: "The import, now undone.", schema: ImportSchema } }, errors: ["CONFLICT"] }), requireUser, validate("param", ImportIdParamSchema), async (c) =>
    c.json(await undoImport(c.var.deps, currentUser(c), c.req.valid("param").importId)),
  );

export const csvImportGroup = { prefix: "/api/csv-import", app: csvImport } as const satisfies Group;

/**
 * The preview's upload: the file's bytes, its name and the checked `request` part. Its own function, so the
 * form and the file (two more copies of the bytes) are unreachable while the preview runs.
 */
async function readPreviewUpload(c: Context<AppEnv>): Promise<PreviewInput> {
  const { config } = c.var.deps;
  const { fields, file } = await readUpload(c, config.CSV_IMPORT_MAX_FILE_BYTES + config.CSV_IMPORT_MAX_REQUEST_BYTES, "CSV_IMPORT_MAX_FILE_BYTES", "the CSV file");
  if (file.bytes.length > config.CSV_IMPORT_MAX_FILE_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", `The file is larger than ${config.CSV_IMPORT_MAX_FILE_BYTES} bytes (CSV_IMPORT_MAX_FILE_BYTES).`);
  }
  const json = fields.get("request");
  if (json === undefined) {
    throw new AppError("VALIDATION_ERROR", "Add the JSON `request` part (accountId, presetId or mapping, options).", {
      fields: [{ path: "request", message: "is required" }],
    });
  }
  if (new TextEncoder().encode(json).length > config.CSV_IMPORT_MAX_REQUEST_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", `The request part is larger than ${config.CSV_IMPORT_MAX_REQUEST_BYTES} bytes (CSV_IMPORT_MAX_REQUEST_BYTES).`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new AppError("VALIDATION_ERROR", "The request part is not valid JSON.", { fields: [{ path: "request", message: "is not JSON" }] });
  }
  const parsed = safeParse(ImportRequestSchema, raw);
  if (!parsed.success) throw validationError(parsed.error.issues.map((i) => ({ ...i, path: ["request", ...i.path] })));
  return { fileName: file.name || null, bytes: file.bytes, request: parsed.data };
}
