// Market data (DESIGN.md section 9): the regulator's ticker file loaded into the symbol table, symbol search,
// delayed quotes with their cache, and open positions valued. Real Postgres (a database of this file's own,
// since the symbol table is instance-wide), local stand-ins for the ticker file and the quote provider.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../lib/config/index.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import type { Deps } from "../../lib/deps.ts";
import { loadTickersJob, runJobs } from "../../lib/jobs/index.ts";
import { createLogger } from "../../lib/log.ts";
import { getQuote, MAX_ENTRIES, QUOTE_TTL_MS } from "../../lib/market/quotes.ts";
import { searchSymbols } from "../../lib/market/symbols.ts";
import { loadTickers, namesCodeHost, tickerState, TickerFileError } from "../../lib/market/tickers.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { runCliProcess } from "../support/cli.ts";
import type { TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { testConfig } from "../support/env.ts";
import { inOneWindow } from "../support/window.ts";
import { startMarketServer, type MarketServer } from "../support/market-server.ts";

let stand: MarketServer;
let db: { name: string; url: string };
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  stand = await startMarketServer();
  db = await createMigratedDatabase("journal_market_test");
  t = await testApp(db.url, stand.env, { peer: "per-request", log: createLogger({ write: (line) => logLines.push(line) }) });
});
afterAll(async () => {
  await stand?.close();
  if (db) await dropDatabase(db.name);
});

/** Deps whose configuration points the loader at one of the stand-in's files (or another User-Agent). */
function loaderDeps(file: string, env: Record<string, string> = {}): Deps {
  return { ...t.deps, config: testConfig({ ...stand.env, REGULATOR_TICKERS_URL: stand.tickersUrl(file), ...env }) };
}

async function liveTickers(): Promise<string[]> {
  return (await searchAll()).map((s) => s.ticker).sort();
}
/** Every live row, straight from the table. */
async function searchAll() {
  return rowsOf<{ ticker: string; name: string; exchange: string | null }>(
    await t.deps.db.execute(sql`select s.ticker, s.name, s.exchange from symbols s join symbol_loads l on l.id = 1 and s.generation = l.generation`),
  );
}

describe("the ticker file", () => {
  it("loads the exchange shape with the default, non-personal User-Agent; rows that are not tickers are skipped", async () => {
    const before = stand.tickerRequests.length;
    const outcome = await loadTickers(loaderDeps("exchange.json"), { force: true });
    expect(outcome).toEqual({ status: "loaded", rows: 18 });
    const request = stand.tickerRequests.slice(before);
    expect(request).toEqual([{ path: "/tickers/exchange.json", userAgent: "TradingJournal/1.0 (self-hosted instance)" }]);
    expect(await liveTickers()).toContain("BRK-B");
    expect(await liveTickers()).not.toContain("EMPTY");
    expect((await searchAll()).find((r) => r.ticker === "AAPL")).toEqual({ ticker: "AAPL", name: "Apple Inc.", exchange: "Nasdaq" });
    const state = await tickerState(t.deps);
    expect(state).toMatchObject({ rows: 18, lastError: null });
    expect(state.loadedAt).not.toBeNull();
  });

  it("loads the plain company_tickers.json shape (no exchange), with a configured User-Agent", async () => {
    const before = stand.tickerRequests.length;
    const outcome = await loadTickers(loaderDeps("plain.json", { REGULATOR_TICKERS_USER_AGENT: "Acme Journal ops@acme.example" }), { force: true });
    expect(outcome).toEqual({ status: "loaded", rows: 18 });
    expect(stand.tickerRequests.slice(before)).toEqual([{ path: "/tickers/plain.json", userAgent: "Acme Journal ops@acme.example" }]);
    expect((await searchAll()).find((r) => r.ticker === "KO")).toEqual({ ticker: "KO", name: "COCA COLA CO", exchange: null });
  });

  it("loads a 10,000-row file, replacing the previous table entirely", async () => {
    const outcome = await loadTickers(loaderDeps("big.json"), { force: true });
    expect(outcome).toEqual({ status: "loaded", rows: 10_000 });
    const tickers = await liveTickers();
    expect(tickers).toHaveLength(10_000);
    expect(tickers).not.toContain("AAPL");
    // Only the live generation is left in the table.
    const [{ n }] = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from symbols`)) as [{ n: number }];
    expect(n).toBe(10_000);
  });

  it.each([
    ["malformed.json", /not valid JSON/],
    ["down.json", /answered 503/],
    ["huge.json", /larger than/],
  ])("a failed reload (%s) keeps the previous table and records why", async (file, reason) => {
    await loadTickers(loaderDeps("exchange.json"), { force: true });
    const before = await liveTickers();
    await expect(loadTickers(loaderDeps(file), { force: true })).rejects.toThrow(reason);
    expect(await liveTickers()).toEqual(before);
    expect((await tickerState(t.deps)).lastError).toMatch(reason);
    // The claim was released: the next load runs at once.
    expect(await loadTickers(loaderDeps("exchange.json"), { force: true })).toEqual({ status: "loaded", rows: 18 });
    expect((await tickerState(t.deps)).lastError).toBeNull();
  });

  it("a file that stops arriving times out and keeps the previous table", async () => {
    await loadTickers(loaderDeps("exchange.json"), { force: true });
    const started = Date.now();
    await expect(loadTickers(loaderDeps("stall.json"), { force: true, timeoutMs: 300 })).rejects.toThrow(TickerFileError);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await liveTickers()).toHaveLength(18);
  });

  it("a User-Agent naming a code-hosting site: no request at all, a warning, and an empty table", async () => {
    await loadTickers(loaderDeps("exchange.json"), { force: true });
    expect(await liveTickers()).toHaveLength(18);
    const before = stand.tickerRequests.length;
    const lines = logLines.length;
    for (const userAgent of ["journal (+https://github.com/someone/journal)", "bot gitlab.com/x", "x@users.noreply.github.com"]) {
      const outcome = await loadTickers(loaderDeps("exchange.json", { REGULATOR_TICKERS_USER_AGENT: userAgent }), { force: true });
      expect(outcome).toEqual({ status: "refused" });
    }
    expect(stand.tickerRequests.length).toBe(before);
    expect(await liveTickers()).toEqual([]);
    expect(logLines.slice(lines).filter((l) => l.includes("code-hosting")).length).toBe(3);
    expect(namesCodeHost("TradingJournal/1.0 (self-hosted instance)")).toBe(false);
    expect(namesCodeHost("Acme ops@acme.example")).toBe(false);
    expect(namesCodeHost("notgithub.community")).toBe(false);
  });

  it("concurrent loaders: one loads, the others skip; search meanwhile sees the whole old table", async () => {
    await loadTickers(loaderDeps("big.json"), { force: true });
    const before = stand.tickerRequests.length;
    const loads = Array.from({ length: 6 }, () => loadTickers(loaderDeps("slow.json"), { force: true }));
    // While the slow file is on its way, search answers from the complete old table.
    await new Promise((r) => setTimeout(r, 100));
    expect((await searchSymbols(t.deps, "ZAAAB")).symbols[0]?.ticker).toBe("ZAAAB");
    expect(await liveTickers()).toHaveLength(10_000);
    const outcomes = await Promise.all(loads);
    expect(outcomes.filter((o) => o.status === "loaded")).toEqual([{ status: "loaded", rows: 18 }]);
    expect(outcomes.filter((o) => o.status === "skipped")).toHaveLength(5);
    expect(stand.tickerRequests.length - before).toBe(1);
    expect(await liveTickers()).toHaveLength(18);
  });

  it("loads when empty or older than 24 hours, not otherwise; the job does the same", async () => {
    await loadTickers(loaderDeps("exchange.json"), { force: true });
    const before = stand.tickerRequests.length;
    expect(await loadTickers(loaderDeps("exchange.json"))).toEqual({ status: "skipped" });
    await t.deps.db.execute(sql`update symbol_loads set loaded_at = now() - interval '25 hours', last_attempt_at = now() - interval '25 hours'`);
    const outcome = await runJobs(loaderDeps("plain.json"), [loadTickersJob]);
    expect(outcome).toEqual({ "load-tickers": 18 });
    expect(stand.tickerRequests.length - before).toBe(1);
    // Fresh again: the job does nothing.
    expect(await runJobs(loaderDeps("plain.json"), [loadTickersJob])).toEqual({ "load-tickers": 0 });
    // An empty table (a refused load) is due at once.
    await loadTickers(loaderDeps("exchange.json", { REGULATOR_TICKERS_USER_AGENT: "github.com/x" }), { force: true });
    expect(await loadTickers(loaderDeps("exchange.json"))).toEqual({ status: "loaded", rows: 18 });
  });

  it("npm run cli -- load-tickers loads now, and says why when it cannot", async () => {
    await t.deps.db.execute(sql`update symbol_loads set loaded_at = now()`);
    const ok = await runCliProcess(db.url, ["load-tickers"], "", { REGULATOR_TICKERS_URL: stand.tickersUrl("plain.json") });
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.out).toContain("Loaded 18 tickers.");
    const failed = await runCliProcess(db.url, ["load-tickers"], "", { REGULATOR_TICKERS_URL: stand.tickersUrl("malformed.json") });
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("The ticker file could not be loaded: the file is not valid JSON. The previous table is kept.");
    expect(await liveTickers()).toHaveLength(18);
  });

  it("after a failure, the next scheduled try waits 10 minutes (a forced load does not)", async () => {
    await t.deps.db.execute(sql`update symbol_loads set loaded_at = null, last_error = null`);
    await expect(loadTickers(loaderDeps("down.json"))).rejects.toThrow(/503/);
    expect(await loadTickers(loaderDeps("exchange.json"))).toEqual({ status: "skipped" });
    await t.deps.db.execute(sql`update symbol_loads set last_attempt_at = now() - interval '11 minutes'`);
    expect(await loadTickers(loaderDeps("exchange.json"))).toEqual({ status: "loaded", rows: 18 });
  });
});

describe("GET /api/symbols", () => {
  let client: TestClient;
  beforeAll(async () => {
    await loadTickers(loaderDeps("exchange.json"), { force: true });
    ({ client } = await signUp(t, "symbols"));
  });
  beforeEach(async () => {
    if ((await tickerState(t.deps)).rows !== 18) await loadTickers(loaderDeps("exchange.json"), { force: true });
  });

  const search = async (q: string) => {
    const res = await client.get(`/api/symbols?q=${encodeURIComponent(q)}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { symbols: Array<{ ticker: string; name: string; exchange: string | null }> }).symbols;
  };

  it.each([
    ["F", ["F", "FAF"]],
    ["f", ["F", "FAF"]],
    ["goog", ["GOOG", "GOOGL"]],
    ["aapl", ["AAPL"]],
    ["BRK", ["BRK-A", "BRK-B"]],
    ["brk-b", ["BRK-B"]],
    ["coca", ["KO"]],
    ["cola coca", ["KO"]],
    ["hathaway", ["BRK-A", "BRK-B"]],
    ["motor", ["F", "GM"]],
    ["tesla", ["TSLA"]],
    ["general", ["GE", "GM"]],
    ["s&p 500", ["SPY"]],
    ["ab", ["ABT", "ABBV"]],
    ["alphabet", ["GOOG", "GOOGL"]],
    ["zzz", []],
    ["%", []],
    ["_", []],
  ])("q=%s", async (q, expected) => {
    expect((await search(q)).map((s) => s.ticker)).toEqual(expected);
  });

  it("the exact ticker comes first, then tickers starting with it, then names", async () => {
    // "A": the ticker A does not exist; tickers starting with A (shortest first), then names starting with "a".
    const tickers = (await search("a")).map((s) => s.ticker);
    expect(tickers.slice(0, 5)).toEqual(["ABT", "AAPL", "ABBV", "AMZN", "GOOG"]);
    expect(await search("AAPL")).toEqual([{ ticker: "AAPL", name: "Apple Inc.", exchange: "Nasdaq" }]);
  });

  it("answers at most 20", async () => {
    await loadTickers(loaderDeps("big.json"), { force: true });
    const found = await search("Z");
    expect(found).toHaveLength(20);
    expect((await search("company aaab holdings")).map((x) => x.ticker)).toEqual(["ZAAAB"]);
  });

  it.each([
    ["", "must not be empty"],
    ["   ", "must not be empty"],
    ["x".repeat(51), "at most 50"],
    ["a\u0000", ""],
  ])("q=%j is refused with 400 VALIDATION_ERROR", async (q, message) => {
    const res = await client.get(`/api/symbols?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(body.error.fields)).toContain(message);
  });

  it("without q: 400; without a session: 401", async () => {
    expect((await client.get("/api/symbols")).status).toBe(400);
    const anonymous = await t.client().get("/api/symbols?q=AAPL");
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("UNAUTHORIZED");
  });
});

describe("GET /api/quotes/:symbol", () => {
  /** A configuration of its own: its own quote cache. */
  const quoteDeps = (env: Record<string, string> = {}, now = () => new Date()): Deps & { config: Config } => ({
    ...t.deps,
    config: testConfig({ ...stand.env, ...env }),
    now,
  });

  it("no key configured: 404 NOT_FOUND for everyone, nothing sent upstream, /api/config says quotes: false", async () => {
    const off = await testApp(db.url, { STOCK_QUOTE_BASE_URL: stand.url }, { peer: "per-request" });
    const { client } = await signUp(off, "noquotes");
    const before = stand.quoteRequests.length;
    for (const path of ["/api/quotes/AAPL", "/api/quotes/not%20a%20ticker"]) {
      const res = await client.get(path);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("NOT_FOUND");
    }
    expect(stand.quoteRequests.length).toBe(before);
    expect((await (await client.get("/api/config")).json()).quotes).toBe(false);
    expect((await t.client().get("/api/quotes/AAPL")).status).toBe(401);
  });

  it("answers the delayed price, sent with the platform key; /api/config says quotes: true", async () => {
    const { client } = await signUp(t, "quote");
    const res = await client.get("/api/quotes/aapl");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ symbol: "AAPL", price: "190.12", currency: "USD", asOf: new Date(1_764_000_000_000).toISOString(), delayed: true, stale: false });
    expect(stand.quoteRequests.at(-1)).toEqual({ ticker: "AAPL", key: "platform-quote-key" });
    expect((await (await client.get("/api/config")).json()).quotes).toBe(true);
  });

  it("caches each symbol for 60 seconds", async () => {
    let now = Date.parse("2026-11-24T15:00:00Z");
    const deps = quoteDeps({}, () => new Date(now));
    const calls = () => stand.quoteCalls.get("KO") ?? 0;
    const before = calls();
    expect((await getQuote(deps, "KO")).price).toBe("61.03");
    stand.prices.set("KO", 62.5);
    now += QUOTE_TTL_MS - 1;
    expect((await getQuote(deps, "KO")).price).toBe("61.03");
    expect(calls() - before).toBe(1);
    now += 2;
    expect((await getQuote(deps, "KO")).price).toBe("62.50");
    expect(calls() - before).toBe(2);
    stand.prices.set("KO", 61.03);
  });

  it("20 concurrent lookups of one symbol make one upstream call", async () => {
    stand.prices.set("SFLT", 12.345);
    const { client } = await signUp(t, "flight");
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.get("/api/quotes/SFLT")));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.price))).toEqual(new Set(["12.345"]));
    expect(stand.quoteCalls.get("SFLT")).toBe(1);
  });

  it("when the provider fails, the last value is served marked stale; with none, a clear 502", async () => {
    let now = Date.parse("2026-11-24T16:00:00Z");
    const deps = quoteDeps({}, () => new Date(now));
    const fresh = await getQuote(deps, "MSFT");
    expect(fresh).toMatchObject({ price: "410.50", stale: false });
    stand.failing = true;
    try {
      now += QUOTE_TTL_MS + 1;
      expect(await getQuote(deps, "MSFT")).toEqual({ ...fresh, stale: true });
      await expect(getQuote(deps, "TSLA")).rejects.toMatchObject({ code: "QUOTE_PROVIDER_UNAVAILABLE", status: 502 });
    } finally {
      stand.failing = false;
    }
    now += QUOTE_TTL_MS + 1;
    expect(await getQuote(deps, "MSFT")).toEqual({ ...fresh, stale: false });
  });

  it.each([
    ["BUSY", {}, 503, "QUOTE_PROVIDER_BUSY"],
    ["BROKEN", {}, 502, "QUOTE_PROVIDER_UNAVAILABLE"],
    ["GARBAGE", {}, 502, "QUOTE_PROVIDER_UNAVAILABLE"],
    ["NONE", {}, 404, "NOT_FOUND"],
    ["AAPL", { STOCK_QUOTE_API_KEY: "refused-key" }, 502, "QUOTE_PROVIDER_REJECTED"],
    ["AAPL", { STOCK_QUOTE_BASE_URL: "http://127.0.0.1:9" }, 502, "QUOTE_PROVIDER_UNAVAILABLE"],
  ])("%s %j: the provider's failure is answered %i %s, never a 500", async (symbol, env, status, code) => {
    const app = await testApp(db.url, { ...stand.env, ...env }, { peer: "per-request" });
    const { client } = await signUp(app, "qerr");
    const res = await client.get(`/api/quotes/${symbol}`);
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error.code).toBe(code);
    expect(JSON.stringify(body)).not.toMatch(/refused-key|platform-quote-key|127\.0\.0\.1/);
    if (code === "QUOTE_PROVIDER_BUSY") expect(res.headers.get("retry-after")).toBe("17");
  });

  it.each(["AA PL", "A".repeat(13), "-X", "%00"])("symbol %j: 400 VALIDATION_ERROR, nothing sent", async (symbol) => {
    const { client } = await signUp(t, "qbad");
    const before = stand.quoteRequests.length;
    const res = await client.get(`/api/quotes/${encodeURIComponent(symbol)}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    expect(stand.quoteRequests.length).toBe(before);
  });

  it("30 lookups a minute per user: the 31st is 429 with Retry-After; another user is not held up", async () => {
    const app = await testApp(db.url, stand.env, { peer: "per-request" });
    // A fixed window aligned to the clock: run once more, by a new user, when the burst straddled its edge.
    const seen = await inOneWindow(60, async () => {
      const { client } = await signUp(app, "qlimit");
      const allowed: number[] = [];
      for (let i = 0; i < 30; i++) allowed.push((await client.get("/api/quotes/AAPL")).status);
      const limited = await client.get("/api/quotes/AAPL");
      return { allowed, status: limited.status, code: (await limited.json()).error?.code, retryAfter: Number(limited.headers.get("retry-after")) };
    });
    expect(seen.allowed).toEqual(Array(30).fill(200));
    expect(seen.status).toBe(429);
    expect(seen.code).toBe("RATE_LIMITED");
    expect(seen.retryAfter).toBeGreaterThan(0);
    const { client: other } = await signUp(app, "qlimit2");
    expect((await other.get("/api/quotes/AAPL")).status).toBe(200);
  });

  it(`keeps at most ${MAX_ENTRIES} symbols; the oldest is fetched again`, async () => {
    stand.quoteDelayMs = 0;
    try {
      const deps = quoteDeps();
      await getQuote(deps, "AAPL");
      const first = stand.quoteCalls.get("AAPL")!;
      await getQuote(deps, "AAPL");
      expect(stand.quoteCalls.get("AAPL")).toBe(first);
      for (let i = 0; i < MAX_ENTRIES; i += 100) {
        await Promise.all(Array.from({ length: 100 }, (_, k) => getQuote(deps, `C${i + k}`).catch(() => undefined)));
      }
      await getQuote(deps, "AAPL");
      expect(stand.quoteCalls.get("AAPL")).toBe(first + 1);
    } finally {
      stand.quoteDelayMs = 30;
    }
  });
});

describe("an open option strategy's underlying, priced", () => {
  it("GET /api/strategies/:id gives the underlying's delayed quote while the strategy is open; closed, or with quotes off, none", async () => {
    const app = await testApp(db.url, stand.env, { peer: "per-request" });
    const { client } = await signUp(app, "strategy-quote");
    const accountId = (await (await client.post("/api/accounts", { name: "Spreads", currency: "USD", startingBalance: "10000" })).json()).id as string;
    stand.prices.set("STRQ", 101.25);
    const fill = async (symbol: string, side: string, price: string, executedAt: string) =>
      expect((await client.post("/api/fills", { accountId, symbol, side, quantity: "1", price, executedAt })).status).toBe(201);
    await fill("STRQ  270115P00100000", "sell", "3.00", "2026-03-02T15:00:00Z");
    await fill("STRQ  270115P00095000", "buy", "1.00", "2026-03-02T15:00:10Z");
    const [open] = (await (await client.get("/api/strategies")).json()).strategies;
    const before = stand.quoteCalls.get("STRQ") ?? 0;
    const detail = await (await client.get(`/api/strategies/${open.id}`)).json();
    expect(detail.underlyingQuote).toEqual({ price: "101.25", asOf: new Date(1_764_000_000_000).toISOString(), stale: false });
    expect(stand.quoteCalls.get("STRQ")).toBe(before + 1);
    // Quotes off on the instance (no key): none, and nothing asked.
    const off = await testApp(db.url, { STOCK_QUOTE_BASE_URL: stand.url }, { peer: "per-request" });
    const other = (await signUp(off, "strategy-quote-off")).client;
    const offAccount = (await (await other.post("/api/accounts", { name: "Off", currency: "USD" })).json()).id as string;
    expect((await other.post("/api/fills", { accountId: offAccount, symbol: "STRQ  270115C00110000", side: "buy", quantity: "1", price: "2", executedAt: "2026-03-02T15:00:00Z" })).status).toBe(201);
    const [offStrategy] = (await (await other.get("/api/strategies")).json()).strategies;
    expect((await (await other.get(`/api/strategies/${offStrategy.id}`)).json()).underlyingQuote).toBeNull();
    expect(stand.quoteCalls.get("STRQ")).toBe(before + 1);
    // Closed: no quote.
    await fill("STRQ  270115P00100000", "buy", "1.00", "2026-03-03T15:00:00Z");
    await fill("STRQ  270115P00095000", "sell", "0.20", "2026-03-03T15:00:10Z");
    expect((await (await client.get(`/api/strategies/${open.id}`)).json()).underlyingQuote).toBeNull();
    expect(stand.quoteCalls.get("STRQ")).toBe(before + 1);
  });
});

describe("GET /api/trades?status=open&quotes=true", () => {
  it("values open stock positions at the quote with exact decimals, one upstream call per symbol; options, futures and closed trades are not priced", async () => {
    const app = await testApp(db.url, stand.env, { peer: "per-request" });
    const { client } = await signUp(app, "valued");
    const account = await client.post("/api/accounts", { name: "Valued", currency: "USD", startingBalance: "100000" });
    const accountId = (await account.json()).id as string;
    let clock = Date.parse("2026-03-02T14:30:00Z");
    const fill = async (body: Record<string, unknown>) => {
      const res = await client.post("/api/fills", { accountId, executedAt: new Date((clock += 60_000)).toISOString(), ...body });
      expect(res.status, await res.clone().text()).toBe(201);
    };
    stand.prices.set("VALA", 190.12);
    stand.prices.set("VALB", 250);
    stand.prices.set("VALC", 10);
    // Long 15 VALA at an average of 153.5333... (1502.50 + 800.50) / 15; then 5 sold: 10 left.
    await fill({ symbol: "VALA", side: "buy", quantity: "10", price: "150.25", fees: "1" });
    await fill({ symbol: "VALA", side: "buy", quantity: "5", price: "160.10", fees: "1" });
    await fill({ symbol: "VALA", side: "sell", quantity: "5", price: "170", fees: "1" });
    // Short 3 VALB at 260.
    await fill({ symbol: "VALB", side: "sell", quantity: "3", price: "260" });
    // A closed VALC trade, an open option and an open future.
    await fill({ symbol: "VALC", side: "buy", quantity: "1", price: "9" });
    await fill({ symbol: "VALC", side: "sell", quantity: "1", price: "9.5" });
    await fill({ symbol: "AAPL  270119C00150000", side: "buy", quantity: "1", price: "2.5" });
    await fill({ symbol: "ESZ6", side: "buy", quantity: "1", price: "6000" });
    const before = new Map(["VALA", "VALB", "VALC", "AAPL  270119C00150000", "AAPL"].map((s) => [s, stand.quoteCalls.get(s) ?? 0]));

    const res = await client.get(`/api/trades?accountId=${accountId}&status=open&quotes=true`);
    expect(res.status).toBe(200);
    const trades = (await res.json()).trades as Array<{ symbol: string; valuation: Record<string, unknown> | null }>;
    const by = Object.fromEntries(trades.map((x) => [x.symbol, x.valuation]));
    const asOf = new Date(1_764_000_000_000).toISOString();
    // 10 x 190.12 = 1901.20; cost 10 x 2303/15 = 1535.3333333333 (rounded once, at the end).
    expect(by.VALA).toEqual({ price: "190.12", asOf, stale: false, marketValue: "1901.20", unrealizedPnl: "365.8666666667" });
    // Short 3: value -750; P&L (260 - 250) x 3 = 30.
    expect(by.VALB).toEqual({ price: "250.00", asOf, stale: false, marketValue: "-750.00", unrealizedPnl: "30.00" });
    expect(by["AAPL  270119C00150000"]).toBeNull();
    const future = trades.find((x) => x.symbol.startsWith("ESZ"))!;
    expect(future.valuation).toBeNull();
    expect(Object.keys(by).sort()).toEqual(["AAPL  270119C00150000", future.symbol, "VALA", "VALB"].sort());
    for (const [s, n] of before) {
      const expected = s === "VALA" || s === "VALB" ? n + 1 : n;
      expect(stand.quoteCalls.get(s) ?? 0, s).toBe(expected);
    }

    // Without quotes=true, or with quotes off on the instance, no valuation is attached.
    const plain = (await (await client.get(`/api/trades?accountId=${accountId}&status=open`)).json()).trades;
    expect(plain[0]).not.toHaveProperty("valuation");
    const bad = await client.get(`/api/trades?accountId=${accountId}&quotes=yes`);
    expect(bad.status).toBe(400);
  });

  it("values a position only in its account's currency: a quote in USD never meets costs in EUR", async () => {
    const app = await testApp(db.url, stand.env, { peer: "per-request" });
    const { client } = await signUp(app, "valued-currency");
    const accounts: Record<string, string> = {};
    for (const currency of ["USD", "EUR"]) {
      accounts[currency] = (await (await client.post("/api/accounts", { name: `In ${currency}`, currency, startingBalance: "100000" })).json()).id;
    }
    stand.prices.set("CURA", 100);
    stand.prices.set("CURB", 50);
    stand.currencies.set("CURB", "eur");
    stand.prices.set("CURC", 20);
    stand.currencies.set("CURC", null); // the provider does not say: its listings are in USD
    for (const [currency, accountId] of Object.entries(accounts)) {
      for (const symbol of ["CURA", "CURB", "CURC"]) {
        const res = await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "2", price: "10", executedAt: "2026-03-02T15:00:00Z" });
        expect(res.status, `${currency} ${symbol}`).toBe(201);
      }
    }
    const valued = async (currency: string) => {
      const res = await client.get(`/api/trades?accountId=${accounts[currency]}&status=open&quotes=true`);
      expect(res.status).toBe(200);
      const trades = (await res.json()).trades as Array<{ symbol: string; valuation: { marketValue: string } | null }>;
      return Object.fromEntries(trades.map((x) => [x.symbol, x.valuation?.marketValue ?? null]));
    };
    expect(await valued("USD")).toEqual({ CURA: "200.00", CURB: null, CURC: "40.00" });
    expect(await valued("EUR")).toEqual({ CURA: null, CURB: "100.00", CURC: null });
    // The quote says what it is in.
    expect(await (await client.get("/api/quotes/CURB")).json()).toMatchObject({ price: "50.00", currency: "EUR" });
    expect(await (await client.get("/api/quotes/CURC")).json()).toMatchObject({ price: "20.00", currency: "USD" });
  });

  it("quotes off: the same request lists the trades without valuations and calls nobody", async () => {
    const off = await testApp(db.url, { STOCK_QUOTE_BASE_URL: stand.url }, { peer: "per-request" });
    const { client } = await signUp(off, "valued-off");
    const accountId = (await (await client.post("/api/accounts", { name: "Off", currency: "USD", startingBalance: "1000" })).json()).id;
    await client.post("/api/fills", { accountId, symbol: "AAPL", side: "buy", quantity: "1", price: "100", executedAt: "2026-03-02T15:00:00Z" });
    const before = stand.quoteRequests.length;
    const res = await client.get(`/api/trades?status=open&quotes=true`);
    expect(res.status).toBe(200);
    expect((await res.json()).trades[0]).not.toHaveProperty("valuation");
    expect(stand.quoteRequests.length).toBe(before);
  });
});
