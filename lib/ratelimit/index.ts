// Rate limits (SPEC.md section 8), framework-free. With SHARED_STORE_URL set, counts live in the shared
// store through @upstash/ratelimit, so every API container sees the same count; unset, they are counted
// in this process.
//
// Algorithm: fixed windows aligned to the epoch (`floor(now / window)`, @upstash/ratelimit's fixedWindow).
// "5 requests per 15 minutes" is read literally, Retry-After is exact (the next window starts empty), and
// every container agrees on the window boundaries. The cost is the usual fixed-window burst: up to twice
// the limit across one boundary. The sliding window was not chosen because its reset time is not when a
// retry can succeed (the previous window's weight still counts then).
//
// Never fails open. The library's own timeout answers "success" when the store is slow, so it is off
// (`timeout: 0`) and the call is raced against our own timeout instead. A timeout, an error or an answer
// that does not look like one all end the same way: the rule's stricter `fallbackLimit`, counted in this
// process, with `degraded: true`.
//
// SHARED_STORE_URL forms:
// - `https://default:TOKEN@host` (also `http://`, which only tests should use): the Upstash REST API.
//   The token travels as the URL password (percent-encode anything outside A-Z a-z 0-9 - . _ ~); the user
//   name is ignored. The token is taken out of the URL before the client sees it and is sent only as
//   `Authorization: Bearer TOKEN`. This client runs on Node and on Workers.
// - `redis://[user:password@]host:port[/db]` or `rediss://...` (TLS): any Redis through ioredis, Node only.
import type { Logger } from "../log.ts";
import { createMemoryWindows } from "./memory.ts";
import type { createRedisTcpStore, EvalClient } from "./redis-tcp.ts";

export type LimitRule = {
  name: string;
  limit: number;
  windowSeconds: number;
  /** stricter limit while the shared store is unavailable */
  fallbackLimit: number;
};

export type LimitResult = {
  success: boolean;
  limit: number;
  remaining: number;
  /** seconds until a retry can succeed (>= 1 when !success) */
  retryAfterSeconds: number;
  /** true when the answer came from the local fallback because the shared store failed */
  degraded: boolean;
};

export type RateLimiter = {
  check(rule: LimitRule, identifier: string): Promise<LimitResult>;
  close(): Promise<void>;
};

export type RateLimiterOptions = {
  /** SHARED_STORE_URL; unset means process-local counting with the normal limits. */
  sharedStoreUrl?: string | undefined;
  log: Logger;
  /** How long the shared store may take before the local fallback answers. Default 1000. */
  timeoutMs?: number;
  /** Prefix of every key in the shared store. Default "rl". */
  keyPrefix?: string;
  /** Clock of the process-local windows (the shared store's windows follow the library's Date.now()). */
  now?: () => number;
  /**
   * How this runtime reaches a redis:// or rediss:// store: the Node entrypoint passes lib/ratelimit/redis-tcp.ts
   * (ioredis). A Worker has none, so such a URL answers from the local fallback there, saying why once.
   */
  redisTcp?: typeof createRedisTcpStore;
};

export const LIMITS = {
  register: { name: "register", limit: 5, windowSeconds: 900, fallbackLimit: 3 },
  login: { name: "login", limit: 10, windowSeconds: 900, fallbackLimit: 5 },
  /** The sign-in steps after the password (a code, a passkey's second step) and passkey sign-ins: login's numbers, their own count. */
  signInStep: { name: "signInStep", limit: 10, windowSeconds: 900, fallbackLimit: 5 },
  providerKeySave: { name: "providerKeySave", limit: 10, windowSeconds: 3600, fallbackLimit: 5 },
  marketDataKeySave: { name: "marketDataKeySave", limit: 10, windowSeconds: 3600, fallbackLimit: 5 },
  barsKeySave: { name: "barsKeySave", limit: 10, windowSeconds: 3600, fallbackLimit: 5 },
  checkout: { name: "checkout", limit: 10, windowSeconds: 60, fallbackLimit: 5 },
  advisorTurn: { name: "advisorTurn", limit: 30, windowSeconds: 60, fallbackLimit: 15 },
  quote: { name: "quote", limit: 30, windowSeconds: 60, fallbackLimit: 15 },
  emailResend: { name: "emailResend", limit: 3, windowSeconds: 3600, fallbackLimit: 2 },
  passwordResetRequest: { name: "passwordResetRequest", limit: 5, windowSeconds: 3600, fallbackLimit: 3 },
  /** Archive imports (POST /api/archive): each may keep up to ARCHIVE_IMPORT_MAX_BYTES of scratch while it is read. */
  archiveImport: { name: "archiveImport", limit: 10, windowSeconds: 3600, fallbackLimit: 5 },
  /** A public link's page and its images (no session): per reader's address, ample for reading, not for scraping. */
  publicShare: { name: "publicShare", limit: 120, windowSeconds: 60, fallbackLimit: 60 },
  /** The digest's one-click unsubscribe (no session): per address, ample for a mail client, not for guessing. */
  digestUnsubscribe: { name: "digestUnsubscribe", limit: 30, windowSeconds: 60, fallbackLimit: 15 },
  /** The digest's preview: each reads the whole week's statistics (and may ask the trader's model). */
  digestPreview: { name: "digestPreview", limit: 10, windowSeconds: 60, fallbackLimit: 5 },
  /** The printable report as a PDF: each starts a Chromium on the server. */
  reportPdf: { name: "reportPdf", limit: 6, windowSeconds: 60, fallbackLimit: 3 },
  /** Routes that check the current password again (change it, delete the account): guesses from one stolen session. */
  passwordCheckSession: { name: "passwordCheckSession", limit: 5, windowSeconds: 900, fallbackLimit: 3 },
  /** The same, across all of a user's sessions. */
  passwordCheckUser: { name: "passwordCheckUser", limit: 10, windowSeconds: 900, fallbackLimit: 5 },
} satisfies Record<string, LimitRule>;

/** At most one "store unavailable" warning per rule in this interval. */
const WARN_EVERY_MS = 10_000;

type Store = { client: Promise<EvalClient> };
type UpstashLimit = (identifier: string) => Promise<{ success: boolean; limit: number; remaining: number; reset: number }>;

class StoreTimeout extends Error {
  override name = "StoreTimeout";
}

/** `https://user:TOKEN@host[/path]` -> the base URL without credentials (or query), and the token. */
export function splitRestUrl(raw: string): { url: string; token: string } {
  const u = new URL(raw);
  const token = decodeURIComponent(u.password);
  u.username = "";
  u.password = "";
  u.search = "";
  u.hash = "";
  return { url: u.toString().replace(/\/$/, ""), token };
}

function openStore(url: string, log: Logger, timeoutMs: number, redisTcp: RateLimiterOptions["redisTcp"]): Store {
  const scheme = url.slice(0, url.indexOf(":")).toLowerCase();
  let client: Promise<EvalClient>;
  if (scheme === "https" || scheme === "http") {
    client = (async () => {
      const { url: baseUrl, token } = splitRestUrl(url);
      if (!token) throw new Error("SHARED_STORE_URL has no token (expected https://default:TOKEN@host)");
      // The portable build: fetch only, no process.env, so the same client runs on Workers.
      const { Redis } = await import("@upstash/redis/cloudflare");
      const redis = new Redis({
        url: baseUrl,
        token,
        // Its default retries (5, with backoff) would outlast our timeout; one attempt, aborted when we give up.
        retry: false,
        // A plain AbortSignal makes it answer the string "Aborted" as a result; a function makes it throw.
        signal: () => AbortSignal.timeout(timeoutMs),
        enableAutoPipelining: false,
        enableTelemetry: false,
      });
      return {
        evalsha: (hash, keys, args) => redis.evalsha(hash, keys, args),
        eval: (script, keys, args) => redis.eval(script, keys, args),
        close: async () => {},
      } satisfies EvalClient;
    })();
  } else if (scheme === "redis" || scheme === "rediss") {
    client = (async () => {
      if (!redisTcp) throw Object.assign(new Error(`SHARED_STORE_URL ${scheme}:// needs the Node entrypoint; a Worker reaches the store over https://`), { code: "REDIS_TCP_NODE_ONLY" });
      return redisTcp(url, {
        log,
        connectTimeoutMs: Math.max(timeoutMs, 1000),
        commandTimeoutMs: Math.max(timeoutMs, 1000),
      });
    })();
  } else {
    client = Promise.reject(new Error(`SHARED_STORE_URL scheme ${scheme} is not supported`));
  }
  // Every check then answers degraded; say why once (e.g. redis:// on a Worker: REDIS_TCP_NODE_ONLY).
  client.catch((err: { name?: string; code?: string }) =>
    log.error("rate limit store client could not be created", { scheme, error: err?.code ?? err?.name }),
  );
  return { client };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A late failure after we gave up must not become an unhandled rejection.
  promise.catch(() => {});
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function assertRule(rule: LimitRule): void {
  const positive = (n: number) => Number.isInteger(n) && n > 0;
  if (!positive(rule.limit) || !positive(rule.windowSeconds) || !positive(rule.fallbackLimit)) {
    throw new Error(`rate limit rule ${rule.name} needs positive whole numbers`);
  }
}

const secondsUntil = (resetAtMs: number, nowMs: number) => Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const log = options.log;
  const timeoutMs = options.timeoutMs ?? 1000;
  const keyPrefix = options.keyPrefix ?? "rl";
  const now = options.now ?? Date.now;
  const local = createMemoryWindows();
  const store = options.sharedStoreUrl ? openStore(options.sharedStoreUrl, log, timeoutMs, options.redisTcp) : undefined;

  // After a timeout (a store that hangs rather than refuses), skip it for a short while so each request
  // does not wait out the timeout again; errors that come back at once need no such pause.
  const coolDownMs = Math.min(30_000, Math.max(1000, 5 * timeoutMs));
  let skipStoreUntil = 0;
  let degradedNow = false;

  const lastWarn = new Map<string, { at: number; suppressed: number }>();
  const warnDegraded = (rule: LimitRule, reason: string, err?: unknown) => {
    const t = now();
    const w = lastWarn.get(rule.name);
    if (w && t - w.at < WARN_EVERY_MS) {
      w.suppressed += 1;
      return;
    }
    lastWarn.set(rule.name, { at: t, suppressed: 0 });
    // Only the rule name and the kind of failure: identifiers are addresses and user ids, and store error
    // messages can quote the command (keys included).
    const e = err as { name?: string; code?: string } | undefined;
    log.warn("rate limit store unavailable; stricter local limit applies", {
      rule: rule.name,
      reason,
      ...(e?.code || e?.name ? { error: e.code ?? e.name } : {}),
      ...(w && w.suppressed > 0 ? { suppressed: w.suppressed } : {}),
    });
  };

  const limiters = new Map<string, Promise<UpstashLimit>>();
  const sharedLimit = (rule: LimitRule, client: EvalClient): Promise<UpstashLimit> => {
    const id = `${rule.name}|${rule.limit}|${rule.windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = import("@upstash/ratelimit").then(({ Ratelimit }) => {
        const rl = new Ratelimit({
          // Only evalsha/eval are called for the fixed window (see redis-tcp.ts).
          redis: client as unknown as ConstructorParameters<typeof Ratelimit>[0]["redis"],
          limiter: Ratelimit.fixedWindow(rule.limit, `${rule.windowSeconds} s`),
          prefix: `${keyPrefix}:${rule.name}`,
          timeout: 0,
          ephemeralCache: false,
          analytics: false,
          enableTelemetry: false,
        });
        return (identifier: string) => rl.limit(identifier);
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  const fromLocal = (rule: LimitRule, identifier: string, limit: number, degraded: boolean): LimitResult => {
    const t = now();
    const hit = local.hit(`${rule.name}:${identifier}`, limit, rule.windowSeconds * 1000, t);
    return {
      success: hit.success,
      limit,
      remaining: hit.remaining,
      retryAfterSeconds: hit.success ? 0 : secondsUntil(hit.resetAtMs, t),
      degraded,
    };
  };

  const fromStore = async (s: Store, rule: LimitRule, identifier: string): Promise<LimitResult> => {
    const res = await withTimeout(
      (async () => {
        const limit = await sharedLimit(rule, await s.client);
        return limit(identifier);
      })(),
      timeoutMs,
    );
    // Anything but a well-formed answer for this rule counts as a failure (a proxy answering garbage
    // must not turn into "success").
    if (
      typeof res.success !== "boolean" ||
      res.limit !== rule.limit ||
      !Number.isFinite(res.remaining) ||
      !Number.isFinite(res.reset)
    ) {
      throw new Error("malformed answer from the rate limit store");
    }
    return {
      success: res.success,
      limit: rule.limit,
      remaining: res.remaining,
      retryAfterSeconds: res.success ? 0 : secondsUntil(res.reset, Date.now()),
      degraded: false,
    };
  };

  return {
    async check(rule, identifier) {
      assertRule(rule);
      if (!store) return fromLocal(rule, identifier, rule.limit, false);
      if (Date.now() < skipStoreUntil) {
        warnDegraded(rule, "cooling down");
        return fromLocal(rule, identifier, rule.fallbackLimit, true);
      }
      try {
        const result = await fromStore(store, rule, identifier);
        if (degradedNow) {
          degradedNow = false;
          log.info("rate limit store answering again");
        }
        return result;
      } catch (err) {
        const timedOut = err instanceof StoreTimeout;
        if (timedOut) skipStoreUntil = Date.now() + coolDownMs;
        degradedNow = true;
        warnDegraded(rule, timedOut ? "timeout" : "error", timedOut ? undefined : err);
        return fromLocal(rule, identifier, rule.fallbackLimit, true);
      }
    },
    async close() {
      if (!store) return;
      const client = await store.client.catch(() => undefined);
      await client?.close();
    },
  };
}
