/**
 * Runs a burst of requests against a fixed-window rate limit, and once more when a window boundary passed
 * during it. Windows are aligned to the epoch (lib/ratelimit/memory.ts, like the shared store's), so a burst
 * that straddles a boundary starts counting again halfway and is rightly not refused; the second burst,
 * a second later, cannot straddle one too. `burst` must start from fresh counts (a new client address, app
 * or server).
 */
export async function inOneWindow<T>(windowSeconds: number, burst: () => Promise<T>): Promise<T> {
  const windowOf = () => Math.floor(Date.now() / (windowSeconds * 1000));
  const started = windowOf();
  const result = await burst();
  return windowOf() === started ? result : burst();
}
