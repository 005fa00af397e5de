import { changelogFor, markChangelogViewed } from "../lib/changelog/changelog.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, type Group } from "../lib/http/index.ts";

export const changelog = createRouter()
  .get("/", requireUser, async (c) => c.json(await changelogFor(c.var.deps, currentUser(c))))
  .post("/viewed", requireUser, async (c) => {
    await markChangelogViewed(c.var.deps, currentUser(c));
    return c.body(null, 204);
  });

export const changelogGroup = { prefix: "/api/changelog", app: changelog } as const satisfies Group;
