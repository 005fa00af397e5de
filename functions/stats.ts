import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import {
  BreakdownQuerySchema,
  EquityQuerySchema,
  StatsQuerySchema,
  breakdown,
  calendar,
  equityCurve,
  summary,
} from "../lib/stats/stats.ts";

export const stats = createRouter()
  .get("/summary", requireUser, validate("query", StatsQuerySchema), async (c) =>
    c.json(await summary(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get("/calendar", requireUser, validate("query", StatsQuerySchema), async (c) =>
    c.json(await calendar(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get("/equity", requireUser, validate("query", EquityQuerySchema), async (c) =>
    c.json(await equityCurve(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get("/breakdown", requireUser, validate("query", BreakdownQuerySchema), async (c) =>
    c.json(await breakdown(c.var.deps, currentUser(c), c.req.valid("query"))),
  );

export const statsGroup = { prefix: "/api/stats", app: stats } as const satisfies Group;
