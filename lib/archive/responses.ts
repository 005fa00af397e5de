// The response bodies of the archive routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";

/** POST /api/auth/account/import: a multipart form. */
export const DataImportBodySchema = z.object({
  file: z.string().check(z.describe("A JSON export (GET /api/auth/account/export), at most 25 MB")),
});

export const DataImportSummarySchema = z.object({ accounts: z.number(), fills: z.number(), entries: z.number(), journaled: z.number() });

export const ArchiveImportSummarySchema = z.object({
  accounts: z.number(),
  fills: z.number(),
  entries: z.number(),
  journaled: z.number(),
  screenshots: z.number(),
  detachedNotes: z.number(),
  conversations: z.number(),
  imports: z.number(),
  bars: z.number().check(z.describe("Uploaded price bars stored again")),
  comments: z.number().check(z.describe("Comments on trades, notes and days stored again")),
});
