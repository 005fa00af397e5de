import { currentUser, requireUser } from "../lib/http/auth.ts";
import { TagKindOutSchema, TagListSchema } from "../lib/tags/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { TagKindSchema } from "../lib/tags/schema.ts";
import { listTags, setTagKind } from "../lib/tags/tags.ts";

// Tags and their kinds (docs/discipline.md, "Mistakes and their cost"); the report is GET /api/stats/tags.
export const tags = createRouter()
  .get(
    "/",
    describeRoute({ tag: "tags", summary: "Every tag on your trades, with its kind and how many trades carry it", responses: { 200: { description: "The tags.", schema: TagListSchema } } }),
    requireUser,
    async (c) => c.json(await listTags(c.var.deps, currentUser(c))),
  )
  .put(
    "/kind",
    describeRoute({ tag: "tags", summary: "Mark a tag as a setup, a mistake or an emotion (null: none)", responses: { 200: { description: "The tag and its kind.", schema: TagKindOutSchema } } }),
    requireUser,
    validate("json", TagKindSchema),
    async (c) => c.json(await setTagKind(c.var.deps, currentUser(c), c.req.valid("json"))),
  );

export const tagsGroup = { prefix: "/api/tags", app: tags } as const satisfies Group;
