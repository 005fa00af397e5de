// The response bodies of the imports routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, iso, loose } from "../fields.ts";

/** POST /api/fills/push: per pushed fill, in order, whether it was imported or a duplicate (lib/imports/push.ts). */
export const PushResultSchema = z.object({
  importId: z.string(),
  imported: z.number(),
  duplicates: z.number(),
  fills: z.array(z.object({ index: z.number(), status: z.enum(["imported", "duplicate"]), fillId: z.nullable(z.string()) })),
});

export const PresetListSchema = z.object({ presets: z.array(loose()) });

export const SuggestionSchema = z.object({
  mapping: loose().check(z.describe("Field -> column name, as ImportRequest.mapping; only the fields found")),
  options: loose().check(z.describe("As ImportRequest.options: dateFormat, numberFormat, sideFromQuantitySign when the values show them")),
  notes: z.array(z.string()).check(z.describe("What to check before previewing, in words")),
  source: z.enum(["saved", "rules"]).check(z.describe("saved: the mapping this account used for the same header; rules: read from the names and values")),
  savedAt: z.nullable(z.string()),
});

export const ImportSchema = z.object({
  importId: id(),
  accountId: id(),
  status: z.enum(["staged", "committing", "committed", "undone"]),
  fileName: z.nullable(z.string()),
  presetId: z.nullable(z.string()),
  createdAt: iso(),
  expiresAt: iso(),
  committedAt: z.nullable(iso()),
  undoneAt: z.nullable(iso()),
  summary: z.unknown(),
  fillsCreated: z.nullable(z.number()),
});

export const ImportHistorySchema = z.object({ imports: z.array(ImportSchema) });

export const PreviewSchema = z.object({
  importId: id(),
  expiresAt: iso(),
  summary: loose(),
  errors: z.array(loose()),
  symbols: z.array(z.object({ symbol: z.string(), fills: z.number(), netQuantity: decimal() })),
  fills: z.array(loose()),
  rows: z.array(loose()),
  reconciliation: z.optional(
    z
      .object({
        file: decimal(),
        journal: decimal(),
        matches: z.boolean(),
        differ: z.array(z.object({ symbol: z.string(), file: decimal(), journal: decimal() })),
      })
      .check(z.describe("Another journal's export (mapping.pnl): its own P&L against the journal's, in total and per symbol where they differ")),
  ),
});

/** POST /api/csv-import/preview: a multipart form. */
export const PreviewBodySchema = z.object({
  file: z.string().check(z.describe("The broker's CSV file (at most CSV_IMPORT_MAX_FILE_BYTES)")),
  request: z.string().check(z.describe("JSON {accountId, presetId?, mapping?, options?} (at most CSV_IMPORT_MAX_REQUEST_BYTES)")),
});
