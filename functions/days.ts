import { currentUser, requireUser } from "../lib/http/auth.ts";
import { DayEntryOutSchema, DayListSchema } from "../lib/days/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { deleteDay, getDay, listDays, writeDay } from "../lib/days/days.ts";
import { commentRoutes } from "./comments.ts";
import { ownerImages } from "./images.ts";
import { DayEntrySchema, DayListQuerySchema, DayParamSchema } from "../lib/days/schema.ts";

// The daily journal (docs/discipline.md): one entry per account and trading day (the account's clock).
export const days = createRouter()
  .get(
    "/",
    describeRoute({
      tag: "days",
      summary: "Daily journal entries from one day to another (both included), of one account or all of yours",
      responses: { 200: { description: "The entries, oldest first.", schema: DayListSchema } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("query", DayListQuerySchema),
    async (c) => c.json(await listDays(c.var.deps, currentUser(c), c.req.valid("query"))),
  )
  .get(
    "/:accountId/:day",
    describeRoute({ tag: "days", summary: "An account's journal entry for a day", responses: { 200: { description: "The entry.", schema: DayEntryOutSchema } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", DayParamSchema),
    async (c) => {
      const { accountId, day } = c.req.valid("param");
      return c.json(await getDay(c.var.deps, currentUser(c), accountId, day));
    },
  )
  .put(
    "/:accountId/:day",
    describeRoute({
      tag: "days",
      summary: "Write the day's plan, review, mood or tags (the fields named; the others kept). Left blank, the entry is removed: 204",
      responses: { 200: { description: "The entry.", schema: DayEntryOutSchema }, 204: { description: "The entry was left blank and is removed." } },
      errors: ["NOT_FOUND"],
    }),
    requireUser,
    validate("param", DayParamSchema),
    validate("json", DayEntrySchema),
    async (c) => {
      const { accountId, day } = c.req.valid("param");
      const entry = await writeDay(c.var.deps, currentUser(c), accountId, day, c.req.valid("json"));
      return entry ? c.json(entry) : c.body(null, 204);
    },
  )
  .delete(
    "/:accountId/:day",
    describeRoute({ tag: "days", summary: "Delete the day's entry", responses: { 204: { description: "Deleted." } }, errors: ["NOT_FOUND"] }),
    requireUser,
    validate("param", DayParamSchema),
    async (c) => {
      const { accountId, day } = c.req.valid("param");
      await deleteDay(c.var.deps, currentUser(c), accountId, day);
      return c.body(null, 204);
    },
  );

days.route("/", commentRoutes({ path: "/:accountId/:day", what: "an account's day", param: DayParamSchema, target: (p) => ({ accountId: p.accountId, day: p.day }) }));
days.route("/", ownerImages({ tag: "days", what: "a day of the daily journal (its entry is made by the first)", path: "/:accountId/:day", param: DayParamSchema, ownerOf: (p) => ({ accountId: p.accountId, day: p.day }) }));

export const daysGroup = { prefix: "/api/days", app: days } as const satisfies Group;
