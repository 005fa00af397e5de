// The account itself: deleted (the password re-checked), its data exported and imported (docs/auth.md). Mounted in
// functions/auth.ts under /api/auth.
import { DeleteAccountSchema } from "../lib/auth/schema.ts";
import { DATA_IMPORT_MAX_BYTES, DataExportSchema, exportUserData, importUserData } from "../lib/archive/data-export.ts";
import { deleteOwnAccount } from "../lib/billing/closing.ts";
import { clearSessionCookie, currentUser, passwordCheckLimits, requireUser } from "../lib/http/auth.ts";
import { createRouter, readUpload, validate } from "../lib/http/index.ts";
import { DataImportBodySchema, DataImportSummarySchema } from "../lib/archive/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

export const accountRoutes = createRouter()
  .delete(
    "/account",
    describeRoute({
      tag: "auth",
      summary: "Delete your account and everything in it (your password, and confirm: \"delete my account\")",
      description: "A Pro subscription the payment provider may still bill is cancelled there first: if that fails (502) or cannot be done on this instance (402), nothing is deleted.",
      responses: { 204: { description: "Deleted; every session ended and the cookie cleared." } },
      errors: ["LAST_ADMIN", "PAYMENT_PROVIDER_ERROR", "BILLING_NOT_AVAILABLE"],
    }),
    requireUser,
    ...passwordCheckLimits,
    validate("json", DeleteAccountSchema),
    async (c) => {
      await deleteOwnAccount(c.var.deps, currentUser(c).id, c.req.valid("json").password);
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  )
  .get(
    "/account/export",
    describeRoute({
      tag: "auth",
      summary: "Everything you entered, as one JSON file (brokerages, accounts, ledgers, fills, trade journals) that an import restores",
      responses: { 200: { description: "The export (format trading-journal-export, version 1).", schema: DataExportSchema } },
    }),
    requireUser,
    async (c) => {
      const { json, fileName } = await exportUserData(c.var.deps, currentUser(c));
      c.header("Content-Disposition", `attachment; filename="${fileName}"`);
      c.header("Cache-Control", "no-store");
      return c.body(json, 200, { "Content-Type": "application/json; charset=utf-8" });
    },
  )
  .post(
    "/account/import",
    describeRoute({
      tag: "auth",
      summary: "Restore a JSON export into your data: its accounts are added, all or nothing",
      body: { contentType: "multipart/form-data", schema: DataImportBodySchema },
      responses: { 201: { description: "What was added.", schema: DataImportSummarySchema } },
      errors: ["VALIDATION_ERROR", "CONFLICT", "INVALID_TIMEZONE", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "TIER_LIMIT_ACCOUNTS"],
    }),
    requireUser,
    async (c) => {
      const { file } = await readUpload(c, DATA_IMPORT_MAX_BYTES, "the 25 MB limit for an export file", "the export");
      return c.json(await importUserData(c.var.deps, currentUser(c), new TextDecoder().decode(file.bytes)), 201);
    },
  );
