// Process-local fixed-window counters: the whole limiter when SHARED_STORE_URL is unset, and the stricter
// fallback while the shared store is unavailable. Windows are aligned to the epoch exactly like the shared
// store's (`floor(now / window)`), so both answer the same Retry-After for the same instant.

export type WindowHit = { success: boolean; remaining: number; resetAtMs: number };

type Entry = { bucket: number; count: number; resetAtMs: number };

/** Above this many live keys the oldest are dropped (a flood of distinct clients must not grow memory). */
const MAX_ENTRIES = 100_000;
const SWEEP_EVERY_MS = 60_000;

export type MemoryWindows = { hit(key: string, limit: number, windowMs: number, nowMs: number): WindowHit; size(): number };

export function createMemoryWindows(maxEntries = MAX_ENTRIES): MemoryWindows {
  const entries = new Map<string, Entry>();
  let nextSweepAt = 0;

  const sweepExpired = (nowMs: number) => {
    for (const [key, e] of entries) if (e.resetAtMs <= nowMs) entries.delete(key);
    nextSweepAt = nowMs + SWEEP_EVERY_MS;
  };

  return {
    hit(key, limit, windowMs, nowMs) {
      if (nowMs >= nextSweepAt) sweepExpired(nowMs);
      const bucket = Math.floor(nowMs / windowMs);
      let e = entries.get(key);
      if (!e || e.bucket !== bucket) {
        entries.delete(key);
        // Full: drop the oldest key (Map order is insertion order; a key is re-inserted on each new window).
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        e = { bucket, count: 0, resetAtMs: (bucket + 1) * windowMs };
        entries.set(key, e);
      }
      // Refused requests are not counted: the window is fixed, so they could not push the reset further.
      if (e.count >= limit) return { success: false, remaining: 0, resetAtMs: e.resetAtMs };
      e.count += 1;
      return { success: true, remaining: limit - e.count, resetAtMs: e.resetAtMs };
    },
    size: () => entries.size,
  };
}
