// Cookies, sessions, CSRF, CORS and rate limits at the HTTP edge. The session logic itself lives in
// lib/auth/session.ts; this file only moves tokens between cookies and that code.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie, setSignedCookie } from "hono/cookie";
import { cors } from "hono/cors";
import { matchedRoutes } from "hono/route";
import type { Config } from "../config/index.ts";
import { checkToken } from "../auth/tokens.ts";
import { DEVICE_DAYS } from "../auth/devices.ts";
import { tooManySignIns, waitWords } from "../auth/lockout.ts";
import { checkSession, readSessionToken, type SessionClaim, type SessionInfo, type ValidSession } from "../auth/session.ts";
import { AppError } from "../errors.ts";
import { limitKey } from "../net/client-ip.ts";
import { LIMITS, type LimitRule } from "../ratelimit/index.ts";
import type { AppEnv } from "./index.ts";
import { mark } from "./marks.ts";

const SESSION_COOKIE_BASE = "journal_session";

type CookieMode = { secure: boolean; sameSite: "Lax" | "None" };

/** SameSite=Lax, Secure in production; SameSite=None; Secure in cross-origin mode. */
export function cookieMode(config: Config): CookieMode {
  if (config.features.cors) return { secure: true, sameSite: "None" };
  return { secure: config.NODE_ENV === "production", sameSite: "Lax" };
}

/** `__Host-` pins a Secure cookie to this exact host and path (no Domain attribute can widen it). */
export function sessionCookieName(config: Config): string {
  return cookieMode(config).secure ? `__Host-${SESSION_COOKIE_BASE}` : SESSION_COOKIE_BASE;
}

export async function setSessionCookie(c: Context<AppEnv>, token: string, session: SessionInfo): Promise<void> {
  const { config } = c.var.deps;
  const mode = cookieMode(config);
  await setSignedCookie(c, sessionCookieName(config), token, config.SESSION_SECRET, {
    httpOnly: true,
    path: "/",
    secure: mode.secure,
    sameSite: mode.sameSite,
    expires: session.absoluteExpiresAt,
  });
}

/** The long-lived device cookie (lib/auth/devices.ts): `__Host-` like the session's when Secure. */
function deviceCookieName(config: Config): string {
  return cookieMode(config).secure ? "__Host-journal_device" : "journal_device";
}

export function readDeviceCookie(c: Context<AppEnv>): string | undefined {
  return getCookie(c, deviceCookieName(c.var.deps.config));
}

export function setDeviceCookie(c: Context<AppEnv>, deviceId: string): void {
  const { config } = c.var.deps;
  const mode = cookieMode(config);
  setCookie(c, deviceCookieName(config), deviceId, { httpOnly: true, path: "/", secure: mode.secure, sameSite: mode.sameSite, maxAge: DEVICE_DAYS * 86_400 });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { config } = c.var.deps;
  const mode = cookieMode(config);
  deleteCookie(c, sessionCookieName(config), { path: "/", secure: mode.secure, sameSite: mode.sameSite, httpOnly: true });
}

/**
 * The value of a cookie written by hono's setSignedCookie (`value.base64(HMAC-SHA256(secret, value))`), or
 * undefined when it is absent, unsigned or tampered. hono's own getSignedCookie imports a WebCrypto key and
 * verifies on the crypto thread pool for every request; node:crypto does the same check synchronously.
 */
export function readSignedCookie(c: Context<AppEnv>, secret: string, name: string): string | undefined {
  const raw = getCookie(c, name);
  if (!raw) return undefined;
  const dot = raw.lastIndexOf(".");
  if (dot < 0) return undefined;
  const value = raw.slice(0, dot);
  const given = Buffer.from(raw.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(value).digest("base64"));
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : undefined;
}

/** The anti-CSRF token of a session: an HMAC of its id, so it needs no storage and dies with the session. */
export function csrfTokenFor(config: Config, sessionId: string): string {
  return createHmac("sha256", config.SESSION_SECRET).update(`csrf:${sessionId}`).digest("base64url");
}

function csrfMatches(config: Config, sessionId: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(csrfTokenFor(config, sessionId));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Methods that change nothing: their session check may wait until a route asks for it. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Mutating routes that need no anti-CSRF token: they either start a session or carry their own proof. */
export const CSRF_EXEMPT_PATHS = new Set([
  "/api/auth/register",
  "/api/auth/login",
  "/api/auth/login/2fa",
  "/api/passkeys/sign-in/options",
  "/api/passkeys/sign-in",
  "/api/passkeys/second-step/options",
  "/api/passkeys/second-step",
  "/api/auth/password-reset/request",
  "/api/auth/password-reset/confirm",
  "/api/auth/verify-email",
  "/api/billing/webhook",
]);

/** What a browser's Sec-Fetch-Site may say of a request the app's own pages made (or the trader typed). */
const OWN_FETCH_SITES = new Set(["same-origin", "none"]);

/**
 * Same-origin mode (no CORS_ALLOWED_ORIGINS): the Lax cookie keeps other *sites* out, but a page on another
 * port of the same host, or on a sibling subdomain, is the same site, and a form it posts carries the cookie.
 * So a mutating request that a browser says came from another origin is refused: Sec-Fetch-Site other than
 * same-origin or none; where a browser sends no Sec-Fetch-Site, an Origin other than the app's own (its host,
 * or WEB_BASE_URL's). A request with neither header is not a browser's (a script, the payment webhook) and
 * carries no victim's cookie. Cross-origin mode has the anti-CSRF token instead.
 */
function sameOriginRefusal(c: Context<AppEnv>, config: Config): AppError | null {
  const site = c.req.header("Sec-Fetch-Site");
  if (site !== undefined) return OWN_FETCH_SITES.has(site.trim().toLowerCase()) ? null : crossOrigin();
  const origin = c.req.header("Origin");
  if (origin === undefined) return null;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return crossOrigin(); // "null" (a sandboxed frame, a file) or garbage
  }
  const own = new URL(c.req.url).host;
  const configured = config.WEB_BASE_URL ? new URL(config.WEB_BASE_URL).host : null;
  return host === own || host === configured ? null : crossOrigin();
}

const crossOrigin = () =>
  new AppError("CSRF_FAILED", "This request came from a page of another origin, so it was refused. Use the journal's own pages.");

/**
 * Reads the session cookie (if any). A tampered or malformed cookie simply means no session. The cookie's
 * claim is checked against the database at once for requests that may change something (where an ended
 * session must not pass, and in cross-origin mode the anti-CSRF token must match the session), and otherwise
 * only when a route asks: requireUser, or a route whose own statement checks it (requireUserInStatement).
 */
export const sessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { deps } = c.var;
  const bearer = bearerToken(c);
  if (bearer !== undefined) {
    // A personal access token: the cookie is not read, and there is nothing for CSRF to forge (a browser never
    // adds this header by itself). Unknown, revoked or expired: 401 at once.
    const found = await checkToken(deps, bearer);
    if (!found) throw new AppError("UNAUTHORIZED", "The access token is not valid: unknown, revoked or expired.");
    c.set("sessionChecked", true);
    c.set("user", found.user);
    c.set("accessToken", found.token);
    return next();
  }
  const token = readSignedCookie(c, deps.config.SESSION_SECRET, sessionCookieName(deps.config));
  const claim = token ? readSessionToken(token) : null;
  if (claim) c.set("sessionClaim", claim);
  // Routing before auth: a path no route answers is a 404 whatever the session (and costs no lookup).
  const mutating = !SAFE_METHODS.has(c.req.method) && matchedRoutes(c).some((route) => route.method !== "ALL");
  if (mutating && !deps.config.features.cors) {
    const refused = sameOriginRefusal(c, deps.config);
    if (refused) throw refused;
  }
  if (claim && mutating) {
    await resolveSession(c);
    const session = c.var.session;
    if (deps.config.features.cors && session && !CSRF_EXEMPT_PATHS.has(c.req.path)) {
      if (!csrfMatches(deps.config, session.id, c.req.header("X-CSRF-Token"))) {
        throw new AppError("CSRF_FAILED", "Missing or invalid X-CSRF-Token header.");
      }
    }
  }
  await next();
};

/** The token of an `Authorization: Bearer` header (undefined without one; a malformed one is "" and fails). */
function bearerToken(c: Context<AppEnv>): string | undefined {
  const header = c.req.header("Authorization");
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : "";
}

/**
 * A token request reaches a handler only after its route's describeRoute checked the scope: a route without a
 * description (or with the check skipped) refuses tokens rather than let one through unchecked.
 */
function assertTokenChecked(c: Context<AppEnv>): void {
  if (c.var.accessToken && !c.var.tokenScopeChecked) throw new AppError("FORBIDDEN", "Access tokens cannot be used here.");
}

/** Checks the request's session claim once, into `c.var.user` / `c.var.session`. */
async function resolveSession(c: Context<AppEnv>): Promise<void> {
  if (c.var.sessionChecked) return;
  const claim = c.var.sessionClaim;
  adoptSession(c, claim ? await checkSession(c.var.deps, claim) : null);
}

/** Records the outcome of the request's session check. */
function adoptSession(c: Context<AppEnv>, found: ValidSession | null): void {
  c.set("sessionChecked", true);
  if (found) {
    c.set("user", found.user);
    c.set("session", found.session);
  }
}

const unauthorized = () => new AppError("UNAUTHORIZED", "Sign in to continue.");

/** For routes that answer signed-in and signed-out callers alike: `c.var.user` is set when the session is live. */
export const optionalUser: MiddlewareHandler<AppEnv> = mark<MiddlewareHandler<AppEnv>>(
  async (c, next) => {
    assertTokenChecked(c);
    await resolveSession(c);
    await next();
  },
  { kind: "auth", level: "optional" },
);

export const requireUser: MiddlewareHandler<AppEnv> = mark<MiddlewareHandler<AppEnv>>(
  async (c, next) => {
    assertTokenChecked(c);
    await resolveSession(c);
    if (!c.var.user) throw unauthorized();
    await next();
  },
  { kind: "auth", level: "user" },
);

export const requireAdmin: MiddlewareHandler<AppEnv> = mark<MiddlewareHandler<AppEnv>>(
  async (c, next) => {
    if (c.var.accessToken) throw new AppError("FORBIDDEN", "Access tokens cannot be used here: sign in to the web app instead.");
    await resolveSession(c);
    if (!c.var.user) throw unauthorized();
    if (!c.var.user.isAdmin) throw new AppError("FORBIDDEN", "Administrators only.");
    await next();
  },
  { kind: "auth", level: "admin" },
);

/**
 * For a read whose statement checks the session itself (SESSION_CTE), saving the round trip of a separate
 * check: only a well-formed signed cookie is required here, and the handler passes `statementCaller(c)` to its
 * domain function, which throws UNAUTHORIZED when the statement finds no live session. If the route fails any
 * other way (a malformed path parameter, an account that is not the user's), the session is checked the
 * ordinary way before that answer goes out (one more round trip, on failures only), so a request without a
 * live session always answers 401, as behind requireUser.
 */
export const requireUserInStatement: MiddlewareHandler<AppEnv> = mark<MiddlewareHandler<AppEnv>>(
  async (c, next) => {
    assertTokenChecked(c);
    if (c.var.accessToken || c.var.mentor) return next(); // the user is known already: the handler passes statementCaller(c)
    if (!c.var.sessionClaim) throw unauthorized();
    await next();
    // Hono has already turned anything thrown downstream into its error response; c.error keeps the error.
    const failed = c.error;
    if (failed && !(failed instanceof AppError && failed.code === "UNAUTHORIZED")) {
      await resolveSession(c);
      if (!c.var.user) throw unauthorized();
    }
  },
  { kind: "auth", level: "statement" },
);

/**
 * Who a statement-checked read is for, behind requireUserInStatement: the session claim its statement checks,
 * or the user a personal access token already named.
 */
export function statementCaller(c: Context<AppEnv>): SessionClaim | { userId: string } {
  if ((c.var.accessToken || c.var.mentor) && c.var.user) return { userId: c.var.user.id };
  const claim = c.var.sessionClaim;
  if (!claim) throw unauthorized();
  return claim;
}

/** The signed-in user; only valid behind requireUser. */
export function currentUser(c: Context<AppEnv>) {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}

export function currentSession(c: Context<AppEnv>): SessionInfo {
  const session = c.var.session;
  if (!session) throw unauthorized();
  return session;
}

/**
 * Per-client (`by: "client"`: the client address, an IPv6 client's /64), per-user (`by: "user"`) or per-session
 * (`by: "session"`) limit. Over the limit: 429 RATE_LIMITED with Retry-After in seconds, worded by `refusal`
 * (the sign-in routes answer exactly as the account lockout does).
 */
export function rateLimit(
  rule: LimitRule,
  by: "client" | "user" | "session",
  refusal: (waitSeconds: number) => AppError = tooManyRequests,
): MiddlewareHandler<AppEnv> {
  return mark<MiddlewareHandler<AppEnv>>(async (c, next) => {
    const identifier =
      by === "user" ? `user:${currentUser(c).id}` : by === "session" ? `session:${currentSession(c).id}` : `ip:${limitKey(c.var.clientIp)}`;
    const result = await c.var.deps.rateLimiter.check(rule, identifier);
    if (!result.success) throw refusal(Math.max(1, Math.ceil(result.retryAfterSeconds)));
    await next();
  }, { kind: "rateLimit", name: rule.name, limit: rule.limit, windowSeconds: rule.windowSeconds });
}

const tooManyRequests = (wait: number) => new AppError("RATE_LIMITED", `Too many requests. Try again in ${waitWords(wait)}.`, { headers: { "Retry-After": String(wait) } });

/**
 * The per-client limits of the sign-in routes: POST /api/auth/login counts every request (SPEC.md section 8: 10
 * per 15 minutes); the steps after it (a code, a passkey's second step) and a passkey sign-in count in a budget of
 * their own, so finishing a two-factor sign-in does not spend the login's. Both answer as the lockout does.
 */
export const loginLimit = rateLimit(LIMITS.login, "client", tooManySignIns);
export const signInStepLimit = rateLimit(LIMITS.signInStep, "client", tooManySignIns);

/**
 * A route that checks the current password (or a second-factor code) again is a way to guess it from a stolen
 * session: every such route shares one budget per session and one per user, counted before the check, like
 * sign-in's (docs/auth.md).
 */
export const passwordCheckLimits = [rateLimit(LIMITS.passwordCheckSession, "session"), rateLimit(LIMITS.passwordCheckUser, "user")] as const;

/** Cross-origin mode only: exact origins, credentials allowed. Unset: no CORS headers at all. */
export function corsMiddleware(): MiddlewareHandler<AppEnv> {
  let handler: MiddlewareHandler | undefined;
  let forConfig: Config | undefined;
  return async (c, next) => {
    const { config } = c.var.deps;
    if (!config.features.cors) return next();
    if (forConfig !== config) {
      const allowed = new Set(config.CORS_ALLOWED_ORIGINS);
      handler = cors({
        origin: (origin) => (allowed.has(origin) ? origin : null),
        credentials: true,
        allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        allowHeaders: ["Content-Type", "X-CSRF-Token", "X-Request-Id"],
        exposeHeaders: ["X-Request-Id", "Retry-After"],
        maxAge: 600,
      });
      forConfig = config;
    }
    return handler!(c, next);
  };
}
