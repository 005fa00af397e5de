// What the OpenAPI document (lib/http/openapi.ts) knows of a route, read from the route's own handlers:
// `validate` records the schema it checks, the auth middlewares and `rateLimit` mark themselves, and
// `describeRoute` adds the summary, the success responses and the route's own error codes. Nothing here runs at
// request time: the marks are entries in a WeakMap keyed by the handler function.
import type { MiddlewareHandler } from "hono";
import type * as zc from "zod/v4/core";
import type { ErrorCode } from "../errors.ts";

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
};

export type HandlerMark =
  | { kind: "validate"; target: "json" | "query" | "param"; schema: zc.$ZodType }
  | { kind: "auth"; level: "user" | "admin" | "optional" | "statement" }
  | { kind: "rateLimit"; name: string; limit: number; windowSeconds: number }
  | { kind: "describe"; doc: RouteDescription };

const marks = new WeakMap<object, HandlerMark>();

export function mark<H extends object>(handler: H, m: HandlerMark): H {
  marks.set(handler, m);
  return handler;
}

export function markOf(handler: unknown): HandlerMark | undefined {
  return typeof handler === "function" ? marks.get(handler) : undefined;
}

/** A route's description for the OpenAPI document; does nothing at request time. */
export function describeRoute(doc: RouteDescription): MiddlewareHandler {
  return mark<MiddlewareHandler>(async (_c, next) => next(), { kind: "describe", doc });
}
