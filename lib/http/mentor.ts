// The one place a mentor's request is let in (issue 59, docs/sharing.md). A request with `?mentee=<userId>` is
// a signed-in user reading another's journal: describeRoute (route-docs.ts) hands it here before anything else
// of the route runs. The route must be in the access table (lib/sharing/access.ts): a GET that is not is 404,
// any other method 403; the grant must be live, accepted, hold the route's scope and the account the request
// names (or the trade's). Then the request runs as the owner, read-only, with `c.var.mentor` set; without the
// journal scope, what the trader wrote is blanked from the trades in the answer. Loaded by the groups holding
// routes of the table (trades, days, stats), it registers itself with describeRoute (setMentorGate); the
// Workers of other groups refuse every mentor's request without it.
import type { Context } from "hono";
import { routePath } from "hono/route";
import { AppError } from "../errors.ts";
import { MENTOR_ROUTES, withoutJournal } from "../sharing/access.ts";
import { mentorAccess } from "../sharing/grant-check.ts";
import { currentUser, requireUser } from "./auth.ts";
import type { AppEnv } from "./index.ts";
import { mentorRefusal, setMentorGate } from "./route-docs.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The one answer for anything of another user's a mentor may not read: the same whether it exists or not. */
const notShared = () => mentorRefusal("GET");

/** Runs the route for the mentor as the owner (or refuses); `next` is the rest of the route. */
export async function asMentor(c: Context<AppEnv>, mentee: string, next: () => Promise<void>): Promise<void> {
  await requireUser(c, async () => {});
  const mentorId = currentUser(c).id;
  const key = `${c.req.method} ${routePath(c)}`;
  const route = MENTOR_ROUTES[key];
  if (!route) throw mentorRefusal(c.req.method);
  if (!UUID.test(mentee)) throw notShared();
  let target: { accountId: string } | { tradeId: string };
  if (route.account === "trade") target = { tradeId: c.req.param("id") ?? "" };
  else if (route.account === "path") target = { accountId: c.req.param("accountId") ?? "" };
  else {
    const accountId = c.req.query("accountId");
    if (accountId === undefined) {
      throw new AppError("VALIDATION_ERROR", "Choose one of the accounts shared with you (accountId).", {
        fields: [{ path: "accountId", message: "is required when reading as a mentor" }],
      });
    }
    target = { accountId };
  }
  if (!UUID.test("tradeId" in target ? target.tradeId : target.accountId)) throw notShared();
  const access = await mentorAccess(c.var.deps, mentorId, mentee, route.scope, target, key);
  if (!access) throw notShared();
  c.set("user", access.owner);
  c.set("mentor", { grantId: access.grantId, mentorId, scopes: access.scopes });
  await next();
  if (route.journalFields && !access.scopes.includes("journal") && c.res.ok && c.res.headers.get("Content-Type")?.startsWith("application/json")) {
    const headers = new Headers(c.res.headers);
    headers.delete("Content-Length");
    headers.delete("ETag");
    c.res = new Response(JSON.stringify(withoutJournal(await c.res.json())), { status: c.res.status, headers });
  }
}

setMentorGate(asMentor);
