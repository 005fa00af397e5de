// Delayed quotes from the platform's provider (DESIGN.md section 9, "Market data"): `GET
// {STOCK_QUOTE_BASE_URL}/v1/stockprice?ticker=` with `X-Api-Key: STOCK_QUOTE_API_KEY`.
//
// - Cached 60 s per symbol in this process (a Worker: this isolate), at most MAX_ENTRIES symbols, the
//   least recently fetched dropped first. "No such symbol" is cached the same 60 s.
// - Single flight: concurrent lookups of one symbol share one upstream call.
// - When the provider fails, a value up to STALE_FOR_MS old is served marked `stale: true`; with none, the
//   failure is answered with a clear code (never a 500).
// - No key configured: every lookup is 404 NOT_FOUND and nothing is sent anywhere.
import type { Config } from "../config/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import { formatDecimal } from "../money.ts";

export const DEFAULT_QUOTE_BASE_URL = "https://api.api-ninjas.com";
export const QUOTE_TTL_MS = 60_000;
export const STALE_FOR_MS = 24 * 60 * 60_000;
export const QUOTE_TIMEOUT_MS = 5_000;
export const MAX_ENTRIES = 2_000;

/**
 * `currency`: what the price is in, as the provider says (its listing's currency), USD when it does not say
 * (it quotes US listings), null when what it says is not a currency code.
 */
export type Quote = { symbol: string; price: string; currency: string | null; asOf: string; delayed: true; stale: boolean };

type Fetched = { quote: Omit<Quote, "stale"> } | { missing: true };
type Entry = { value: Fetched; fetchedAt: number };

class QuoteCache {
  readonly entries = new Map<string, Entry>();
  readonly inflight = new Map<string, Promise<Fetched>>();

  get(symbol: string): Entry | undefined {
    return this.entries.get(symbol);
  }

  set(symbol: string, entry: Entry): void {
    this.entries.delete(symbol);
    this.entries.set(symbol, entry);
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

// One cache per configuration: a process (or a Worker isolate) parses its configuration once.
const caches = new WeakMap<Config, QuoteCache>();
function cacheFor(config: Config): QuoteCache {
  let cache = caches.get(config);
  if (!cache) caches.set(config, (cache = new QuoteCache()));
  return cache;
}

const notConfigured = () => new AppError("NOT_FOUND", "Quotes are not available on this instance.");
const noQuote = (symbol: string) => new AppError("NOT_FOUND", `No quote for ${symbol}.`);

/** The provider's price as a decimal string: JSON numbers are doubles, written out without an exponent. */
function priceOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    const text = String(value);
    return formatDecimal(/e/i.test(text) ? value.toFixed(10) : text);
  }
  if (typeof value === "string" && /^\d{1,18}(\.\d{1,10})?$/.test(value) && Number(value) > 0) return formatDecimal(value);
  return undefined;
}

async function fetchQuote(deps: Pick<Deps, "config" | "fetch" | "log" | "now">, symbol: string): Promise<Fetched> {
  const base = (deps.config.STOCK_QUOTE_BASE_URL ?? DEFAULT_QUOTE_BASE_URL).replace(/\/+$/, "");
  let res: Response;
  try {
    res = await deps.fetch(`${base}/v1/stockprice?ticker=${encodeURIComponent(symbol)}`, {
      headers: { "X-Api-Key": deps.config.STOCK_QUOTE_API_KEY!, Accept: "application/json" },
      signal: AbortSignal.timeout(QUOTE_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === "TimeoutError";
    throw new AppError("QUOTE_PROVIDER_UNAVAILABLE", timedOut ? "The quote provider did not answer in time." : "The quote provider could not be reached.");
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel().catch(() => undefined);
    deps.log.error("the quote provider refused STOCK_QUOTE_API_KEY", { status: res.status });
    throw new AppError("QUOTE_PROVIDER_REJECTED", "The quote provider refused this instance's key. Tell the operator.");
  }
  if (res.status === 429) {
    await res.body?.cancel().catch(() => undefined);
    const retry = Number(res.headers.get("retry-after"));
    throw new AppError("QUOTE_PROVIDER_BUSY", "The quote provider is busy. Try again in a minute.", {
      headers: { "Retry-After": String(Number.isInteger(retry) && retry > 0 && retry <= 3600 ? retry : 60) },
    });
  }
  if (res.status === 400 || res.status === 404) {
    await res.body?.cancel().catch(() => undefined);
    return { missing: true };
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new AppError("QUOTE_PROVIDER_UNAVAILABLE", `The quote provider failed (it answered ${res.status}).`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new AppError("QUOTE_PROVIDER_UNAVAILABLE", "The quote provider sent an answer that is not a quote.");
  }
  // An unknown ticker is an empty object or list.
  const item = (Array.isArray(body) ? body[0] : body) as { price?: unknown; updated?: unknown; currency?: unknown } | undefined;
  if (!item || typeof item !== "object" || item.price === undefined) return { missing: true };
  const price = priceOf(item.price);
  if (!price) throw new AppError("QUOTE_PROVIDER_UNAVAILABLE", "The quote provider sent an answer that is not a quote.");
  const updated = typeof item.updated === "number" && Number.isFinite(item.updated) && item.updated > 0 ? new Date(item.updated * 1000) : deps.now();
  const asOf = Number.isNaN(updated.getTime()) || updated.getUTCFullYear() > 9999 ? deps.now() : updated;
  const currency = item.currency === undefined ? "USD" : typeof item.currency === "string" && /^[A-Za-z]{3}$/.test(item.currency) ? item.currency.toUpperCase() : null;
  return { quote: { symbol, price, currency, asOf: asOf.toISOString(), delayed: true } };
}

/** Throws 404 NOT_FOUND when no quote provider key is configured. */
export function quotesConfigured(config: Config): void {
  if (!config.features.quotes) throw notConfigured();
}

/** The delayed last price of a stock ticker (already upper-cased and validated). */
export async function getQuote(deps: Pick<Deps, "config" | "fetch" | "log" | "now">, symbol: string): Promise<Quote> {
  quotesConfigured(deps.config);
  const cache = cacheFor(deps.config);
  const now = deps.now().getTime();
  const cached = cache.get(symbol);
  if (cached && now - cached.fetchedAt < QUOTE_TTL_MS) return answer(symbol, cached.value, false);
  let flight = cache.inflight.get(symbol);
  if (!flight) {
    flight = fetchQuote(deps, symbol)
      .then((value) => {
        cache.set(symbol, { value, fetchedAt: deps.now().getTime() });
        return value;
      })
      .finally(() => cache.inflight.delete(symbol));
    cache.inflight.set(symbol, flight);
  }
  try {
    return answer(symbol, await flight, false);
  } catch (err) {
    // The provider failed: the last good value, marked stale, while it is not too old.
    if (cached && "quote" in cached.value && now - cached.fetchedAt < STALE_FOR_MS) return answer(symbol, cached.value, true);
    throw err;
  }
}

function answer(symbol: string, value: Fetched, stale: boolean): Quote {
  if ("missing" in value) throw noQuote(symbol);
  return { ...value.quote, stale };
}

/** An open stock position valued at a quote. */
export type Valuation = { price: string; asOf: string; stale: boolean; marketValue: string; unrealizedPnl: string };

/** At most this many distinct symbols are priced per request (each one upstream call at most). */
export const MAX_VALUED_SYMBOLS = 50;

/**
 * Open stock positions valued at their quotes: one lookup per distinct symbol (the cache and single flight
 * make it at most one upstream call each). The arithmetic is Postgres `numeric`, as realised P&L's: market
 * value = price x open quantity x multiplier (negative for a short); unrealised P&L = what closing the open
 * quantity at the price would realise, on the position's average cost, before the exit's fees.
 * Options and futures are not priced (`valuation: null`), nor is a symbol the provider cannot answer for,
 * nor a position whose account is in another currency than the quote (a dollar price is never set against
 * costs in euros).
 */
export async function valueOpenPositions<T extends { id: string; status: "open" | "closed"; assetClass: string; symbol: string }>(
  deps: Pick<Deps, "config" | "db" | "fetch" | "log" | "now">,
  trades: readonly T[],
): Promise<Array<T & { valuation: Valuation | null }>> {
  const priced = trades.filter((t) => t.status === "open" && t.assetClass === "stock");
  const symbols = [...new Set(priced.map((t) => t.symbol))].slice(0, MAX_VALUED_SYMBOLS);
  const quotes = new Map<string, Quote>();
  await Promise.all(
    symbols.map(async (s) => {
      try {
        quotes.set(s, await getQuote(deps, s));
      } catch {
        // Unpriced: the trade still lists, without a valuation.
      }
    }),
  );
  const valued = priced.filter((t) => quotes.has(t.symbol));
  const values = new Map<string, { market_value: string; unrealized_pnl: string }>();
  if (valued.length) {
    const input = JSON.stringify(valued.map((t) => ({ id: t.id, price: quotes.get(t.symbol)!.price, currency: quotes.get(t.symbol)!.currency })));
    const rows = rowsOf<{ id: string; market_value: string; unrealized_pnl: string }>(
      await deps.db.execute(sql`
        select p.id::text as id,
          round(q.price * p.open_quantity * p.multiplier * d.sign, 10)::text as market_value,
          round(p.open_quantity * (q.price * p.entry_quantity - p.entry_value) * p.multiplier * d.sign / p.entry_quantity, 10)::text as unrealized_pnl
        from jsonb_to_recordset(${input}::jsonb) as q(id uuid, price numeric, currency text)
        join positions p on p.id = q.id and p.entry_quantity > 0
        join accounts a on a.id = p.account_id and a.currency = q.currency
        cross join lateral (select case when p.direction = 'long' then 1 else -1 end as sign) d`),
    );
    for (const r of rows) values.set(r.id, r);
  }
  return trades.map((t) => {
    const quote = quotes.get(t.symbol);
    const value = values.get(t.id);
    return {
      ...t,
      valuation:
        quote && value
          ? { price: quote.price, asOf: quote.asOf, stale: quote.stale, marketValue: formatDecimal(value.market_value), unrealizedPnl: formatDecimal(value.unrealized_pnl) }
          : null,
    };
  });
}
