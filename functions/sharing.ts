import * as z from "zod/mini";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import {
  MenteeAcceptedSchema,
  MenteeListSchema,
  MentorListSchema,
  MentorMadeSchema,
  MentorViewsSchema,
  PublicShareSchema,
  ShareListSchema,
  ShareMadeSchema,
} from "../lib/sharing/responses.ts";
import { AppError } from "../lib/errors.ts";
import { acceptMentee, inviteMentor, listMentees, listMentors, MentorInviteSchema, mentorViews, noMentor, removeMentor } from "../lib/sharing/mentors.ts";
import { createShare, deleteShare, listShares, publicShare, publicShareImage, ShareSchema } from "../lib/sharing/shares.ts";
import { serveImage } from "./images.ts";

// Sharing and mentors (DESIGN.md section 11, docs/sharing.md): public links, and mentors who read chosen
// accounts through the ordinary read routes with `?mentee=` (lib/http/mentor.ts).
const IdParam = z.object({ id: z.uuid("must be a uuid") });

export const shares = createRouter()
  .post(
    "/",
    describeRoute({ tag: "sharing", summary: "Make a public link to a trade or a report that shows only what `show` chooses", responses: { 201: { description: "The link; its token is shown this once.", schema: ShareMadeSchema } }, errors: ["NOT_FOUND", "CONFLICT"] }),
    requireUser,
    validate("json", ShareSchema),
    async (c) => c.json(await createShare(c.var.deps, currentUser(c), c.req.valid("json")), 201),
  )
  .get(
    "/",
    describeRoute({ tag: "sharing", summary: "Your public links with their views (never their tokens)", responses: { 200: { description: "The links, newest first.", schema: ShareListSchema } } }),
    requireUser,
    async (c) => c.json(await listShares(c.var.deps, currentUser(c))),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "sharing", summary: "Revoke a public link: it answers 404 from now on", responses: { 204: { description: "Revoked." } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", IdParam),
    async (c) => {
      if (!(await deleteShare(c.var.deps, currentUser(c), c.req.valid("param").id))) throw new AppError("NOT_FOUND", "No such link.");
      return c.body(null, 204);
    },
  );

// No session, no cookie, never indexed: the token is the only key. A malformed token is looked up like any
// other (no 400), so nothing in the answer or its timing tells whether a link ever existed.
const TokenParam = z.object({ token: z.string().check(z.maxLength(200)) });
const publicLimit = rateLimit(LIMITS.publicShare, "client");
const noIndex = { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const publicShares = createRouter()
  .get(
    "/shares/:token",
    describeRoute({ tag: "sharing", public: true, summary: "What a public link shows (no session); unknown, expired or revoked: 404", responses: { 200: { description: "The shared trade or report.", schema: PublicShareSchema } }, errors: ["NOT_FOUND"] }),
    publicLimit,
    validate("param", TokenParam),
    async (c) => {
      for (const [k, v] of Object.entries(noIndex)) c.header(k, v);
      return c.json(await publicShare(c.var.deps, c.req.valid("param").token));
    },
  )
  .get(
    "/shares/:token/images/:imageId",
    describeRoute({ tag: "sharing", public: true, summary: "A screenshot of a shared trade whose link shows images", responses: { 200: { description: "The image.", contentType: "image/*", schema: z.string() } }, errors: ["NOT_FOUND"] }),
    publicLimit,
    validate("param", z.object({ token: z.string().check(z.maxLength(200)), imageId: z.uuid("must be a uuid") })),
    async (c) => {
      const { token, imageId } = c.req.valid("param");
      const found = await publicShareImage(c.var.deps, token, imageId);
      c.set("user", found.owner);
      c.header("X-Robots-Tag", "noindex, nofollow");
      return serveImage(c, { tradeId: found.tradeId }, imageId);
    },
  );

export const mentors = createRouter()
  .post(
    "/",
    describeRoute({ tag: "sharing", summary: "Invite a mentor by email to read chosen accounts and views (trades, journal, stats, days)", responses: { 201: { description: "The mentor, invited (or active, when they had accepted before).", schema: MentorMadeSchema } }, errors: ["CONFLICT"] }),
    requireUser,
    validate("json", MentorInviteSchema),
    async (c) => c.json({ mentor: await inviteMentor(c.var.deps, currentUser(c), c.req.valid("json")) }, 201),
  )
  .get(
    "/",
    describeRoute({ tag: "sharing", summary: "Your mentors: what each reads, until when, and their last read", responses: { 200: { description: "The mentors.", schema: MentorListSchema } } }),
    requireUser,
    async (c) => c.json(await listMentors(c.var.deps, currentUser(c))),
  )
  .get(
    "/:id/views",
    describeRoute({ tag: "sharing", summary: "What a mentor read and when, newest first", responses: { 200: { description: "The reads.", schema: MentorViewsSchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", IdParam),
    async (c) => c.json(await mentorViews(c.var.deps, currentUser(c), c.req.valid("param").id)),
  )
  .delete(
    "/:id",
    describeRoute({ tag: "sharing", summary: "Remove a mentor: their next request is refused", responses: { 204: { description: "Removed." } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", IdParam),
    async (c) => {
      if (!(await removeMentor(c.var.deps, currentUser(c), c.req.valid("param").id))) throw noMentor();
      return c.body(null, 204);
    },
  );

export const mentees = createRouter()
  .get(
    "/",
    describeRoute({ tag: "sharing", summary: "The journals you read as a mentor, and invitations to your email", responses: { 200: { description: "The journals.", schema: MenteeListSchema } } }),
    requireUser,
    async (c) => c.json(await listMentees(c.var.deps, currentUser(c))),
  )
  .post(
    "/:id/accept",
    describeRoute({ tag: "sharing", summary: "Accept an invitation to your email: from now on you read what it grants with ?mentee=<userId>", responses: { 200: { description: "The journal.", schema: MenteeAcceptedSchema } }, errors: ["NOT_FOUND", "FORBIDDEN"] }),
    requireUser,
    validate("param", IdParam),
    async (c) => c.json(await acceptMentee(c.var.deps, currentUser(c), c.req.valid("param").id)),
  );

export const sharesGroup = { prefix: "/api/shares", app: shares } as const satisfies Group;
export const publicGroup = { prefix: "/api/public", app: publicShares } as const satisfies Group;
export const mentorsGroup = { prefix: "/api/mentors", app: mentors } as const satisfies Group;
export const menteesGroup = { prefix: "/api/mentees", app: mentees } as const satisfies Group;
