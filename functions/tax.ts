import * as z from "zod/mini";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, jsonText, validate, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { Form6781Schema, ScheduleDSchema, TaxLotsSchema, WashDecisionResponseSchema, WashWatchSchema } from "../lib/tax/responses.ts";
import { form8949Csv } from "../lib/tax/form8949.ts";
import { decideWashSale, form6781, scheduleD, taxLots, TaxQuerySchema, txf, WashDecisionSchema, washWatch, WashWatchQuerySchema } from "../lib/tax/tax.ts";

// Tax (DESIGN.md section 11, docs/tax.md): the year's lots and US wash sales across the user's accounts, and the
// forms they fill. Figures, not advice.
export const tax = createRouter()
  .get(
    "/lots",
    describeRoute({ tag: "tax", summary: "The year's lots, first in first out per account and symbol, with US wash sales across every account, Section 1256 contracts 60/40 and marked to market", responses: { 200: { description: "The lots.", schema: TaxLotsSchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("query", TaxQuerySchema),
    async (c) => jsonText(c, await taxLots(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/8949.csv",
    describeRoute({ tag: "tax", summary: "Form 8949 rows as CSV: Part I (short-term, box C) then Part II (long-term, box F), code W and the adjustment for wash sales", responses: { 200: { description: "The CSV file (RFC 4180, UTF-8, a header row).", contentType: "text/csv", schema: z.string() } }, errors: ["NOT_FOUND", "CONFLICT"] }),
    requireUser,
    validate("query", TaxQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      const body = await form8949Csv(c.var.deps, currentUser(c), query);
      c.header("Content-Type", "text/csv; charset=utf-8");
      c.header("Content-Disposition", `attachment; filename="form-8949-${query.year}.csv"`);
      c.header("Cache-Control", "no-store");
      return c.body(body);
    },
  )
  .get(
    "/schedule-d",
    describeRoute({ tag: "tax", summary: "Schedule D's lines from the year's Form 8949 rows (boxes C and F) and Form 6781", responses: { 200: { description: "The totals.", schema: ScheduleDSchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("query", TaxQuerySchema),
    async (c) => c.json(await scheduleD(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/6781",
    describeRoute({ tag: "tax", summary: "Form 6781 Part I: the year's Section 1256 gains and losses per account, 40% short-term and 60% long-term", responses: { 200: { description: "The totals.", schema: Form6781Schema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("query", TaxQuerySchema),
    async (c) => c.json(await form6781(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/txf",
    describeRoute({ tag: "tax", summary: "The year's Form 8949 rows as TXF version 042, for desktop tax software", responses: { 200: { description: "The TXF file.", contentType: "text/plain", schema: z.string() } }, errors: ["NOT_FOUND", "CONFLICT"] }),
    requireUser,
    validate("query", TaxQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      const body = await txf(c.var.deps, currentUser(c), query, c.var.deps.now());
      c.header("Content-Type", "text/plain; charset=utf-8");
      c.header("Content-Disposition", `attachment; filename="tax-${query.year}.txf"`);
      c.header("Cache-Control", "no-store");
      return c.body(body);
    },
  )
  .get(
    "/wash-watch",
    describeRoute({ tag: "tax", summary: "Losses of the last 30 days a purchase of the same symbol would still wash, and until when", responses: { 200: { description: "The losses.", schema: WashWatchSchema } } }),
    requireUser,
    validate("query", WashWatchQuerySchema),
    async (c) => c.json(await washWatch(c.var.deps, currentUser(c), c.req.valid("query"), c.var.deps.now())),
  )
  .put(
    "/possible-wash-sales",
    describeRoute({
      tag: "tax",
      summary: "Decide a possible wash sale through an option (as GET /api/tax/lots lists it): wash (the loss goes into the option lot), not_wash, or null (undecided)",
      responses: { 200: { description: "The decision.", schema: WashDecisionResponseSchema } },
      errors: ["VALIDATION_ERROR", "NOT_FOUND"],
    }),
    requireUser,
    validate("json", WashDecisionSchema),
    async (c) => c.json(await decideWashSale(c.var.deps, currentUser(c), c.req.valid("json"))),
  );

export const taxGroup = { prefix: "/api/tax", app: tax } as const satisfies Group;
