// The OpenAPI 3.1 document of the API, built from the mounted routes themselves (lib/http/route-docs.ts):
// each route's path and method from the router, its parameters and body from the zod schemas `validate`
// checks (zod's own JSON Schema output, input side), its security from the auth middleware it uses, its
// success responses from `describeRoute`, and its error responses from all of these (the one envelope of
// DESIGN.md section 3, the codes each status can carry listed in `x-error-codes`).
import type { Hono } from "hono";
import { toJSONSchema } from "zod/v4/core";
import type * as zc from "zod/v4/core";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";
import { markOf, routeScope, type HandlerMark, type RouteDescription } from "./route-docs.ts";

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export type RouteInfo = {
  method: string;
  /** Hono's path, `/api/accounts/:id`. */
  path: string;
  /** OpenAPI's, `/api/accounts/{id}`. */
  openapiPath: string;
  validators: Array<Extract<HandlerMark, { kind: "validate" }>>;
  auth: "user" | "admin" | "optional" | "statement" | undefined;
  rateLimit: Extract<HandlerMark, { kind: "rateLimit" }> | undefined;
  doc: RouteDescription | undefined;
};

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** Every API route of an app with what its handlers say about it, in mounting order. */
export function apiRoutes(app: Pick<Hono, "routes">): RouteInfo[] {
  const byKey = new Map<string, RouteInfo>();
  for (const r of app.routes) {
    if (!METHODS.has(r.method) || !r.path.startsWith("/api/")) continue;
    const key = `${r.method} ${r.path}`;
    let info = byKey.get(key);
    if (!info) {
      info = { method: r.method, path: r.path, openapiPath: r.path.replace(/:(\w+)/g, "{$1}"), validators: [], auth: undefined, rateLimit: undefined, doc: undefined };
      byKey.set(key, info);
    }
    const m = markOf(r.handler);
    if (m?.kind === "validate") info.validators.push(m);
    else if (m?.kind === "auth") info.auth = m.level;
    else if (m?.kind === "rateLimit") info.rateLimit = m;
    else if (m?.kind === "describe") info.doc = m.doc;
  }
  return [...byKey.values()];
}

function schemaOf(schema: zc.$ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _drop, ...rest } = toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

/** The error codes a route can answer, from its middlewares and its description. */
export function errorCodesOf(route: RouteInfo): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.doc?.errors ?? []);
  if (route.validators.length) codes.add("VALIDATION_ERROR");
  if (route.validators.some((v) => v.target === "json")) {
    codes.add("UNSUPPORTED_MEDIA_TYPE");
    codes.add("PAYLOAD_TOO_LARGE");
  }
  // Any route that reads the caller: no live session, or a personal access token that is not valid (401); a
  // token outside the route's scope, or an admin route for someone else (403).
  if (route.auth) codes.add("UNAUTHORIZED").add("FORBIDDEN");
  // Same-origin mode refuses any mutating request from another origin; cross-origin mode checks the token.
  if (route.method !== "GET") codes.add("CSRF_FAILED");
  if (route.rateLimit) codes.add("RATE_LIMITED");
  if (route.path.includes(":")) codes.add("NOT_FOUND");
  // A mentor's request (`?mentee=`, lib/http/mentor.ts) for anything not shared with them: 404 on any route
  // that reads the caller (a read that must name its account, 400, has a query validator anyway).
  if (route.auth && !route.doc?.public) codes.add("NOT_FOUND");
  codes.add("INTERNAL");
  codes.add("SERVICE_UNAVAILABLE");
  return [...codes].sort();
}

const ERROR_ENVELOPE: JsonSchema = {
  type: "object",
  required: ["error"],
  additionalProperties: false,
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "requestId"],
      additionalProperties: false,
      properties: {
        code: { type: "string", enum: Object.keys(ERROR_STATUS).sort(), description: "Stable, machine-readable." },
        message: { type: "string", description: "For people: plain words, never internals." },
        requestId: { type: "string", description: "Also in the X-Request-Id header; quote it when reporting a problem." },
        fields: {
          type: "array",
          description: "VALIDATION_ERROR only: each field at fault.",
          items: { type: "object", required: ["path", "message"], additionalProperties: false, properties: { path: { type: "string" }, message: { type: "string" } } },
        },
      },
    },
  },
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  health: "Liveness and the database's state.",
  config: "Which optional features this instance has.",
  auth: "Registration, sign-in, sessions, email confirmation and password reset.",
  passkeys: "Passkeys: a sign-in of their own, and a second factor after the password.",
  accounts: "Trading accounts.",
  brokerages: "Brokerages an account can name.",
  ledger: "The cash ledger of an account.",
  fills: "Executions, imported or entered by hand.",
  trades: "Positions rolled up from fills, with journal fields.",
  stats: "Performance statistics.",
  playbooks: "The setups you trade, with a checklist your trades answer.",
  days: "The daily journal: a plan, a review and a mood per account and trading day.",
  rules: "Trading rules per account and how well the trades kept them.",
  insights: "Behaviour findings over your own record, each citing its trades.",
  tags: "Your tags, and their kinds: setup, mistake or emotion.",
  "csv-import": "Broker CSV import: preview, commit, undo.",
  advisor: "The AI advisor on the trader's own provider keys.",
  billing: "Credits, packs, the Pro plan and the payment webhook.",
  symbols: "Symbol search over the regulator's ticker file.",
  quotes: "Delayed quotes (when the instance has a quote provider).",
  admin: "The admin console (administrators only).",
  changelog: "The instance's release notes.",
  archive: "Everything a trader has here, as one ZIP.",
  docs: "This document and its reference page.",
};

function tagOf(route: RouteInfo): string {
  return route.doc?.tag ?? route.path.split("/")[2] ?? "api";
}

/** `GET /api/accounts/:id/entries` -> `getAccountsIdEntries`. */
function operationId(route: RouteInfo): string {
  const words = route.path.replace(/^\/api\//, "").split(/[/:.-]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

function operation(route: RouteInfo): Operation {
  const doc = route.doc;
  const parameters: JsonSchema[] = [];
  const seenPath = new Set<string>();
  for (const v of route.validators) {
    if (v.target === "json") continue;
    const schema = schemaOf(v.schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, s] of Object.entries(schema.properties ?? {})) {
      if (v.target === "param") seenPath.add(name);
      parameters.push({ name, in: v.target === "param" ? "path" : "query", required: v.target === "param" || (schema.required ?? []).includes(name), schema: s });
    }
  }
  for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
    if (!seenPath.has(name!)) parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
  }
  const json = route.validators.find((v) => v.target === "json");
  const requestBody = json
    ? { required: true, content: { "application/json": { schema: schemaOf(json.schema, "input") } } }
    : doc?.body
      ? { required: true, description: doc.body.description, content: { [doc.body.contentType]: { schema: schemaOf(doc.body.schema, "input") } } }
      : undefined;

  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(doc?.responses ?? { 200: { description: "OK" } })) {
    responses[status] = r.schema
      ? { description: r.description, content: { [r.contentType ?? "application/json"]: { schema: schemaOf(r.schema, "output") } } }
      : { description: r.description };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    // A status the route documents as its own answer (health's 503 report) keeps that description.
    if (responses[String(status)]) continue;
    responses[String(status)] = {
      description: codes.join(", "),
      "x-error-codes": codes,
      ...(status === 429 || status === 503 ? { headers: { "Retry-After": { description: "Seconds until a retry can succeed.", schema: { type: "integer" } } } } : {}),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }

  const mutating = route.method !== "GET";
  // The personal access token scope this route takes (routeScope: the same function describeRoute enforces).
  const scope = doc && !doc.public && route.auth && route.auth !== "admin" ? routeScope(route.method, doc) : null;
  const byToken = scope ? [{ accessToken: [scope] }] : [];
  const security =
    doc?.public || !route.auth
      ? []
      : route.auth === "optional"
        ? [{}, { session: [] }, ...byToken]
        : mutating
          ? [{ session: [] }, { session: [], csrf: [] }, ...byToken]
          : [{ session: [] }, ...byToken];
  const limit = route.rateLimit ? `\n\nRate limit: ${route.rateLimit.limit} per ${route.rateLimit.windowSeconds} s (${route.rateLimit.name}).` : "";
  return {
    operationId: operationId(route),
    tags: [tagOf(route)],
    summary: doc?.summary ?? `${route.method} ${route.path}`,
    ...(doc?.description || limit ? { description: `${doc?.description ?? ""}${limit}`.trim() } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    security,
    // Not yet described with describeRoute: its success responses are a bare "OK" and its own error codes are missing.
    ...(doc ? {} : { "x-undescribed": true }),
  };
}

export type OpenApiInfo = { title: string; version: string; description: string; cookieName: string };

/** The whole document for the routes of `app`. */
export function buildOpenApiDocument(app: Pick<Hono, "routes">, info: OpenApiInfo) {
  const routes = apiRoutes(app);
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) (paths[route.openapiPath] ??= {})[route.method.toLowerCase()] = operation(route);
  const tags = [...new Set(routes.map(tagOf))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: info.description, license: { name: "AGPL-3.0-only", identifier: "AGPL-3.0-only" } },
    servers: [{ url: "/", description: "This instance" }],
    tags,
    paths,
    components: {
      schemas: { Error: ERROR_ENVELOPE },
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: info.cookieName,
          description: `The session cookie set by POST /api/auth/register and /api/auth/login (named __Host-${info.cookieName} when served over HTTPS).`,
        },
        accessToken: {
          type: "http",
          scheme: "bearer",
          description:
            "A personal access token (POST /api/auth/tokens), for scripts and trading platforms: `Authorization: Bearer tj_...`, no cookie and no CSRF header. Each route lists the one scope it needs (read, import or fills:write); outside its scopes a token gets 403 FORBIDDEN, and auth, token, key, billing, advisor and admin routes take none.",
        },
        csrf: {
          type: "apiKey",
          in: "header",
          name: "X-CSRF-Token",
          description:
            "Cross-origin mode only (CORS_ALLOWED_ORIGINS set): every mutating request of a session sends the token that register, login and GET /api/auth/csrf return. Missing or wrong: 403 CSRF_FAILED.",
        },
      },
    },
  };
}
