// The regulator's ticker file (DESIGN.md sections 8 and 9, "Market data"): fetched, parsed and swapped in
// as one generation of the `symbols` table.
//
// - One loader at a time across processes: the `symbol_loads` row is claimed by a conditional UPDATE (with
//   a lease, so a loader that died does not block the next one).
// - The swap is one statement: insert the new generation, point `symbol_loads` at it, delete the others.
//   Search joins on the live generation, so it sees the old table or the new one, never half of either,
//   on every transport (the HTTP driver has no interactive transactions).
// - A failed load (network, timeout, size cap, malformed file) changes nothing but `last_error`.
// - A User-Agent naming a code-hosting site: no request at all, a warning, and an empty table.
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";

/** Reload when the live table is older than this. */
export const TICKERS_MAX_AGE_HOURS = 24;
/** The file is about 1 MB today; anything past this is not the file. */
export const TICKERS_MAX_BYTES = 16 * 1024 * 1024;
export const TICKERS_TIMEOUT_MS = 30_000;
/** A loader's lease on the claim row: longer than the fetch timeout plus the swap. */
const CLAIM_SECONDS = 120;
/** After a failed attempt, other processes wait this long before trying again (unless forced). */
const RETRY_AFTER_FAILURE_MINUTES = 10;

export type Ticker = { ticker: string; name: string; exchange: string | null };

export type LoadOutcome =
  | { status: "loaded"; rows: number }
  /** Fresh enough, or another process holds the claim. */
  | { status: "skipped" }
  /** The User-Agent names a code-hosting site: nothing fetched, the table emptied. */
  | { status: "refused" };

export class TickerFileError extends Error {
  override name = "TickerFileError";
}

const CODE_HOSTS = /(^|[^a-z0-9-])((?:[a-z0-9-]+\.)*(?:github\.com|github\.io|githubusercontent\.com|gitlab\.com|gitlab\.io|bitbucket\.org|bitbucket\.io|codeberg\.org|codeberg\.page|sourceforge\.net|gitee\.com|sr\.ht|pagure\.io|launchpad\.net))(?![a-z0-9-])/i;

/** Whether a User-Agent points at a code-hosting site (the regulator's fair-access policy refuses those). */
export function namesCodeHost(userAgent: string): boolean {
  return CODE_HOSTS.test(userAgent);
}

const TICKER = /^[A-Z0-9][A-Z0-9.\-/]{0,11}$/;
const MAX_NAME = 200;

/** The words of a name or a query: lower case, letters and digits only. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function tickerOf(ticker: unknown, name: unknown, exchange: unknown): Ticker | undefined {
  if (typeof ticker !== "string" || typeof name !== "string") return undefined;
  const t = ticker.trim().toUpperCase();
  const n = name.trim().replace(/\s+/g, " ").slice(0, MAX_NAME);
  if (!TICKER.test(t) || !n) return undefined;
  const e = typeof exchange === "string" && exchange.trim() ? exchange.trim().slice(0, 40) : null;
  return { ticker: t, name: n, exchange: e };
}

/**
 * Both shapes of the file: `company_tickers_exchange.json` (`{fields: [..."name","ticker","exchange"],
 * data: [[...]]}`) and `company_tickers.json` (`{"0": {cik_str, ticker, title}, ...}`). Rows that are not
 * a ticker and a name are skipped; a ticker listed twice keeps its first row. A file with no usable row
 * is malformed.
 */
export function parseTickerFile(body: unknown): Ticker[] {
  const rows: Ticker[] = [];
  if (body && typeof body === "object" && !Array.isArray(body) && Array.isArray((body as { data?: unknown }).data)) {
    const { fields, data } = body as { fields?: unknown; data: unknown[] };
    if (!Array.isArray(fields)) throw new TickerFileError("the file has data but no fields list");
    const at = (name: string) => fields.indexOf(name);
    const [t, n, e] = [at("ticker"), at("name"), at("exchange")];
    if (t < 0 || n < 0) throw new TickerFileError('the fields list has no "ticker" or no "name"');
    for (const row of data) {
      if (!Array.isArray(row)) continue;
      const parsed = tickerOf(row[t], row[n], e < 0 ? null : row[e]);
      if (parsed) rows.push(parsed);
    }
  } else if (body && typeof body === "object" && !Array.isArray(body)) {
    for (const row of Object.values(body)) {
      if (!row || typeof row !== "object") continue;
      const r = row as { ticker?: unknown; title?: unknown; name?: unknown; exchange?: unknown };
      const parsed = tickerOf(r.ticker, r.title ?? r.name, r.exchange ?? null);
      if (parsed) rows.push(parsed);
    }
  } else {
    throw new TickerFileError("the file is not a JSON object");
  }
  const seen = new Set<string>();
  const unique = rows.filter((r) => !seen.has(r.ticker) && seen.add(r.ticker));
  if (!unique.length) throw new TickerFileError("the file lists no ticker");
  return unique;
}

/** GET the file with the configured User-Agent, a timeout and a size cap; the bytes counted as they arrive. */
export async function fetchTickerFile(deps: Pick<Deps, "config" | "fetch">, timeoutMs = TICKERS_TIMEOUT_MS): Promise<Ticker[]> {
  const { REGULATOR_TICKERS_URL: url, REGULATOR_TICKERS_USER_AGENT: userAgent } = deps.config;
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await deps.fetch(url, { headers: { "User-Agent": userAgent, Accept: "application/json" }, signal });
  } catch (err) {
    throw new TickerFileError(signal.aborted ? `no answer within ${timeoutMs / 1000} s` : `the request failed (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new TickerFileError(`the server answered ${res.status}`);
  }
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > TICKERS_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw new TickerFileError(`the file is larger than ${TICKERS_MAX_BYTES} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    const reader = res.body?.getReader();
    for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) {
      bytes += next.value.byteLength;
      if (bytes > TICKERS_MAX_BYTES) {
        await reader!.cancel().catch(() => undefined);
        throw new TickerFileError(`the file is larger than ${TICKERS_MAX_BYTES} bytes`);
      }
      chunks.push(next.value);
    }
  } catch (err) {
    if (err instanceof TickerFileError) throw err;
    throw new TickerFileError(signal.aborted ? `the file did not arrive within ${timeoutMs / 1000} s` : "the download was cut");
  }
  const text = new TextDecoder().decode(concat(chunks, bytes));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TickerFileError("the file is not valid JSON");
  }
  return parseTickerFile(body);
}

function concat(chunks: Uint8Array[], bytes: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/** Claims the loader row when a load is due (or `force`); the token, or undefined when not due or taken. */
async function claim(deps: Pick<Deps, "db">, force: boolean): Promise<string | undefined> {
  const token = crypto.randomUUID();
  const rows = rowsOf(
    await deps.db.execute(sql`
      update symbol_loads set claim_token = ${token}, claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS}), last_attempt_at = now()
      where id = 1 and (claimed_until is null or claimed_until < now())
        and (${force} or (
          (loaded_at is null or rows = 0 or loaded_at < now() - make_interval(hours => ${TICKERS_MAX_AGE_HOURS}))
          and (last_error is null or last_attempt_at < now() - make_interval(mins => ${RETRY_AFTER_FAILURE_MINUTES}))))
      returning id`),
  );
  return rows.length ? token : undefined;
}

/** The swap, in one statement: the new generation in, the live pointer moved, every other generation out. */
async function swapIn(deps: Pick<Deps, "db">, token: string, tickers: readonly Ticker[]): Promise<number> {
  const payload = JSON.stringify(tickers.map((t) => ({ ticker: t.ticker, name: t.name, exchange: t.exchange, words: ` ${searchWords(t.name).join(" ")}` })));
  const [row] = rowsOf<{ rows: number }>(
    await deps.db.execute(sql`
      with state as (select generation + 1 as g from symbol_loads where id = 1 and claim_token = ${token}),
      ins as (
        insert into symbols (generation, ticker, name, exchange, words)
        select (select g from state), r.ticker, r.name, r.exchange, r.words
        from jsonb_to_recordset(${payload}::jsonb) as r(ticker text, name text, exchange text, words text)
        where exists (select 1 from state)
        returning 1),
      old as (delete from symbols where exists (select 1 from state) and generation <> (select g from state))
      update symbol_loads set generation = (select g from state), rows = (select count(*) from ins), loaded_at = now(),
        claim_token = null, claimed_until = null, last_error = null
      where id = 1 and claim_token = ${token}
      returning rows::int as rows`),
  );
  if (!row) throw new TickerFileError("another loader took over while this one was loading");
  return row.rows;
}

async function release(deps: Pick<Deps, "db">, token: string, error: string): Promise<void> {
  await deps.db.execute(sql`update symbol_loads set claim_token = null, claimed_until = null, last_error = ${error.slice(0, 500)}
    where id = 1 and claim_token = ${token}`);
}

/**
 * Loads the ticker file when the table is empty or older than 24 h (or `force`). One process loads at a
 * time; the others skip. Throws TickerFileError when the file could not be loaded (the old table stays).
 */
export async function loadTickers(deps: Pick<Deps, "db" | "config" | "fetch" | "log">, options: { force?: boolean; timeoutMs?: number } = {}): Promise<LoadOutcome> {
  const token = await claim(deps, options.force ?? false);
  if (!token) return { status: "skipped" };
  const refused = namesCodeHost(deps.config.REGULATOR_TICKERS_USER_AGENT);
  let tickers: Ticker[] = [];
  try {
    if (refused) {
      deps.log.warn("REGULATOR_TICKERS_USER_AGENT names a code-hosting site: the ticker file is not fetched and symbol search stays empty", {
        variable: "REGULATOR_TICKERS_USER_AGENT",
      });
    } else {
      tickers = await fetchTickerFile(deps, options.timeoutMs);
    }
    const rows = await swapIn(deps, token, tickers);
    return refused ? { status: "refused" } : { status: "loaded", rows };
  } catch (err) {
    const message = err instanceof TickerFileError ? err.message : "the table could not be written";
    await release(deps, token, message).catch(() => undefined);
    if (err instanceof TickerFileError) throw err;
    throw new TickerFileError(message, { cause: err });
  }
}

/** What the table holds now (health of the loader, for tests and the admin view). */
export async function tickerState(deps: Pick<Deps, "db">) {
  const [row] = rowsOf<{ generation: number; rows: number; loaded_at: string | null; last_error: string | null }>(
    await deps.db.execute(sql`select generation, rows, loaded_at::text as loaded_at, last_error from symbol_loads where id = 1`),
  );
  return { generation: row?.generation ?? 0, rows: row?.rows ?? 0, loadedAt: row?.loaded_at ?? null, lastError: row?.last_error ?? null };
}
