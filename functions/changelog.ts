import { changelogFor, markChangelogViewed } from "../lib/changelog/changelog.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, type Group } from "../lib/http/index.ts";
import { ChangelogSchema } from "../lib/changelog/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

export const changelog = createRouter()
  .get(
    "/",
    describeRoute({
      tag: "changelog",
      summary: "The instance's release notes, newest first, and how many you have not seen",
      responses: { 200: { description: "The releases; `stale` when the source failed and the last copy is served.", schema: ChangelogSchema } },
      errors: ["CHANGELOG_UNAVAILABLE"],
    }),
    requireUser,
    async (c) => c.json(await changelogFor(c.var.deps, currentUser(c))),
  )
  .post("/viewed", describeRoute({ tag: "changelog", summary: "Mark every release so far as read", responses: { 204: { description: "Done." } } }), requireUser, async (c) => {
    await markChangelogViewed(c.var.deps, currentUser(c));
    return c.body(null, 204);
  });

export const changelogGroup = { prefix: "/api/changelog", app: changelog } as const satisfies Group;
