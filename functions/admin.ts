import { endSessions, getUser, grantCredits, instanceStats, listAudit, listUsers, updateUser } from "../lib/admin/admin.ts";
import {
  AdminIdParamSchema,
  AdminUserPatchSchema,
  AuditQuerySchema,
  CreditGrantSchema,
  EndSessionsQuerySchema,
  SetupClaimSchema,
  StatsQuerySchema,
  UserListQuerySchema,
} from "../lib/admin/schema.ts";
import { claimSetupLink } from "../lib/admin/setup.ts";
import { currentUser, requireAdmin, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { AdminCreditSchema, AdminStatsSchema, AdminUserListSchema, AdminUserSchema, AuditListSchema } from "../lib/admin/responses.ts";
import { UserSchema } from "../lib/auth/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

// Administrators only: 401 without a session, 403 FORBIDDEN for everyone else (requireAdmin first on every
// route), except the setup link's claim, which makes the first one.
export const admin = createRouter()
  .post(
    "/setup",
    describeRoute({
      tag: "admin",
      summary: "Become the first administrator with the one-time setup link a Node start printed (no administrator yet; audited)",
      responses: { 200: { description: "You, now an administrator.", schema: UserSchema } },
      errors: ["FORBIDDEN", "CONFLICT", "NOT_FOUND"],
    }),
    requireUser, validate("json", SetupClaimSchema), async (c) => {
      const { id, email, emailVerified, isAdmin } = await claimSetupLink(c.var.deps, currentUser(c), c.req.valid("json").token);
      return c.json({ user: { id, email, emailVerified, isAdmin } });
    },
  )
  .get("/users", describeRoute({ tag: "admin", summary: "Users, newest first; q matches the start of an email", responses: { 200: { description: "A page of users.", schema: AdminUserListSchema } } }), requireAdmin, validate("query", UserListQuerySchema), async (c) => c.json(await listUsers(c.var.deps, c.req.valid("query"))))
  .get("/users/:id", describeRoute({ tag: "admin", summary: "One user, with trades, sessions and wallet", responses: { 200: { description: "The user.", schema: AdminUserSchema } } }), requireAdmin, validate("param", AdminIdParamSchema), async (c) => c.json(await getUser(c.var.deps, c.req.valid("param").id)))
  .patch(
    "/users/:id",
    describeRoute({ tag: "admin", summary: "Promote, demote or change the plan (audited)", responses: { 200: { description: "The user after the change.", schema: AdminUserSchema } }, errors: ["LAST_ADMIN"] }),
    requireAdmin, validate("param", AdminIdParamSchema), validate("json", AdminUserPatchSchema), async (c) =>
    c.json(await updateUser(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .post(
    "/users/:id/credits",
    describeRoute({ tag: "admin", summary: "Grant or take back credits, with a reason (audited)", responses: { 201: { description: "The wallet movement.", schema: AdminCreditSchema } }, errors: ["CONFLICT"] }),
    requireAdmin, validate("param", AdminIdParamSchema), validate("json", CreditGrantSchema), async (c) =>
    c.json(await grantCredits(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .delete("/users/:id/sessions", describeRoute({ tag: "admin", summary: "End every session of a user (audited)", responses: { 204: { description: "Ended." } } }), requireAdmin, validate("param", AdminIdParamSchema), validate("query", EndSessionsQuerySchema), async (c) => {
    await endSessions(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("query").reason);
    return c.body(null, 204);
  })
  .get("/stats", describeRoute({ tag: "admin", summary: "Instance statistics, and the advisor in a period", responses: { 200: { description: "The figures.", schema: AdminStatsSchema } } }), requireAdmin, validate("query", StatsQuerySchema), async (c) => c.json(await instanceStats(c.var.deps, c.req.valid("query"))))
  .get("/audit", describeRoute({ tag: "admin", summary: "The audit log, newest first", responses: { 200: { description: "A page of entries.", schema: AuditListSchema } } }), requireAdmin, validate("query", AuditQuerySchema), async (c) => c.json(await listAudit(c.var.deps, c.req.valid("query"))));

export const adminGroup = { prefix: "/api/admin", app: admin } as const satisfies Group;
