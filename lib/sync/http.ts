// One way to call a broker's API (lib/sync/adapters): no redirect followed (an answer never decides where a
// credential goes next), a minute at most per request, and a throttled (429) or failing (5xx) answer or a
// dropped connection asked again with backoff (BROKER_RETRY_MS, doubling; the provider's Retry-After wins, up
// to a minute), then a SyncError "retry" with the provider's name: the next run tries again.
import { SyncError } from "./errors.ts";
import type { SyncContext } from "./adapter.ts";

/** Tries after the first, for a 429, a 5xx or a network failure. */
export const MAX_RETRIES = 4;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMs(res: Response): number | null {
  const value = res.headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 60_000) : null;
}

/**
 * The provider's answer to a request made by `build` (called again for each try: a signed request is signed
 * anew, with a new nonce or token). Statuses other than 429 and 5xx are the caller's to read.
 */
export async function brokerFetch(ctx: SyncContext, name: string, build: () => Promise<{ url: string; init: RequestInit }> | { url: string; init: RequestInit }): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const { url, init } = await build();
    let res: Response | null = null;
    try {
      res = await ctx.fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(60_000) });
    } catch {
      res = null;
    }
    const again = res === null || res.status === 429 || res.status >= 500;
    if (!again) return res!;
    if (res) await res.body?.cancel();
    if (attempt >= MAX_RETRIES) {
      const why = res === null ? "could not be reached" : res.status === 429 ? "is limiting requests (HTTP 429)" : `answered HTTP ${res.status}`;
      throw new SyncError(res ? String(res.status) : null, "retry", `${name} ${why}; the next run tries again.`);
    }
    await wait((res && retryAfterMs(res)) ?? ctx.config.BROKER_RETRY_MS * 2 ** attempt);
  }
}

/** The JSON body of an answer, or a SyncError "retry" naming the provider when it is not JSON (a truncated answer). */
export async function jsonOf<T>(res: Response, name: string): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new SyncError(null, "retry", `${name} sent an answer that could not be read (not complete JSON); the next run tries again.`);
  }
}
