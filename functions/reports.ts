import * as z from "zod/mini";
import { currentUser, rateLimit, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { LIMITS } from "../lib/ratelimit/index.ts";
import { AppError } from "../lib/errors.ts";
import { reportContentPolicy, reportHtml } from "../lib/report/html.ts";
import { reportOf, ReportQuerySchema } from "../lib/report/report.ts";

// The printable report (docs/digest.md, "The printable report"): one HTML document styled for paper, which the
// browser prints or saves as PDF, and the same document as a PDF file where the instance can print it (the Node
// entrypoint with Chromium; never on Workers).
const pdfLimit = rateLimit(LIMITS.reportPdf, "user");
const ReportHtml = z.string();

export const reports = createRouter()
  .get(
    "/report.html",
    describeRoute({
      tag: "reports",
      summary: "The printable report of a period (?from=&to=, at most 400 days; accountId or currency as the statistics take them; paper=a4|letter) as an HTML page styled for paper",
      responses: { 200: { description: "The page.", contentType: "text/html", schema: ReportHtml } },
      errors: ["VALIDATION_ERROR", "NOT_FOUND"],
    }),
    requireUser,
    validate("query", ReportQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      const html = reportHtml(await reportOf(c.var.deps, currentUser(c), query), query.paper, c.var.deps.now());
      c.header("Content-Security-Policy", reportContentPolicy(query.paper));
      return c.html(html);
    },
  )
  .get(
    "/report.pdf",
    describeRoute({
      tag: "reports",
      summary: "The same report as a PDF file, printed by Chromium on the server: the Node entrypoint with Chromium installed; elsewhere (Workers) 503",
      responses: { 200: { description: "The PDF.", contentType: "application/pdf", schema: ReportHtml } },
      errors: ["VALIDATION_ERROR", "NOT_FOUND", "SERVICE_UNAVAILABLE"],
    }),
    requireUser,
    pdfLimit,
    validate("query", ReportQuerySchema),
    async (c) => {
      const print = c.var.deps.printPdf;
      if (!print) {
        throw new AppError("SERVICE_UNAVAILABLE", "This server cannot print PDF files (it needs the Node entrypoint with Chromium installed). Open the report page and save it as PDF with your browser's Print.");
      }
      const query = c.req.valid("query");
      const report = await reportOf(c.var.deps, currentUser(c), query);
      const pdf = await print(reportHtml(report, query.paper, c.var.deps.now()));
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="trading-report-${query.from.slice(0, 10)}-${query.paper}.pdf"`,
      });
    },
  );

export const reportsGroup = { prefix: "/api/reports", app: reports } as const satisfies Group;
