// The bar provider (docs/charts.md, "The bar provider"): Polygon.io (Massive since 2025), on the trader's own
// key. One request per symbol and day of 1-minute bars, or per symbol and month of daily bars:
// `GET {BARS_BASE_URL}/v2/aggs/ticker/{symbol}/range/1/{minute|day}/{from}/{to}?adjusted=false&sort=asc&limit=50000`
// with `Authorization: Bearer <key>` (the key never goes in a URL, so no log line can carry it).
// Prices are as traded (adjusted=false), to meet the fills. Whatever the provider does, this answers within
// BAR_FETCH_TIMEOUT_MS with one of four outcomes; nothing here throws for the provider's sake.
import type { Config } from "../config/index.ts";
import { baseUrlOf, BARS } from "../providers/providers.ts";
import { toUnits } from "../money.ts";
import type { Bar, BarResolution } from "./bars.ts";

export const BAR_FETCH_TIMEOUT_MS = 10_000;
/** When the provider says neither how long to wait (429 without Retry-After) nor why it failed. */
const DEFAULT_RETRY_MS = 60_000;

export type BarFetch =
  /** The day's bars (none on a day without trading). */
  | { kind: "ok"; bars: Bar[] }
  /** Try again later: rate-limited, a 5xx, a timeout, a broken answer. */
  | { kind: "retry"; afterMs: number; reason: string; rateLimited?: true }
  /** The key is not (or no longer) accepted. */
  | { kind: "refused"; status: number }
  /** This day cannot be had on this key (outside the plan's history, a ticker the provider does not know). */
  | { kind: "unavailable"; reason: string };

/** A number from the provider as a decimal string (10 decimals at most, never an exponent). */
function decimalOf(n: unknown): string | null {
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) return null;
  const plain = String(n);
  return /e/i.test(plain) ? n.toFixed(10).replace(/\.?0+$/, "") : plain.includes(".") && plain.split(".")[1]!.length > 10 ? n.toFixed(10) : plain;
}

/** The last day of the month of `monthStart` (YYYY-MM-01). */
function monthEnd(monthStart: string): string {
  const [y, m] = monthStart.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** One aggregate of the answer as a bar; its high and low are held to cover the open and close (a provider's rounding). */
function toBar(a: Record<string, unknown>): Bar | null {
  const t = a.t;
  const [o, h, l, c, v] = [a.o, a.h, a.l, a.c, a.v ?? 0].map(decimalOf);
  if (typeof t !== "number" || !o || !h || !l || !c || v === null) return null;
  const prices = [o, h, l, c];
  const byValue = (pick: (a: bigint, b: bigint) => boolean) => prices.reduce((best, x) => (pick(toUnits(x), toUnits(best)) ? x : best));
  return { t: new Date(t).toISOString(), open: o, high: byValue((a, b) => a > b), low: byValue((a, b) => a < b), close: c, volume: v ?? "0" };
}

/** Fetches one day (1m) or one month (1d: `day` is the month's first day) of a symbol's bars. */
export async function fetchBarDay(fetcher: typeof fetch, config: Config, apiKey: string, symbol: string, resolution: BarResolution, day: string, timeoutMs = BAR_FETCH_TIMEOUT_MS): Promise<BarFetch> {
  const span = resolution === "1m" ? `minute/${day}/${day}` : `day/${day}/${monthEnd(day)}`;
  const url = `${baseUrlOf(config, BARS)}/v2/aggs/ticker/${encodeURIComponent(symbol)}/range/1/${span}?adjusted=false&sort=asc&limit=50000`;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<BarFetch>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      setTimeout(() => resolve({ kind: "retry", afterMs: DEFAULT_RETRY_MS, reason: "timed out" }), 200);
    }, timeoutMs);
  });
  const call = async (): Promise<BarFetch> => {
    let res: Response;
    try {
      res = await fetcher(url, { headers: { Authorization: `Bearer ${apiKey}`, Accept: "application/json" }, signal: controller.signal, redirect: "manual" });
    } catch (err) {
      return { kind: "retry", afterMs: DEFAULT_RETRY_MS, reason: controller.signal.aborted ? "timed out" : err instanceof Error ? err.name : "network error" };
    }
    const text = await res.text().catch(() => null);
    if (res.status === 401) return { kind: "refused", status: 401 };
    if (res.status === 429) {
      const seconds = Number(res.headers.get("Retry-After"));
      return { kind: "retry", afterMs: Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) * 1000 : DEFAULT_RETRY_MS, reason: "rate limited (429)", rateLimited: true };
    }
    // 403: the plan does not cover this data (Polygon's NOT_AUTHORIZED, e.g. beyond its history); 404: no such ticker.
    if (res.status === 403 || res.status === 404) return { kind: "unavailable", reason: res.status === 403 ? "not in the key's plan" : "unknown to the provider" };
    if (res.status < 200 || res.status > 299) return { kind: "retry", afterMs: DEFAULT_RETRY_MS, reason: `status ${res.status}` };
    let body: { results?: unknown } | null = null;
    try {
      body = text ? (JSON.parse(text) as { results?: unknown }) : null;
    } catch {
      body = null;
    }
    if (!body || typeof body !== "object") return { kind: "retry", afterMs: DEFAULT_RETRY_MS, reason: "malformed answer" };
    const results = Array.isArray(body.results) ? body.results : [];
    const bars = results.flatMap((r) => {
      const bar = r && typeof r === "object" ? toBar(r as Record<string, unknown>) : null;
      return bar ? [bar] : [];
    });
    return { kind: "ok", bars };
  };
  try {
    return await Promise.race([call(), late]);
  } finally {
    clearTimeout(timer);
  }
}
