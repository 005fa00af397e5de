// The marks route handlers carry for the OpenAPI document (route-docs.ts): kept apart, with no imports, so the
// auth middlewares can mark themselves without importing route-docs.ts (which imports them).
import type * as zc from "zod/v4/core";
import type { RouteDescription } from "./route-docs.ts";

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

