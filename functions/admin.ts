import { endSessions, getUser, grantCredits, instanceStats, listAudit, listUsers, updateUser } from "../lib/admin/admin.ts";
import {
  AdminIdParamSchema,
  AdminUserPatchSchema,
  AuditQuerySchema,
  CreditGrantSchema,
  EndSessionsQuerySchema,
  StatsQuerySchema,
  UserListQuerySchema,
} from "../lib/admin/schema.ts";
import { currentUser, requireAdmin } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";

// Administrators only: 401 without a session, 403 FORBIDDEN for everyone else (requireAdmin first on every route).
export const admin = createRouter()
  .get("/users", requireAdmin, validate("query", UserListQuerySchema), async (c) => c.json(await listUsers(c.var.deps, c.req.valid("query"))))
  .get("/users/:id", requireAdmin, validate("param", AdminIdParamSchema), async (c) => c.json(await getUser(c.var.deps, c.req.valid("param").id)))
  .patch("/users/:id", requireAdmin, validate("param", AdminIdParamSchema), validate("json", AdminUserPatchSchema), async (c) =>
    c.json(await updateUser(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json"))),
  )
  .post("/users/:id/credits", requireAdmin, validate("param", AdminIdParamSchema), validate("json", CreditGrantSchema), async (c) =>
    c.json(await grantCredits(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .delete("/users/:id/sessions", requireAdmin, validate("param", AdminIdParamSchema), validate("query", EndSessionsQuerySchema), async (c) => {
    await endSessions(c.var.deps, currentUser(c), c.req.valid("param").id, c.req.valid("query").reason);
    return c.body(null, 204);
  })
  .get("/stats", requireAdmin, validate("query", StatsQuerySchema), async (c) => c.json(await instanceStats(c.var.deps, c.req.valid("query"))))
  .get("/audit", requireAdmin, validate("query", AuditQuerySchema), async (c) => c.json(await listAudit(c.var.deps, c.req.valid("query"))));

export const adminGroup = { prefix: "/api/admin", app: admin } as const satisfies Group;
