// Backend product analytics (ANALYTICS_API_KEY; off and silent without it). One small client for Node and
// Workers over the provider's documented batch capture API (`POST {host}/batch/` with
// `{api_key, batch: [{event, distinct_id, properties, timestamp, uuid}]}`), rather than its Node library,
// which Workers cannot bundle within their budget. docs/analytics.md lists every event and property.
//
// What leaves the process: the event name, an opaque user surrogate (a keyed hash of the user id, never
// the id or email), and properties declared in AnalyticsEvents, each passed through the redaction guard
// (redact.ts). Sending never delays a response: capture() only queues; a flush is scheduled after the
// response (a Worker's waitUntil) or on a short timer (Node), in batches.
import type { Config } from "../config/index.ts";
import type { Logger } from "../log.ts";
import { redactProperties } from "./redact.ts";

/** Every backend event and its properties. Nothing else can be captured. */
export type AnalyticsEvents = {
  "user signed up": { verified: boolean };
  "user signed in": Record<string, never>;
  "account created": { currency: string; hasBrokerage: boolean };
  "import previewed": { format: string; rows: number; fills: number; duplicates: number; errors: number };
  "import committed": { fills: number };
  "import undone": { fills: number };
  "provider key saved": { provider: string; verified: boolean };
  "advisor turn": { provider: string; model: string; status: string; inputTokens: number; outputTokens: number; credits: number | null; toolCalls: number };
  "checkout started": { kind: "credits" | "pro"; pack: string | null; credits: number | null };
  "credits purchased": { pack: string | null; credits: number };
  "plan changed": { plan: string };
  "tier limit hit": { limit: string };
};
export type AnalyticsEvent = keyof AnalyticsEvents;

export type Analytics = {
  /** Queues one event for `userId` (null: not tied to a user). Never throws, never waits. */
  capture<E extends AnalyticsEvent>(event: E, userId: string | null, properties: AnalyticsEvents[E]): void;
  /** Sends what is queued; resolves when sent or given up (errors are logged, not thrown). */
  flush(): Promise<void>;
  /** Stops the timer and sends what is queued within `timeoutMs` at most (3 s on SIGTERM). */
  close(timeoutMs?: number): Promise<void>;
};

/** The provider's default ingestion host when ANALYTICS_HOST is unset or empty. */
export const DEFAULT_ANALYTICS_HOST = "https://us.i.posthog.com";
/** Events sent per request at most; a fuller queue is sent in several. */
const BATCH = 100;
/** Events kept while the host is unreachable; older ones are dropped first. */
const MAX_QUEUE = 1000;
/** Budget of one batch request. */
const SEND_TIMEOUT_MS = 10_000;
/** The flush bound on SIGTERM (SPEC.md: ANALYTICS_API_KEY). */
export const CLOSE_TIMEOUT_MS = 3_000;

type Queued = { event: string; userId: string | null; properties: Record<string, unknown>; timestamp: string; uuid: string };

export type AnalyticsOptions = {
  fetch: typeof fetch;
  log: Logger;
  now: () => Date;
  /**
   * Runs a flush later: a Worker passes deps.defer (sent after the response through waitUntil); Node
   * leaves it unset and gets a one-second timer that never keeps the process alive.
   */
  schedule?: (flush: () => Promise<void>) => void;
};

/** The configured secret values, removed from any property that would contain one. */
function configuredSecrets(config: Config): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(config)) {
    if (typeof value === "string" && value.length >= 8 && /KEY|SECRET|PASS|TOKEN/.test(name) && !/PUBLIC|PUBLISHABLE|FINGERPRINT/.test(name)) {
      values.push(value);
    }
  }
  return values;
}

/** The surrogate of a user: HMAC-SHA256 of the id under a key derived from SESSION_SECRET, base64url. */
async function surrogateKey(secret: string): Promise<CryptoKey> {
  const material = new TextEncoder().encode(`analytics-surrogate:${secret}`);
  const digest = await crypto.subtle.digest("SHA-256", material);
  return crypto.subtle.importKey("raw", digest, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

export async function userSurrogate(key: CryptoKey, userId: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(userId)));
  let binary = "";
  for (const b of mac.subarray(0, 18)) binary += String.fromCharCode(b);
  return `u_${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_")}`;
}

/** The client, or undefined when ANALYTICS_API_KEY is unset (then nothing is queued or sent). */
export function createAnalytics(config: Config, options: AnalyticsOptions): Analytics | undefined {
  const apiKey = config.ANALYTICS_API_KEY;
  if (!apiKey) return undefined;
  const host = (config.ANALYTICS_HOST || DEFAULT_ANALYTICS_HOST).replace(/\/+$/, "");
  const environment = config.ANALYTICS_ENVIRONMENT ?? null;
  const secrets = configuredSecrets(config);
  const { log } = options;
  let key: Promise<CryptoKey> | undefined;
  let queue: Queued[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scheduled = false;
  let inFlight: Promise<void> = Promise.resolve();
  let dropped = 0;

  const send = async (items: Queued[], signal: AbortSignal): Promise<void> => {
    key ??= surrogateKey(config.SESSION_SECRET);
    const k = await key;
    const batch = await Promise.all(
      items.map(async (item) => ({
        event: item.event,
        distinct_id: item.userId ? await userSurrogate(k, item.userId) : "server",
        timestamp: item.timestamp,
        uuid: item.uuid,
        properties: {
          ...item.properties,
          environment,
          $lib: "trading-journal-server",
          // No person profiles, no IP-based location: the surrogate is all the provider learns of anyone.
          $process_person_profile: false,
          $geoip_disable: true,
        },
      })),
    );
    const res = await options.fetch(`${host}/batch/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ api_key: apiKey, batch }),
      signal,
    });
    await res.body?.cancel().catch(() => {});
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  };

  const drain = async (signal: AbortSignal): Promise<void> => {
    while (queue.length && !signal.aborted) {
      const items = queue.slice(0, BATCH);
      queue = queue.slice(items.length);
      try {
        await send(items, signal);
      } catch (err) {
        // The events are dropped rather than retried: analytics must never build up behind an outage.
        log.warn("analytics batch not sent", { events: items.length, error: err instanceof Error ? err.name === "Error" ? err.message : err.name : "unknown" });
      }
    }
  };

  const flushWithin = (ms: number): Promise<void> => {
    scheduled = false;
    const signal = AbortSignal.timeout(ms);
    inFlight = inFlight.then(() => drain(signal));
    const bound = new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms + 50);
      (t as { unref?: () => void }).unref?.();
    });
    return Promise.race([inFlight, bound]);
  };
  const flush = () => flushWithin(SEND_TIMEOUT_MS);

  return {
    capture(event, userId, properties) {
      try {
        queue.push({
          event,
          userId,
          properties: redactProperties(properties as Record<string, unknown>, secrets),
          timestamp: options.now().toISOString(),
          uuid: crypto.randomUUID(),
        });
        if (queue.length > MAX_QUEUE) {
          queue.shift();
          if (dropped++ === 0) log.warn("analytics queue full; dropping the oldest events");
        }
        if (scheduled) return;
        scheduled = true;
        if (options.schedule) options.schedule(flush);
        else {
          timer = setTimeout(() => void flush(), 1_000);
          (timer as { unref?: () => void }).unref?.();
        }
      } catch (err) {
        log.warn("analytics event not queued", { error: err instanceof Error ? err.name : "unknown" });
      }
    },
    flush,
    close(timeoutMs = CLOSE_TIMEOUT_MS) {
      if (timer) clearTimeout(timer);
      return flushWithin(timeoutMs);
    },
  };
}

/** Captures through `deps.analytics` when analytics is on; a no-op otherwise. */
export function track<E extends AnalyticsEvent>(
  deps: { analytics?: Analytics | undefined },
  event: E,
  userId: string | null,
  properties: AnalyticsEvents[E],
): void {
  deps.analytics?.capture(event, userId, properties);
}
