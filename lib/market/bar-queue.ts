// The bar fetch queue (docs/charts.md, "The bar provider"): the days a chart needs are queued in bar_days,
// and each is fetched from the provider once, by whoever claims it first (the trade page, for the first
// few, or the fetch-bars job, which drains the rest every minute). The provider's free tier allows
// BARS_REQUESTS_PER_MINUTE requests a minute per key (5 on the free tier): every request first takes a slot from the shared rate limiter.
// A 429, a 5xx or a timeout puts the day back with a later next_attempt_at; after MAX_ATTEMPTS it is
// `failed`, as is a day the key's plan does not cover. A refused key marks the key unverified and fails
// the user's queued days until a working key is saved.
import { sql } from "drizzle-orm";
import { BARS } from "../providers/providers.ts";
import { markDataKeyRefused, providerKeyOf } from "../keys/keys.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import type { LimitRule } from "../ratelimit/index.ts";
import { BAR_FETCH_TIMEOUT_MS, fetchBarDay, type BarFetch } from "./bar-provider.ts";
import { storeBars, type BarResolution } from "./bars.ts";

/** Requests a minute per key: BARS_REQUESTS_PER_MINUTE (Polygon's free tier allows 5). */
const fetchLimit = (perMinute: number): LimitRule => ({ name: "barsFetch", limit: perMinute, windowSeconds: 60, fallbackLimit: perMinute });
/** Tries of one day before it is given up. */
export const MAX_ATTEMPTS = 6;
/** A `fetching` claim older than this was left by a process that died: the day is claimable again. */
const STALE_CLAIM = "2 minutes";
/** Days the fetch-bars job fetches per run, all users together. */
export const BARS_PER_RUN = 100;

export type DayRow = { user_id: string; symbol: string; resolution: BarResolution; day: string; status: string; attempts: number; detail: string | null };

/**
 * Queues the days not there yet (and those that failed more than an hour ago, for another try); returns the
 * state of every asked day.
 */
export async function queueBarDays(deps: Pick<Deps, "db">, userId: string, symbol: string, resolution: BarResolution, days: readonly string[]): Promise<DayRow[]> {
  if (!days.length) return [];
  const list = `{${days.join(",")}}`;
  await deps.db.execute(sql`insert into bar_days (user_id, symbol, resolution, day, status)
    select ${userId}::uuid, ${symbol}, ${resolution}, d, 'queued' from unnest(${list}::text[]) as d
    on conflict (user_id, symbol, resolution, day) do update set status = 'queued', attempts = 0, next_attempt_at = now(), detail = null, updated_at = now()
      where bar_days.status = 'failed' and bar_days.updated_at < now() - interval '1 hour'`);
  return rowsOf<DayRow>(
    await deps.db.execute(sql`select user_id::text, symbol, resolution, day, status, attempts, detail from bar_days
      where user_id = ${userId}::uuid and symbol = ${symbol} and resolution = ${resolution} and day = any(${list}::text[]) order by day`),
  );
}

/** Claims up to `limit` due days (of one user's symbol and days when given): one claimant per day, whatever races. */
async function claim(deps: Pick<Deps, "db">, limit: number, only?: { userId: string; symbol: string; resolution: BarResolution; days: readonly string[] }): Promise<DayRow[]> {
  const scope = only
    ? sql`and user_id = ${only.userId}::uuid and symbol = ${only.symbol} and resolution = ${only.resolution} and day = any(${`{${only.days.join(",")}}`}::text[])`
    : sql``;
  return rowsOf<DayRow>(
    await deps.db.execute(sql`update bar_days b set status = 'fetching', attempts = b.attempts + 1, updated_at = now()
      from (select user_id, symbol, resolution, day from bar_days
        where ((status = 'queued' and next_attempt_at <= now()) or (status = 'fetching' and updated_at < now() - ${STALE_CLAIM}::interval)) ${scope}
        order by next_attempt_at, day desc limit ${limit} for update skip locked) due
      where (b.user_id, b.symbol, b.resolution, b.day) = (due.user_id, due.symbol, due.resolution, due.day)
      returning b.user_id::text, b.symbol, b.resolution, b.day, b.status, b.attempts, b.detail`),
  );
}

/** Puts a claimed day back (or gives it up); `detail` null keeps the one it had; `notATry` does not count the claim. */
async function settle(deps: Pick<Deps, "db">, row: DayRow, status: "queued" | "failed", detail: string | null, afterMs = 0, notATry = false) {
  await deps.db.execute(sql`update bar_days set status = ${status}, detail = coalesce(${detail}, detail), updated_at = now(),
      attempts = attempts - ${notATry ? 1 : 0}, next_attempt_at = now() + ${`${Math.ceil(afterMs / 1000)} seconds`}::interval
    where user_id = ${row.user_id}::uuid and symbol = ${row.symbol} and resolution = ${row.resolution} and day = ${row.day}`);
}

/** Fetches one claimed day on the user's key and records what came of it. */
async function fetchClaimed(deps: Pick<Deps, "db" | "config" | "fetch" | "rateLimiter" | "log">, row: DayRow, apiKey: string, timeoutMs: number): Promise<BarFetch["kind"] | "throttled"> {
  const slot = await deps.rateLimiter.check(fetchLimit(deps.config.BARS_REQUESTS_PER_MINUTE), row.user_id);
  if (!slot.success) {
    // Not a try: the claim is handed back for when the key has a slot again.
    await settle(deps, row, "queued", null, slot.retryAfterSeconds * 1000, true);
    return "throttled";
  }
  const outcome = await fetchBarDay(deps.fetch, deps.config, apiKey, row.symbol, row.resolution, row.day, timeoutMs);
  switch (outcome.kind) {
    case "ok":
      await storeBars(deps, row.user_id, row.symbol, row.resolution, "provider", outcome.bars, [row.day]);
      break;
    case "retry":
      deps.log.warn("bar fetch to be retried", { symbol: row.symbol, day: row.day, reason: outcome.reason, attempts: row.attempts });
      if (row.attempts >= MAX_ATTEMPTS) await settle(deps, row, "failed", `the provider did not answer (${outcome.reason}), ${row.attempts} tries`);
      // The provider's own wait after a 429; otherwise a wait that grows with the tries.
      else await settle(deps, row, "queued", outcome.reason, outcome.rateLimited ? outcome.afterMs : Math.max(outcome.afterMs, row.attempts * 30_000));
      break;
    case "unavailable":
      await settle(deps, row, "failed", `the provider has no bars for it on this key (${outcome.reason})`);
      break;
    case "refused":
      deps.log.warn("bar provider refused a key", { status: outcome.status });
      await markDataKeyRefused(deps, row.user_id, BARS);
      await deps.db.execute(sql`update bar_days set status = 'failed', detail = 'the provider refused the key: save a working one in Settings', updated_at = now()
        where user_id = ${row.user_id}::uuid and status in ('queued', 'fetching')`);
      break;
  }
  return outcome.kind;
}

/** Claims and fetches days, one user's key opened once; days of users without a key fail with a reason. */
async function fetchDays(deps: Pick<Deps, "db" | "config" | "fetch" | "rateLimiter" | "log">, rows: DayRow[], timeoutMs = BAR_FETCH_TIMEOUT_MS): Promise<number> {
  const keys = new Map<string, string | null>();
  let fetched = 0;
  for (const row of rows) {
    if (!keys.has(row.user_id)) keys.set(row.user_id, await providerKeyOf(deps, row.user_id, BARS));
    const apiKey = keys.get(row.user_id);
    if (!apiKey) {
      await settle(deps, row, "failed", "no bar provider key: save one in Settings, or upload a candle CSV");
      continue;
    }
    const outcome = await fetchClaimed(deps, row, apiKey, timeoutMs);
    if (outcome === "ok") fetched += 1;
    if (outcome === "refused") keys.set(row.user_id, null);
  }
  return fetched;
}

/** How long the trade page waits for one day from the provider before leaving it to the job. */
export const INLINE_FETCH_TIMEOUT_MS = 4000;

/** The trade page: fetches up to `limit` of these days now (those nobody else is fetching). */
export async function fetchDaysNow(deps: Pick<Deps, "db" | "config" | "fetch" | "rateLimiter" | "log">, userId: string, symbol: string, resolution: BarResolution, days: readonly string[], limit: number): Promise<number> {
  if (!days.length || limit <= 0) return 0;
  return fetchDays(deps, await claim(deps, limit, { userId, symbol, resolution, days }), INLINE_FETCH_TIMEOUT_MS);
}

/** The fetch-bars job: up to BARS_PER_RUN due days, all users together; returns how many were fetched. */
export async function drainBarQueue(deps: Pick<Deps, "db" | "config" | "fetch" | "rateLimiter" | "log">): Promise<number> {
  return fetchDays(deps, await claim(deps, BARS_PER_RUN));
}
