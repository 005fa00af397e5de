// `npm run seed:demo [-- --url http://127.0.0.1:3100] [--email demo@example.com]`: fills a running journal
// with a demo trader, so a newcomer sees the dashboard, trades and ledger with data in them. It goes through
// the public API only (register or sign in, an account, a CSV import through the generic preset, a deposit,
// journal notes), so it works the same on the embedded database, a local Postgres or a deployed instance,
// and never touches the database behind the server's back. The history is generated from a fixed seed:
// every run imports the same trades, into a new account of the same user.
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { findPreset } from "../lib/imports/presets.ts";
import { isNyseTradingDay } from "../lib/time/nyse.ts";
import { zonedTimeToUtc } from "../lib/time/zoned.ts";

export type SeedOptions = { url: string; email: string; password: string; trades?: number; now?: Date };
export type SeedResult = { email: string; accountId: string; fills: number; created: "registered" | "signed in" };

const SYMBOLS = [
  { symbol: "AAPL", price: 190 },
  { symbol: "MSFT", price: 420 },
  { symbol: "NVDA", price: 120 },
  { symbol: "SPY", price: 560 },
  { symbol: "TSLA", price: 240 },
  { symbol: "AMD", price: 150 },
];
const SETUPS = ["breakout", "pullback", "reversal", "gap and go"];
const GENERIC_HEADER = findPreset("generic")!.headers.join(",");

/** A small deterministic PRNG (mulberry32): the same demo history on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw from two uniform ones (Box-Muller). */
function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

const NEW_YORK = "America/New_York";
/** A New York wall time on a calendar day ("YYYY-MM-DD"), minutes after midnight, as an instant. */
function newYorkTime(date: string, minutes: number): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return zonedTimeToUtc({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }, NEW_YORK).getTime() + minutes * 60_000;
}

/** The exchange's trading days before `now` (New York calendar), oldest first. */
function tradingDaysBefore(now: Date, count: number): string[] {
  const days: string[] = [];
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  while (days.length < count) {
    day.setUTCDate(day.getUTCDate() - 1);
    const date = day.toISOString().slice(0, 10);
    if (isNyseTradingDay(date)) days.push(date);
  }
  return days.reverse();
}

/**
 * Round trips on the exchange's trading days before `now` (no weekends, no NYSE holidays), two a day from
 * 09:35 New York, in the generic preset's format: an entry and an exit per trade, long or short, winners and
 * losers. Each symbol's price walks from day to day (about 1.5 % a day) and a trade moves it a little (about
 * 1 %), as a market does. A day's trades follow one another, so each round trip is one closed trade.
 */
export function demoCsv(trades: number, now: Date): string {
  const next = random(20261123);
  const lines = [GENERIC_HEADER];
  const prices = new Map(SYMBOLS.map((s) => [s.symbol, s.price]));
  let id = 0;
  let cursor = 0;
  const days = tradingDaysBefore(now, Math.ceil(trades / 2));
  for (let i = 0; i < trades; i++) {
    const date = days[Math.floor(i / 2)]!;
    if (i % 2 === 0) {
      for (const [symbol, price] of prices) prices.set(symbol, price * (1 + 0.015 * normal(next)));
      cursor = newYorkTime(date, 9 * 60 + 35);
    }
    const { symbol } = SYMBOLS[Math.floor(next() * SYMBOLS.length)]!;
    const entryPrice = prices.get(symbol)! * (1 + 0.004 * normal(next));
    const move = (next() - 0.45) * 0.02; // a slight edge: more winners than losers
    const long = next() < 0.7;
    const exitPrice = entryPrice * (1 + (long ? move : -move));
    const quantity = 10 * (1 + Math.floor(next() * 10));
    const opened = new Date(cursor + (1 + Math.floor(next() * 60)) * 60_000);
    const closed = new Date(opened.getTime() + (5 + Math.floor(next() * 80)) * 60_000);
    cursor = closed.getTime();
    const fees = (quantity * 0.005).toFixed(2);
    const row = (at: Date, side: "BUY" | "SELL", p: number) =>
      `${at.toISOString()},${symbol},${side},${quantity},${p.toFixed(2)},${fees},DEMO-${String(++id).padStart(5, "0")}`;
    lines.push(row(opened, long ? "BUY" : "SELL", entryPrice), row(closed, long ? "SELL" : "BUY", exitPrice));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * What the demo trader wrote on a trade, in keeping with how it went: a winner rates 4 or 5 and may be
 * "a-plus", a small loss 3, a larger one 1 or 2 with "mistake"; under 20 minutes is a "scalp".
 */
export function demoJournal(trade: { netPnl: string; openedAt: string; closedAt: string | null }, setup: string, pick: () => number, noted: boolean) {
  const net = Number(trade.netPnl);
  const rating = net > 0 ? (pick() < 0.6 ? 5 : 4) : net > -40 ? 3 : pick() < 0.5 ? 2 : 1;
  const held = trade.closedAt ? (Date.parse(trade.closedAt) - Date.parse(trade.openedAt)) / 60_000 : Infinity;
  const tags = [setup.replace(/ /g, "-"), ...(rating >= 4 ? ["a-plus"] : rating <= 2 ? ["mistake"] : []), ...(held < 20 ? ["scalp"] : [])];
  const notes = rating <= 2 ? "Demo note: held on past the plan's exit." : noted ? "Demo note: followed the plan." : null;
  return { setup, tags, rating, notes };
}

/** A cookie-keeping client of the API, sending the anti-CSRF token when the instance runs in cross-origin mode. */
function apiClient(base: string) {
  let cookie = "";
  let csrfToken: string | undefined;
  return async function call(method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (cookie) headers.Cookie = cookie;
    if (csrfToken && method !== "GET") headers["X-CSRF-Token"] = csrfToken;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${base}${path}`, { method, headers, body: payload });
    const set = res.headers.getSetCookie().map((c) => c.split(";")[0]!).filter((c) => !c.endsWith("="));
    if (set.length) cookie = set.join("; ");
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (typeof parsed.csrfToken === "string") csrfToken = parsed.csrfToken;
    return { status: res.status, body: parsed };
  };
}

type Answer = { status: number; body: Record<string, unknown> };

/** The body of an answer with the expected status, typed as the caller knows it; anything else throws. */
function expectStatus<T>(res: Answer, status: number, what: string): T {
  if (res.status !== status) {
    const error = (res.body.error ?? {}) as { code?: string; message?: string };
    throw new Error(`${what}: the API answered ${res.status} ${error.code ?? ""} ${error.message ?? ""}`.trim());
  }
  return res.body as T;
}

export async function seedDemo(options: SeedOptions): Promise<SeedResult> {
  const base = options.url.replace(/\/$/, "");
  const now = options.now ?? new Date();
  const call = apiClient(base);
  const credentials = { email: options.email, password: options.password };

  let created: SeedResult["created"] = "registered";
  const registered = await call("POST", "/api/auth/register", credentials);
  if (registered.status !== 201) {
    // Already there (409), or sign-up is closed (403): sign in instead.
    expectStatus(await call("POST", "/api/auth/login", credentials), 200, `Signing in as ${options.email} (register answered ${registered.status})`);
    created = "signed in";
  }

  // "Demo", or "Demo 2", "Demo 3"... when the user already has one.
  let account: { id: string } | undefined;
  for (let n = 1; !account; n++) {
    const body = { name: n === 1 ? "Demo" : `Demo ${n}`, currency: "USD", startingBalance: "25000", timezone: "America/New_York" };
    const res = await call("POST", "/api/accounts", body);
    if (res.status === 409 && n < 100) continue;
    account = expectStatus<{ id: string }>(res, 201, "Creating the demo account");
  }

  const form = new FormData();
  form.set("file", new Blob([demoCsv(options.trades ?? 120, now)], { type: "text/csv" }), "demo-trades.csv");
  form.set("request", JSON.stringify({ accountId: account.id, presetId: "generic" }));
  const preview = expectStatus<{ importId: string }>(await call("POST", "/api/csv-import/preview", form), 201, "Previewing the demo import");
  const committed = expectStatus<{ fillsCreated: number }>(
    await call("POST", "/api/csv-import/commit", { importId: preview.importId }),
    200,
    "Committing the demo import",
  );

  const ledger = `/api/ledger/${account.id}/entries`;
  expectStatus(await call("POST", ledger, { type: "deposit", amount: "5000", note: "Demo: monthly top-up" }), 201, "Recording a deposit");
  expectStatus(await call("POST", ledger, { type: "withdrawal", amount: "1200", note: "Demo: taxes" }), 201, "Recording a withdrawal");

  // Journal the most recent trades, so the breakdowns by tag and setup have something to show.
  const { trades } = expectStatus<{ trades: Array<{ id: string; netPnl: string; openedAt: string; closedAt: string | null }> }>(
    await call("GET", `/api/trades?accountId=${account.id}&pageSize=40`),
    200,
    "Listing the demo trades",
  );
  const pick = random(7);
  for (const [i, trade] of trades.entries()) {
    const setup = SETUPS[i % SETUPS.length]!;
    expectStatus(await call("PATCH", `/api/trades/${trade.id}`, demoJournal(trade, setup, pick, i % 3 === 0)), 200, "Journaling a demo trade");
  }
  return { email: options.email, accountId: account.id, fills: committed.fillsCreated, created };
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: "string", default: "http://127.0.0.1:3100" },
      email: { type: "string", default: "demo@example.com" },
      password: { type: "string", default: "demo password" },
      trades: { type: "string", default: "120" },
    },
  });
  try {
    const result = await seedDemo({ url: values.url, email: values.email, password: values.password, trades: Number(values.trades) });
    console.log(
      `Demo data in ${values.url}: ${result.fills} fills in a new account (${result.accountId}) of ${result.email} (${result.created}).\n` +
        `Sign in with ${result.email} and the password "${values.password}" (a demo password: change it, or use --password, on anything others can reach).`,
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    if (err instanceof TypeError) console.error(`Is the journal running at ${values.url}? Start it with npm run dev.`);
    process.exit(1);
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) await main();
