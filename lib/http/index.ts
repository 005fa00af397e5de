import type { TokenAuth } from "../auth/tokens.ts";
import type { MentorScope } from "../sharing/access.ts";
import { API_CONTENT_POLICY, webContentPolicy } from "./csp.ts";
import { getMultipartBoundary, parseMultipartStream } from "@remix-run/multipart-parser";
import { Hono, type Context, type MiddlewareHandler, type TypedResponse } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { routePath } from "hono/route";
import { validator } from "hono/validator";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import { safeParseAsync } from "zod/mini";
import type * as zc from "zod/v4/core";
import type { AuthUser, SessionClaim, SessionInfo } from "../auth/session.ts";
import type { JsonText } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError, validationError, type ErrorCode } from "../errors.ts";
import { textProblems } from "../text.ts";
import { databaseErrorForLog, isDatabaseUnavailable } from "../db/errors.ts";
import { clientIp, fromTrustedProxy } from "../net/client-ip.ts";
import { corsMiddleware, sessionMiddleware } from "./auth.ts";
import { mark } from "./marks.ts";

export { AppError } from "../errors.ts";

/** The one context type of every endpoint group. */
export type AppEnv = {
  Bindings: Record<string, unknown>;
  Variables: {
    requestId: string;
    deps: Deps;
    /** The client address used for per-client limits (DESIGN.md section 3). */
    clientIp: string;
    /** The signed session cookie's claim, not yet checked against the database (lib/http/auth.ts). */
    sessionClaim?: SessionClaim;
    /** Whether the claim has been checked; `user` and `session` are set when it named a live session. */
    sessionChecked?: boolean;
    user?: AuthUser;
    session?: SessionInfo;
    /** Set when the request authenticated with `Authorization: Bearer <personal access token>` (no session then). */
    accessToken?: TokenAuth;
    /** Set once the route's describeRoute found the token's scopes enough for it (route-docs.ts). */
    tokenScopeChecked?: boolean;
    /** Set when a mentor reads with `?mentee=` (lib/http/mentor.ts): `user` is then the owner they read. */
    mentor?: { grantId: string; mentorId: string; scopes: readonly MentorScope[] };
  };
};

/** Every endpoint group is a sub-app made here, so they all share one context type. */
export function createRouter() {
  return new Hono<AppEnv>();
}

/** An endpoint group and the path prefix it is mounted at (and that wrangler.toml routes to its Worker). */
export type Group = { prefix: string; app: ReturnType<typeof createRouter> };

/** Default cap on JSON bodies; upload routes set their own limits. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** The one error envelope. `fields` only ever on a VALIDATION_ERROR (DESIGN.md section 3). */
export function errorBody(code: ErrorCode, message: string, requestId: string, fields?: AppError["fields"]) {
  return { error: { code, message, requestId, ...(fields && code === "VALIDATION_ERROR" ? { fields } : {}) } };
}

function respondWithError(c: Context<AppEnv>, err: AppError) {
  for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
  return c.json(errorBody(err.code, err.message, c.var.requestId ?? "", err.fields), err.status as ContentfulStatusCode);
}

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
};

/** Maps anything thrown to an AppError; unknown errors become INTERNAL and are logged with their stack. */
export function toAppError(err: unknown, onUnknown: (err: unknown) => void): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    const code = HTTP_STATUS_CODES[err.status];
    // HTTPException messages come from our own code or hono's (e.g. malformed JSON): never SQL.
    if (code) return new AppError(code, code === "VALIDATION_ERROR" ? "The request body is not valid JSON." : err.message || code);
  }
  onUnknown(err);
  if (isDatabaseUnavailable(err)) {
    return new AppError("SERVICE_UNAVAILABLE", "The database is not reachable right now. Try again in a moment.", { headers: { "Retry-After": "5" } });
  }
  return new AppError("INTERNAL", "Something went wrong on our side. The request id identifies it in our logs.");
}

export type AppOptions = {
  /** Resolves the dependencies of one request (Node: shared; Worker: built per request). */
  deps: (c: Context<AppEnv>) => Deps | Promise<Deps>;
  /** Called once the response is ready (a Worker closes its per-request client here). */
  release?: (deps: Deps, c: Context<AppEnv>) => void;
  /** The immediate peer's address (Node: the socket; Workers: the edge's connecting-IP header). */
  peerAddress?: (c: Context<AppEnv>) => string | undefined;
  /** Told of every answered request (Node, with METRICS_ENABLED: lib/metrics). */
  observe?: (request: RequestObservation) => void;
};

/**
 * One answered request, as metrics see it: the route template that answered ("/api/ledger/:accountId",
 * "*" for the app shell), never the path itself, so no id or other user data reaches a label.
 */
export type RequestObservation = { method: string; route: string; status: number; seconds: number };


/**
 * The shell around every endpoint group: request ids, dependencies, security headers, body limits,
 * the 404 envelope and the one error handler.
 */
export function createApp(options: AppOptions) {
  const app = createRouter();

  const { observe } = options;
  app.use("*", async (c, next) => {
    const started = observe ? performance.now() : 0;
    const incoming = c.req.header("X-Request-Id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    c.header("X-Content-Type-Options", "nosniff");
    await next();
    // Responses carry account data; no shared cache may keep them unless a route says otherwise. Set on the
    // response's own headers: c.header() on a finished response rebuilds it around its body as a stream,
    // which the Node adapter then has to pump chunk by chunk instead of writing the string at once.
    const headers = c.res.headers;
    if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
    headers.set("X-Request-Id", requestId);
    // The content policy (csp.ts): the browser app's strict one for its pages, nothing at all for the API's
    // answers; never framed (clickjacking). The web container's nginx sends the same. A route's own policy (a
    // stored screenshot's sandbox, the reference page's script hashes) is kept.
    if (!headers.has("Content-Security-Policy")) {
      headers.set(
        "Content-Security-Policy",
        c.req.path.startsWith("/api/") ? API_CONTENT_POLICY : webContentPolicy(c.var.deps?.config.ANALYTICS_PUBLIC_HOST),
      );
    }
    headers.set("X-Frame-Options", "DENY");
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    // After next(), the route index names the handler that answered (or the last one that passed it on).
    if (observe) observe({ method: c.req.method, route: routePath(c) || "unmatched", status: c.res.status, seconds: (performance.now() - started) / 1000 });
  });

  app.use("*", async (c, next) => {
    const deps = await options.deps(c);
    c.set("deps", deps);
    const peer = options.peerAddress?.(c);
    c.set("clientIp", clientIp(peer, c.req.header("X-Forwarded-For"), deps.config.TRUSTED_PROXIES));
    try {
      await next();
      // HSTS only on a request that came over TLS: its own URL (a Worker), or a trusted proxy that says so.
      const maxAge = deps.config.HSTS_MAX_AGE;
      if (maxAge > 0 && cameOverTls(c, peer, deps.config.TRUSTED_PROXIES)) c.res.headers.set("Strict-Transport-Security", `max-age=${maxAge}`);
    } finally {
      options.release?.(deps, c);
    }
  });

  const cameOverTls = (c: Context<AppEnv>, peer: string | undefined, trusted: readonly string[]) =>
    c.req.url.startsWith("https:") ||
    (c.req.header("X-Forwarded-Proto")?.split(",")[0]?.trim().toLowerCase() === "https" && fromTrustedProxy(peer, trusted));

  const UPLOAD_PATHS = new Set(["/api/csv-import/preview", "/api/auth/account/import", "/api/archive"]);
  const IMAGE_UPLOAD_PATH = /^\/api\/trades\/[^/]+\/images$/;
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT_BYTES,
    onError: () => {
      throw new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${JSON_BODY_LIMIT_BYTES} bytes.`);
    },
  });
  // Uploads count their own bytes against their own caps (readUpload). GET and HEAD carry no body
  // (fetch's Request drops it), and asking for one would make the Node adapter build a full Request.
  app.use("/api/*", (c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD" || UPLOAD_PATHS.has(c.req.path) || IMAGE_UPLOAD_PATH.test(c.req.path)
      ? next()
      : jsonBodyLimit(c, next),
  );

  app.use("/api/*", corsMiddleware());
  app.use("/api/*", sessionMiddleware);

  app.notFound((c) => c.json(errorBody("NOT_FOUND", "No such route.", c.var.requestId ?? ""), 404));

  app.onError((err, c) => {
    const appError = toAppError(err, (unknown) => {
      const log = c.var.deps?.log;
      const detail = databaseErrorForLog(unknown) ?? (unknown instanceof Error ? { name: unknown.name, stack: unknown.stack } : { value: String(unknown) });
      if (log) log.error(isDatabaseUnavailable(unknown) ? "database unavailable" : "unhandled error", { requestId: c.var.requestId, path: c.req.path, ...detail });
      else console.error(unknown);
    });
    return respondWithError(c, appError);
  });

  return app;
}

/** A JSON response whose body a statement already built as text (lib/db/rows.ts, JsonText): c.json without re-serialising. */
export function jsonText<T, U extends ContentfulStatusCode = 200>(c: Context<AppEnv>, body: JsonText<T>, status?: U) {
  // Typed as c.json's answer would be, so the browser app's typed client (hono/client) sees the same type.
  const res: Response = c.body(body, status ?? 200, { "Content-Type": "application/json" });
  return res as Response & TypedResponse<JSONParsed<T>, U, "json">;
}

type Target = "json" | "query" | "param";

/**
 * Validates one part of the request against a zod schema. Failures are VALIDATION_ERROR with
 * `fields`; a JSON route refuses any other content type with 415.
 */
export function validate<T extends zc.$ZodType, G extends Target>(target: G, schema: T) {
  const check = validator(target, async (value) => {
    const unstorable = textProblems(value);
    if (unstorable.length) throw validationError(unstorable);
    const result = await safeParseAsync(schema, value);
    if (!result.success) throw validationError(result.error.issues);
    return result.data as zc.output<T>;
  });
  if (target !== "json") return mark(check, { kind: "validate", target, schema });
  const requireJson: MiddlewareHandler = async (c, next) => {
    const [type = "", ...params] = (c.req.header("Content-Type") ?? "").split(";");
    const charset = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("charset="))?.slice(8).replaceAll('"', "");
    if (!JSON_MEDIA_TYPE.test(type.trim()) || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "This route accepts only Content-Type: application/json, in UTF-8.");
    }
    await next();
  };
  return mark(
    (async (c, next) => {
      await requireJson(c, async () => {
        await check(c, next);
      });
    }) as typeof check,
    { kind: "validate", target, schema },
  );
}

/** An upload as the routes read it: the `file` part's name and bytes, and every other part as text. */
export type Upload = { file: { name: string; bytes: Uint8Array }; fields: Map<string, string> };

/** Room for the multipart boundary and part headers on top of an upload's own cap. */
export const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/**
 * Reads a multipart upload as it arrives, counting the bytes actually read: a body past `maxBytes` plus the
 * multipart overhead fails with 413 whatever its Content-Length claims, and nothing beyond the cap is
 * buffered. Parsed in a stream (@remix-run/multipart-parser): each part is held once, as the chunks it
 * arrived in, and the file's bytes are joined once. A whole-body `formData()` held the body, its joined copy
 * and the file's Blob at once, three copies of a 10 MB file (issue 40). `what` names the file in the error
 * when the part is missing ("the CSV file", "the image").
 */
export async function readUpload(c: Context<AppEnv>, maxBytes: number, capName: string, what: string): Promise<Upload> {
  const type = c.req.header("Content-Type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the file as multipart/form-data.");
  }
  const body = c.req.raw.body;
  if (!body) throw new AppError("VALIDATION_ERROR", "The request has no body.", { fields: [{ path: "file", message: "is required" }] });
  const notMultipart = () => new AppError("VALIDATION_ERROR", "The upload is not a valid multipart form.", { fields: [{ path: "file", message: "could not be read" }] });
  const boundary = getMultipartBoundary(type);
  if (!boundary) throw notMultipart();
  const cap = maxBytes + MULTIPART_OVERHEAD_BYTES;
  let read = 0;
  let tooLarge = false;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > cap) {
          tooLarge = true;
          controller.error(new Error("too large"));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  let file: Upload["file"] | undefined;
  const fields = new Map<string, string>();
  try {
    for await (const part of parseMultipartStream(counted, { boundary, maxFileSize: cap, maxTotalSize: cap })) {
      const name = part.name;
      if (name === undefined) continue;
      // The first of each name counts, as FormData.get has it; a `file` part must be a file.
      if (name === "file" && part.isFile) file ??= { name: part.filename ?? "", bytes: part.bytes };
      else if (!fields.has(name)) fields.set(name, part.text);
    }
  } catch {
    if (tooLarge) throw new AppError("PAYLOAD_TOO_LARGE", `The upload is larger than ${cap} bytes (${capName}).`);
    throw notMultipart();
  }
  if (!file) throw new AppError("VALIDATION_ERROR", `Attach ${what} as the \`file\` part.`, { fields: [{ path: "file", message: "is required" }] });
  return { file, fields };
}
