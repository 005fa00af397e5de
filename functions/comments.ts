import type * as z from "zod/mini";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import "../lib/http/mentor.ts"; // mentors read these routes (lib/sharing/access.ts)
import { CommentListSchema, CommentMadeSchema } from "../lib/sharing/responses.ts";
import { addComment, CommentSchema, listComments, type CommentTarget } from "../lib/sharing/comments.ts";

/**
 * GET/POST `${path}/comments` for a trade or a day (docs/sharing.md): the trader's, or a mentor's with
 * `?mentee=` (lib/http/mentor.ts has let them in and made `user` the owner; the author is the mentor).
 */
export function commentRoutes<P extends z.ZodMiniObject>(options: { path: string; what: string; param: P; target(params: z.infer<P>): CommentTarget }) {
  const { path, what, param, target } = options;
  const tag = what === "a trade" ? "trades" : "days";
  return createRouter()
    .get(
      `${path}/comments`,
      describeRoute({ tag, summary: `The comments on ${what} (yours and your mentors'), oldest first`, responses: { 200: { description: "The comments.", schema: CommentListSchema } }, errors: ["NOT_FOUND"] }),
      requireUser,
      validate("param", param),
      async (c) => c.json(await listComments(c.var.deps, currentUser(c), c.var.mentor?.mentorId ?? currentUser(c).id, target(c.req.valid("param") as z.infer<P>))),
    )
    .post(
      `${path}/comments`,
      describeRoute({ tag, summary: `Comment on ${what} (the trader, or a mentor with ?mentee=)`, responses: { 201: { description: "The comment.", schema: CommentMadeSchema } }, errors: ["NOT_FOUND", "CONFLICT"] }),
      requireUser,
      validate("param", param),
      validate("json", CommentSchema),
      async (c) =>
        c.json(await addComment(c.var.deps, currentUser(c), c.var.mentor?.mentorId ?? currentUser(c).id, target(c.req.valid("param") as z.infer<P>), c.req.valid("json").body), 201),
    );
}
