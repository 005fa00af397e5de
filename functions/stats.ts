import { currentUser, requireUser, requireUserInStatement, statementCaller } from "../lib/http/auth.ts";
import { BreakdownSchema, CalendarSchema, EquitySchema, PlaybookReportSchema, RDistributionSchema, StatsSummarySchema, TagReportSchema } from "../lib/stats/responses.ts";
import { ExcursionPointsSchema } from "../lib/trades/responses.ts";
import { WhatIfSchema } from "../lib/simulations/responses.ts";
import { whatIf, WhatIfQuerySchema } from "../lib/simulations/what-if.ts";
import { playbookReport } from "../lib/stats/playbook-report.ts";
import { tagReport, TagReportQuerySchema } from "../lib/stats/tag-report.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import "../lib/http/mentor.ts"; // mentors read these routes (lib/sharing/access.ts)
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import {
  BreakdownQuerySchema,
  EquityQuerySchema,
  StatsQuerySchema,
  SummaryQuerySchema,
  breakdown,
  calendar,
  equityCurve,
  excursionPoints,
  rDistribution,
  summary,
} from "../lib/stats/stats.ts";

// The dashboard's reads (summary, calendar, equity curve, breakdowns) check the session in their first statement,
// with the account and the settle of the maintained rows (lib/stats/stats.ts, resolveScope).
export const stats = createRouter()
  .get("/summary", describeRoute({ tag: "stats", summary: "Net P&L, win rate, profit factor, expectancy, drawdown over closed trades, and the same in R (r)", responses: { 200: { description: "The figures.", schema: StatsSummarySchema } }, errors: ["NOT_FOUND"] }), requireUserInStatement, validate("query", SummaryQuerySchema), async (c) =>
    c.json(await summary(c.var.deps, statementCaller(c), c.req.valid("query"))),
  )
  .get("/calendar", describeRoute({ tag: "stats", summary: "Realised P&L per trading day (each account's time zone)", responses: { 200: { description: "The figures.", schema: CalendarSchema } }, errors: ["NOT_FOUND"] }), requireUserInStatement, validate("query", StatsQuerySchema), async (c) =>
    c.json(await calendar(c.var.deps, statementCaller(c), c.req.valid("query"))),
  )
  .get("/equity", describeRoute({ tag: "stats", summary: "The equity curve by day, week or month", responses: { 200: { description: "The figures.", schema: EquitySchema } }, errors: ["NOT_FOUND"] }), requireUserInStatement, validate("query", EquityQuerySchema), async (c) =>
    c.json(await equityCurve(c.var.deps, statementCaller(c), c.req.valid("query"))),
  )
  .get("/breakdown", describeRoute({ tag: "stats", summary: "P&L by symbol, tag, setup, weekday or hour", responses: { 200: { description: "The figures.", schema: BreakdownSchema } }, errors: ["NOT_FOUND"] }), requireUserInStatement, validate("query", BreakdownQuerySchema), async (c) =>
    c.json(await breakdown(c.var.deps, statementCaller(c), c.req.valid("query"))),
  )
  .get(
    "/r-distribution",
    describeRoute({
      tag: "stats",
      summary: "How closed trades with a 1R spread over R-multiples: 0.5 R buckets from -3 R to +5 R, tails grouped",
      responses: { 200: { description: "The buckets.", schema: RDistributionSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", StatsQuerySchema),
    async (c) => c.json(await rDistribution(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/excursions",
    describeRoute({
      tag: "stats",
      summary: "Closed trades with their excursions (MAE, MFE, in money and R, exit efficiency) against their net P&L: the newest 2000",
      responses: { 200: { description: "The points.", schema: ExcursionPointsSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", StatsQuerySchema),
    async (c) => c.json(await excursionPoints(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/playbooks",
    describeRoute({
      tag: "stats",
      summary: "Per playbook, the closed trades of the period: net P&L, win rate, expectancy in money and R; per checklist item, followed against broken",
      responses: { 200: { description: "The report.", schema: PlaybookReportSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", StatsQuerySchema),
    async (c) => c.json(await playbookReport(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/tags",
    describeRoute({
      tag: "stats",
      summary: "Per tag (of one kind, e.g. mistake, or every tag), the closed trades of the period carrying it, costliest first: count, net P&L, win rate, expectancy",
      responses: { 200: { description: "The report.", schema: TagReportSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", TagReportQuerySchema),
    async (c) => c.json(await tagReport(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/what-if",
    describeRoute({
      tag: "stats",
      summary: "The period's closed trades as they were and without the trades named in `exclude` (broke-rules, revenge, overtrading, weekday:N, hour:H, tag:NAME, setup:NAME), with `exit` replacing their exits (stop, target, best where the bars reached them): both summaries, the equity of each, the trades removed or changed",
      responses: { 200: { description: "Actual and what-if side by side.", schema: WhatIfSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", WhatIfQuerySchema),
    async (c) => c.json(await whatIf(c.var.deps, currentUser(c), c.req.valid("query"))),
  );

export const statsGroup = { prefix: "/api/stats", app: stats } as const satisfies Group;
