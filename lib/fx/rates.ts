// The daily reference rates (docs/currencies.md): the European Central Bank's, through a Frankfurter-compatible
// rate service at FX_RATES_BASE_URL (self-hostable; the public https://api.frankfurter.app by default).
// A date is asked once: its rates are kept in fx_rates (per 1 EUR) and the date in fx_rate_days, with whether
// it had rates of its own (a weekend or a holiday has none). A recent date still without rates (they are
// published around 16:00 CET) is asked again after an hour. Several dates go in one time-series request
// (`GET {base}/{from}..{to}?base=EUR`) of CHUNK_DAYS at most; one date alone in `GET {base}/{date}?base=EUR`.
// Nothing here guesses: a date the service does not answer for stays unrecorded, and the figures that need
// it list it as missing (lib/fx/convert.ts).
import { sql, type SQL } from "drizzle-orm";
import * as z from "zod/mini";
import type { Deps } from "../deps.ts";
import { addDays } from "../time/zoned.ts";
import { arrayLiteral, rowsOf } from "../db/rows.ts";

export const FX_RATES_DEFAULT_BASE_URL = "https://api.frankfurter.app";
/** Days per time-series request: short enough that the service answers every business day, never a sample. */
export const CHUNK_DAYS = 31;
export const FX_FETCH_TIMEOUT_MS = 10_000;
/** After a failed request, the same dates wait this long before they are asked again (per process). */
const BACKOFF_MS = 60_000;

const Rates = z.record(z.string().check(z.regex(/^[A-Z]{3}$/)), z.number().check(z.positive()));
const DayAnswer = z.object({ date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)), rates: Rates });
const SeriesAnswer = z.object({ rates: z.record(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)), Rates) });

export type FxFetch = { kind: "ok"; days: Map<string, Record<string, number>> } | { kind: "failed"; reason: string };

const backoff = new Map<string, number>();

export function ratesBaseUrl(deps: Pick<Deps, "config">): string {
  return (deps.config.FX_RATES_BASE_URL ?? FX_RATES_DEFAULT_BASE_URL).replace(/\/+$/, "");
}

/** A recorded date: asked of the rate service (a recent one still without rates: for an hour). */
export function recordedSql(day: SQL, today: string): SQL {
  return sql`exists (select 1 from fx_rate_days d where d.day = ${day}
    and (d.has_rates or d.day < ${today}::date - 2 or d.fetched_at > now() - interval '1 hour'))`;
}

/** A Postgres array literal of dates (drizzle sends a JS array as a row). */


/** Asks the rate service for the rates of [from, to] (per 1 EUR): the dates it has rates for. */
export async function fetchRates(deps: Pick<Deps, "config" | "fetch">, from: string, to: string): Promise<FxFetch> {
  const one = from === to;
  const url = `${ratesBaseUrl(deps)}/${one ? from : `${from}..${to}`}?base=EUR`;
  let res: Response;
  try {
    res = await deps.fetch(url, { headers: { Accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(FX_FETCH_TIMEOUT_MS) });
  } catch (err) {
    return { kind: "failed", reason: err instanceof Error && err.name === "TimeoutError" ? "timed out" : "unreachable" };
  }
  const text = await res.text().catch(() => "");
  if (res.status !== 200) return { kind: "failed", reason: `status ${res.status}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: "failed", reason: "not JSON" };
  }
  const days = new Map<string, Record<string, number>>();
  if (one) {
    const parsed = DayAnswer.safeParse(body);
    if (!parsed.success) return { kind: "failed", reason: "an answer without rates" };
    // A date without rates of its own answers with the latest earlier date's: kept under that date.
    if (parsed.data.date <= from) days.set(parsed.data.date, parsed.data.rates);
  } else {
    const parsed = SeriesAnswer.safeParse(body);
    if (!parsed.success) return { kind: "failed", reason: "an answer without rates" };
    for (const [day, rates] of Object.entries(parsed.data.rates)) if (day >= from && day <= to) days.set(day, rates);
  }
  return { kind: "ok", days };
}

/**
 * Makes sure every date in `days` (and the 7 before each, for the walk back) was asked of the rate service:
 * the dates not yet recorded (or recent and still without rates after an hour) are fetched, in chunks, and
 * kept. Answers the dates it could not have (the service failed): their figures are listed as missing.
 */
export async function ensureRates(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, days: string[]): Promise<{ failed: string[]; fetched: boolean }> {
  if (days.length === 0) return { failed: [], fetched: false };
  const today = deps.now().toISOString().slice(0, 10);
  const wanted = new Set<string>();
  for (const day of days) for (let i = 0; i <= 7; i++) {
    const d = addDays(day, -i);
    if (d <= today) wanted.add(d);
  }
  const list = [...wanted].sort();
  const known = new Set(
    rowsOf<{ day: string }>(
      await deps.db.execute(sql`select to_char(w.day, 'YYYY-MM-DD') as day from unnest(${arrayLiteral(list)}::date[]) w(day) where ${recordedSql(sql`w.day`, today)}`),
    ).map((r) => r.day),
  );
  const todo = list.filter((d) => !known.has(d));
  const failed: string[] = [];
  let fetched = false;
  for (const [from, to] of chunks(todo)) {
    const key = `${from}..${to}`;
    if ((backoff.get(key) ?? 0) > Date.now()) {
      failed.push(...todo.filter((d) => d >= from && d <= to));
      continue;
    }
    const got = await fetchRates(deps, from, to);
    if (got.kind === "failed") {
      backoff.set(key, Date.now() + BACKOFF_MS);
      deps.log.warn("reference rates not fetched", { from, to, reason: got.reason });
      failed.push(...todo.filter((d) => d >= from && d <= to));
      continue;
    }
    backoff.delete(key);
    await store(deps, from, to, got.days);
    fetched = true;
  }
  return { failed, fetched };
}

/** Contiguous runs of sorted dates, cut at CHUNK_DAYS: [from, to] pairs. */
function chunks(sorted: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const day of sorted) {
    const last = out.at(-1);
    if (last && addDays(last[1], 1) === day && addDays(last[0], CHUNK_DAYS - 1) >= day) last[1] = day;
    else out.push([day, day]);
  }
  return out;
}

/**
 * Keeps the rates of [from, to], records each date of it, and walks the rates back again (fx_daily) for the
 * dates they reach (up to 7 days after `to`), in one statement.
 */
async function store(deps: Pick<Deps, "db">, from: string, to: string, days: Map<string, Record<string, number>>) {
  const rows: Array<{ day: string; currency: string; per_eur: string }> = [];
  for (const [day, rates] of days) {
    rows.push({ day, currency: "EUR", per_eur: "1" });
    for (const [currency, rate] of Object.entries(rates)) if (currency !== "EUR") rows.push({ day, currency, per_eur: String(rate) });
  }
  const withRates = [...days.keys()];
  await deps.db.execute(sql`with r as (
      insert into fx_rates (day, currency, per_eur)
      select x.day, x.currency, x.per_eur from json_to_recordset(${JSON.stringify(rows)}::json) as x(day date, currency text, per_eur numeric)
      on conflict (currency, day) do update set per_eur = excluded.per_eur
      returning 1
    )
    insert into fx_rate_days (day, has_rates, fetched_at)
    select d::date, d::date = any(${arrayLiteral(withRates)}::date[]), now()
    from generate_series(${from}::date, ${to}::date, interval '1 day') d
    union
    select d, true, now() from unnest(${arrayLiteral(withRates)}::date[]) d
    on conflict (day) do update set has_rates = excluded.has_rates, fetched_at = excluded.fetched_at`);
  // A separate statement: it reads the rates and dates the one above wrote.
  await walkBack(deps, [...days.keys(), from].sort()[0]!, addDays(to, 7));
  // Every user's months kept in the base that these dates reach are built again (lib/fx/base-months.ts).
  await deps.db.execute(sql`delete from stats_base_months where month >= date_trunc('month', ${from}::date) and month <= ${addDays(to, 7)}::date`);
}

/**
 * fx_daily for the recorded dates in [from, to]: each currency's latest rate at most 7 days before (the walk
 * back of docs/currencies.md), kept so that a conversion is one lookup. Also what a test or a benchmark that
 * seeds rates calls.
 */
export async function walkBack(deps: Pick<Deps, "db">, from: string, to: string) {
  await deps.db.execute(sql`insert into fx_daily (currency, day, per_eur, rate_day)
    select c.currency, d.day, r.per_eur, r.day
    from fx_rate_days d
    cross join (select distinct currency from fx_rates) c
    cross join lateral (
      select x.per_eur, x.day from fx_rates x where x.currency = c.currency and x.day <= d.day and x.day >= d.day - 7 order by x.day desc limit 1
    ) r
    where d.day >= ${from}::date and d.day <= ${to}::date
    on conflict (currency, day) do update set per_eur = excluded.per_eur, rate_day = excluded.rate_day`);
}

/**
 * The fetch-rates job (lib/jobs): the last week's reference rates, asked ahead of the reads once any user has a
 * base currency (a recent date still without rates is asked again after an hour; the others once). Returns how
 * many dates are still to come or could not be had.
 */
export async function fetchRecentRates(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">): Promise<number> {
  const [row] = rowsOf<{ any: boolean }>(await deps.db.execute(sql`select exists (select 1 from user_settings where base_currency is not null) as any`));
  if (!row?.any) return 0;
  const { failed } = await ensureRates(deps, [deps.now().toISOString().slice(0, 10)]);
  return failed.length;
}
