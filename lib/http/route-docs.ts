// What the OpenAPI document (lib/http/openapi.ts) knows of a route, read from the route's own handlers:
// `validate` records the schema it checks, the auth middlewares and `rateLimit` mark themselves, and
// `describeRoute` adds the summary, the success responses, the route's own error codes and the token scope it
// needs. The marks are entries in a WeakMap keyed by the handler function; the one thing here that runs at
// request time is describeRoute's check of a personal access token's scope against what the document says.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./index.ts";
import type * as zc from "zod/v4/core";
import type { TokenScope } from "../auth/tokens.ts";
import { AppError, type ErrorCode } from "../errors.ts";
import type { Context } from "hono";
import { mark } from "./marks.ts";

export { mark, markOf, type HandlerMark } from "./marks.ts";

export type SuccessResponse = {
  description: string;
  /** The body's schema (application/json unless `contentType` says otherwise); absent: no body (204). */
  schema?: zc.$ZodType;
  contentType?: string;
};

export type RouteDescription = {
  summary: string;
  description?: string;
  tag: string;
  /** Success statuses and their bodies. */
  responses: Record<number, SuccessResponse>;
  /** Error codes this route raises besides the ones its middlewares imply (validation, auth, rate limit). */
  errors?: readonly ErrorCode[];
  /** The request body when it is not JSON (multipart uploads, the payment webhook's raw body). */
  body?: { contentType: string; schema: zc.$ZodType; description?: string };
  /** Public routes the cookie does not change (health, public config, the document itself). */
  public?: boolean;
  /**
   * The personal access token scope this route needs; `null`: no token reaches it. Unset: routeScope decides
   * (`read` for a GET outside the token-free tags, none for anything else).
   */
  scope?: TokenScope | null;
};

/** Routes of these tags never take a token: auth (tokens included), passkeys, keys and the advisor, billing, admin. */
const TOKEN_FREE_TAGS = new Set(["auth", "passkeys", "advisor", "billing", "admin"]);

/** The scope a personal access token needs for this route, or null when no token may use it. */
export function routeScope(method: string, doc: RouteDescription): TokenScope | null {
  if (doc.scope !== undefined) return doc.scope;
  if (TOKEN_FREE_TAGS.has(doc.tag)) return null;
  return method === "GET" || method === "HEAD" ? "read" : null;
}

/** Runs a mentor's request (`?mentee=`) as the owner, or refuses it: lib/http/mentor.ts. */
export type MentorGate = (c: Context<AppEnv>, mentee: string, next: () => Promise<void>) => Promise<void>;
let mentorGate: MentorGate | undefined;

/**
 * lib/http/mentor.ts registers the gate when it is loaded, which the groups holding routes of the access table
 * do (lib/sharing/access.ts); a Worker without one refuses every mentor's request, exactly as the gate refuses a
 * route outside the table, and carries none of the gate's code.
 */
export function setMentorGate(gate: MentorGate): void {
  mentorGate = gate;
}

/** The answer to a mentor's request outside what is shared: a read 404, anything else 403. */
export function mentorRefusal(method: string): AppError {
  return method === "GET" || method === "HEAD"
    ? new AppError("NOT_FOUND", "Not found, or not shared with you.")
    : new AppError("FORBIDDEN", "A mentor reads and comments; only the trader changes their journal.");
}

/**
 * A route's description for the OpenAPI document. At request time it holds a personal access token to the
 * scope the document lists for the route (routeScope): 403 FORBIDDEN outside it. Public routes take any caller.
 */
export function describeRoute(doc: RouteDescription): MiddlewareHandler<AppEnv> {
  return mark<MiddlewareHandler<AppEnv>>(
    async (c, next) => {
      const token = c.get("accessToken") as { scopes: readonly TokenScope[] } | undefined;
      if (token && !doc.public) {
        const scope = routeScope(c.req.method, doc);
        if (!scope) throw new AppError("FORBIDDEN", "Access tokens cannot be used here: sign in to the web app instead.");
        if (!token.scopes.includes(scope)) throw new AppError("FORBIDDEN", `This access token lacks the "${scope}" scope this route needs.`);
      }
      c.set("tokenScopeChecked", true);
      const mentee = doc.public ? undefined : c.req.query("mentee");
      if (mentee !== undefined) {
        if (token) throw new AppError("FORBIDDEN", "Access tokens cannot read another user's journal: sign in to the web app instead.");
        if (!mentorGate) throw mentorRefusal(c.req.method);
        return mentorGate(c, mentee, next);
      }
      await next();
    },
    { kind: "describe", doc },
  );
}
