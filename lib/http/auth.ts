// Cookies, sessions, CSRF, CORS and rate limits at the HTTP edge. The session logic itself lives in
// lib/auth/session.ts; this file only moves tokens between cookies and that code.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import { cors } from "hono/cors";
import type { Config } from "../config/index.ts";
import { validateSession, type SessionInfo } from "../auth/session.ts";
import { AppError } from "../errors.ts";
import type { LimitRule } from "../ratelimit/index.ts";
import type { AppEnv } from "./index.ts";

const COOKIE_BASE = "journal_session";

type CookieMode = { secure: boolean; sameSite: "Lax" | "None" };

/** SameSite=Lax, Secure in production; SameSite=None; Secure in cross-origin mode. */
export function cookieMode(config: Config): CookieMode {
  if (config.features.cors) return { secure: true, sameSite: "None" };
  return { secure: config.NODE_ENV === "production", sameSite: "Lax" };
}

/** `__Host-` pins a Secure cookie to this exact host and path (no Domain attribute can widen it). */
export function sessionCookieName(config: Config): string {
  return cookieMode(config).secure ? `__Host-${COOKIE_BASE}` : COOKIE_BASE;
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

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { config } = c.var.deps;
  const mode = cookieMode(config);
  deleteCookie(c, sessionCookieName(config), { path: "/", secure: mode.secure, sameSite: mode.sameSite, httpOnly: true });
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

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Mutating routes that need no anti-CSRF token: they either start a session or carry their own proof. */
export const CSRF_EXEMPT_PATHS = new Set([
  "/api/auth/register",
  "/api/auth/login",
  "/api/auth/password-reset/request",
  "/api/auth/password-reset/confirm",
  "/api/auth/verify-email",
  "/api/billing/webhook",
]);

/**
 * Reads the session cookie (if any) into `c.var.user` / `c.var.session`. A tampered, expired or ended
 * cookie simply means no session. In cross-origin mode a mutating request that carries a session must
 * also carry its anti-CSRF token.
 */
export const sessionMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { deps } = c.var;
  const token = await getSignedCookie(c, deps.config.SESSION_SECRET, sessionCookieName(deps.config));
  if (token) {
    const found = await validateSession(deps, token);
    if (found) {
      c.set("user", found.user);
      c.set("session", found.session);
    }
  }
  const session = c.var.session;
  if (deps.config.features.cors && session && MUTATING.has(c.req.method) && !CSRF_EXEMPT_PATHS.has(c.req.path)) {
    if (!csrfMatches(deps.config, session.id, c.req.header("X-CSRF-Token"))) {
      throw new AppError("CSRF_FAILED", "Missing or invalid X-CSRF-Token header.");
    }
  }
  await next();
};

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) throw new AppError("UNAUTHORIZED", "Sign in to continue.");
  await next();
};

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) throw new AppError("UNAUTHORIZED", "Sign in to continue.");
  if (!c.var.user.isAdmin) throw new AppError("FORBIDDEN", "Administrators only.");
  await next();
};

/** The signed-in user; only valid behind requireUser. */
export function currentUser(c: Context<AppEnv>) {
  const user = c.var.user;
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in to continue.");
  return user;
}

export function currentSession(c: Context<AppEnv>): SessionInfo {
  const session = c.var.session;
  if (!session) throw new AppError("UNAUTHORIZED", "Sign in to continue.");
  return session;
}

/**
 * Per-client (`by: "client"`, the client address) or per-user (`by: "user"`) limit. Over the limit:
 * 429 RATE_LIMITED with Retry-After in seconds.
 */
export function rateLimit(rule: LimitRule, by: "client" | "user"): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const identifier = by === "user" ? `user:${currentUser(c).id}` : `ip:${c.var.clientIp}`;
    const result = await c.var.deps.rateLimiter.check(rule, identifier);
    if (!result.success) {
      throw new AppError("RATE_LIMITED", "Too many requests. Try again later.", {
        headers: { "Retry-After": String(Math.max(1, Math.ceil(result.retryAfterSeconds))) },
      });
    }
    await next();
  };
}

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
