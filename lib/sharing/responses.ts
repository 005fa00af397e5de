// The response shapes of the sharing and mentor routes (docs/sharing.md) for the OpenAPI document.
import * as z from "zod/mini";
import { MENTOR_SCOPES } from "./access.ts";
import { id, iso } from "../fields.ts";

const show = () => z.object({ money: z.boolean(), notes: z.boolean(), images: z.boolean(), chart: z.boolean() });
const ShareFields = {
  id: id(),
  kind: z.enum(["trade", "report"]),
  tradeId: z.nullable(id()).check(z.describe("The trade shared, where it is now (it follows rebuilds); null for a report")),
  accountIds: z.array(id()),
  from: z.nullable(iso()),
  to: z.nullable(iso()),
  show: show(),
  expiresAt: iso(),
  views: z.number().check(z.describe("Views answered so far")),
  lastViewedAt: z.nullable(iso()),
  createdAt: iso(),
};
export const ShareSchema = z.object(ShareFields);
export const ShareMadeSchema = z.object({
  ...ShareFields,
  url: z.string().check(z.describe("The page to send: WEB_BASE_URL/s/<token>")),
  token: z.string().check(z.describe("Shown this once: 256 random bits, base64url; stored only as its SHA-256")),
});
export const ShareListSchema = z.object({ shares: z.array(ShareSchema) });

const loose = (what: string) => z.record(z.string(), z.unknown()).check(z.describe(what));
export const PublicShareSchema = z.object({
  kind: z.enum(["trade", "report"]),
  show: show(),
  expiresAt: iso(),
  trade: z.optional(loose("The trade's fields the link shows (docs/sharing.md, the allowlist); money hidden: R and returnPercent only")),
  fills: z.optional(z.array(loose("A fill: time, side, price, role (quantity with money)"))),
  chart: z.optional(z.nullable(z.object({ resolution: z.string(), from: iso(), to: iso(), bars: z.array(z.unknown()) }))),
  images: z.optional(z.array(z.object({ id: id(), contentType: z.string() }))),
  from: z.optional(z.nullable(iso())),
  to: z.optional(z.nullable(iso())),
  reports: z.optional(z.array(z.object({ summary: loose("The summary's allowed fields"), equity: z.array(loose("A day")), calendar: z.array(loose("A day")) }))),
});

const scopes = () => z.array(z.enum(MENTOR_SCOPES));
export const MentorSchema = z.object({
  id: id(),
  email: z.string(),
  accountIds: z.array(id()),
  scopes: scopes(),
  status: z.enum(["invited", "active"]),
  expiresAt: z.nullable(iso()),
  createdAt: iso(),
  acceptedAt: z.nullable(iso()),
  lastViewedAt: z.nullable(iso()),
});
export const MentorMadeSchema = z.object({ mentor: MentorSchema });
export const MentorListSchema = z.object({ mentors: z.array(MentorSchema) });
export const MentorViewsSchema = z.object({ views: z.array(z.object({ route: z.string().check(z.describe("METHOD /path of the route read")), at: iso() })) });
const MenteeSchema = z.object({
  id: id(),
  userId: id(),
  name: z.string().check(z.describe("Whose journal: their email")),
  accountIds: z.array(id()),
  accounts: z.array(z.object({ id: id(), name: z.string(), currency: z.string() })),
  scopes: scopes(),
  status: z.enum(["invited", "active"]),
  expiresAt: z.nullable(iso()),
});
export const MenteeListSchema = z.object({ mentees: z.array(MenteeSchema) });
export const MenteeAcceptedSchema = z.object({ mentee: MenteeSchema });

const CommentOut = z.object({
  id: id(),
  authorId: z.nullable(id()).check(z.describe("Null once the author's account is deleted")),
  authorEmail: z.nullable(z.string()),
  mine: z.boolean().check(z.describe("Written by whoever reads")),
  body: z.string().check(z.describe("As written: show it as text")),
  createdAt: iso(),
});
export const CommentMadeSchema = z.object({ comment: CommentOut });
export const CommentListSchema = z.object({ comments: z.array(CommentOut) });
