import { archiveStream } from "../lib/archive/archive.ts";
import { restoreArchive } from "../lib/archive/restore.ts";
import { AppError } from "../lib/errors.ts";
import { ArchiveImportSummarySchema } from "../lib/archive/responses.ts";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import { createRouter, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import * as z from "zod/mini";

// The complete archive (docs/accounts.md, "Everything, as one ZIP").
/** What a browser or a client may call a zip file. */
const ZIP_TYPES = new Set(["application/zip", "application/x-zip-compressed", "application/octet-stream"]);

export const archive = createRouter()
  .get(
  "/",
  describeRoute({
    tag: "archive",
    summary: "Everything you have here as one ZIP, streamed: the JSON export, screenshots, detached notes, advisor conversations and import history",
    description: "A signed-in session only: no access token reaches it, whatever its scopes (it holds the advisor's conversations, which tokens are barred from).",
    // Like the JSON export (an auth route): the whole account in one file is for its owner at the keyboard.
    scope: null,
    responses: { 200: { description: "The archive (application/zip).", contentType: "application/zip", schema: z.string().check(z.describe("The zip bytes")) } },
  }),
  requireUser,
  async (c) => {
    const { stream, fileName } = await archiveStream(c.var.deps, currentUser(c));
    return new Response(stream, {
      headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" },
    });
  },
  )
  .post(
    "/",
    describeRoute({
      tag: "archive",
      summary: "Restore an archive made by GET /api/archive (here or on another instance) into your data, all or nothing",
      body: { contentType: "application/zip", schema: z.string().check(z.describe("The archive's bytes, as downloaded")) },
      responses: { 201: { description: "What was added.", schema: ArchiveImportSummarySchema } },
      errors: ["VALIDATION_ERROR", "CONFLICT", "INVALID_TIMEZONE", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "TIER_LIMIT_ACCOUNTS", "SERVICE_UNAVAILABLE"],
    }),
    requireUser,
    rateLimit(LIMITS.archiveImport, "user"),
    async (c) => {
      const type = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (!ZIP_TYPES.has(type)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the archive itself as the body, with Content-Type: application/zip.");
      const declared = Number(c.req.header("Content-Length") ?? "0");
      if (declared > c.var.deps.config.ARCHIVE_IMPORT_MAX_BYTES) {
        throw new AppError("PAYLOAD_TOO_LARGE", `The archive is larger than ${c.var.deps.config.ARCHIVE_IMPORT_MAX_BYTES} bytes, the most this instance takes (ARCHIVE_IMPORT_MAX_BYTES).`);
      }
      return c.json(await restoreArchive(c.var.deps, currentUser(c), c.req.raw.body), 201);
    },
  );

export const archiveGroup = { prefix: "/api/archive", app: archive } as const satisfies Group;
