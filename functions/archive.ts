import { archiveStream } from "../lib/archive/archive.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import * as z from "zod/mini";

// The complete archive (docs/accounts.md, "Everything, as one ZIP").
export const archive = createRouter().get(
  "/",
  describeRoute({
    tag: "archive",
    summary: "Everything you have here as one ZIP, streamed: the JSON export, screenshots, detached notes, advisor conversations and import history",
    responses: { 200: { description: "The archive (application/zip).", contentType: "application/zip", schema: z.string().check(z.describe("The zip bytes")) } },
  }),
  requireUser,
  async (c) => {
    const { stream, fileName } = await archiveStream(c.var.deps, currentUser(c));
    return new Response(stream, {
      headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" },
    });
  },
);

export const archiveGroup = { prefix: "/api/archive", app: archive } as const satisfies Group;
