import * as z from "zod/mini";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { DigestPreviewSchema } from "../lib/digest/responses.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import { previewDigest } from "../lib/digest/preview.ts";
import { unsubscribe } from "../lib/digest/delivery.ts";

// The weekly digest (docs/digest.md): the one-click unsubscribe its emails carry (no session; RFC 8058), and
// the preview of the digest as it would be sent now. The schedule itself is PUT /api/settings {digest}.
const TokenQuery = z.object({ token: z.string("is required").check(z.minLength(1, "is required"), z.maxLength(200, "must be at most 200 characters")) });
const PreviewQuery = z.object({ reading: z.optional(z.enum(["true", "false"], { error: "must be true or false" })) });

export const digest = createRouter()
  .post(
    "/unsubscribe",
    describeRoute({
      tag: "digest",
      public: true,
      summary: "Stop the weekly digest (no session): the signed token of the email's List-Unsubscribe link",
      description:
        "Mail clients POST `List-Unsubscribe=One-Click` here (RFC 8058); the body is not needed. A token of the wrong shape is 400, an altered one 404; nothing changes either way. The schedule is kept with `weekly: false`.",
      responses: { 204: { description: "The digest is off." } },
      errors: ["VALIDATION_ERROR", "NOT_FOUND"],
    }),
    rateLimit(LIMITS.digestUnsubscribe, "client"),
    validate("query", TokenQuery),
    async (c) => {
      await unsubscribe(c.var.deps, c.req.valid("query").token);
      return c.body(null, 204);
    },
  )
  .post(
    "/preview",
    describeRoute({
      tag: "digest",
      summary: "The digest as it would be sent now: its figures, subject and both parts (the 7 days before today in the digest's zone)",
      description: "`?reading=true` also asks the trader's model for the reading (metered like a turn), when the digest names a provider.",
      responses: { 200: { description: "The digest.", schema: DigestPreviewSchema } },
      errors: ["VALIDATION_ERROR"],
    }),
    requireUser,
    rateLimit(LIMITS.digestPreview, "user"),
    validate("query", PreviewQuery),
    async (c) => c.json(await previewDigest(c.var.deps, currentUser(c), c.req.valid("query").reading === "true")),
  );

export const digestGroup = { prefix: "/api/digest", app: digest } as const satisfies Group;
