// A local stand-in for the bar provider (Polygon.io's aggregates API, docs/charts.md), at BARS_BASE_URL.
// Every regular-hours minute of a weekday has a bar, minute i after 09:30 New York priced
// open (10000 + i) / 100, high open + 0.02, low open - 0.02, close open + 0.01; daily bars open 100 + the day
// of the month. What a symbol or key asks for:
//   key "invalid401" -> 401 everywhere; key "revoked" -> the probe passes, bar requests 401
//   symbol "GAPS" -> minutes 10 to 19 missing; "RATE" -> 429 (Retry-After: 1) on the first request of each
//   day, then bars; "FAIL" -> 500; "HANG" -> never answers; "NOPLAN" -> 403 (beyond the key's plan);
//   "EMPTY" -> no bars (a holiday)
// It counts requests per symbol and day, so tests can see that each day is fetched once.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import { zonedTimeToUtc } from "../../lib/time/zoned.ts";

export type BarsServer = {
  url: string;
  env: { BARS_BASE_URL: string };
  /** Bar requests received, by "SYMBOL minute|day FROM". */
  requests: Map<string, number>;
  /** Every Authorization header seen (to check that a key is never put in a URL). */
  urls: string[];
  close(): Promise<void>;
};

/** The stand-in's price of minute `i` after 09:30 New York (open). */
export const minuteOpen = (i: number) => (10000 + i) / 100;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function minuteBars(symbol: string, day: string) {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  if (weekday === 0 || weekday === 6 || symbol === "EMPTY") return [];
  const start = zonedTimeToUtc({ year: y, month: m, day: d, hour: 9, minute: 30, second: 0, millisecond: 0 }, "America/New_York").getTime();
  const out = [];
  for (let i = 0; i < 390; i++) {
    if (symbol === "GAPS" && i >= 10 && i < 20) continue;
    const o = minuteOpen(i);
    out.push({ t: start + i * 60_000, o, h: Math.round((o + 0.02) * 100) / 100, l: Math.round((o - 0.02) * 100) / 100, c: Math.round((o + 0.01) * 100) / 100, v: 1000, n: 10, vw: o });
  }
  return out;
}

function dayBars(from: string, to: string) {
  const out = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const date = new Date(t);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const o = 100 + date.getUTCDate();
    const start = zonedTimeToUtc({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: 0, minute: 0, second: 0, millisecond: 0 }, "America/New_York");
    out.push({ t: start.getTime(), o, h: o + 2, l: o - 1, c: o + 1, v: 1_000_000 });
  }
  return out;
}

export async function startBarsServer(): Promise<BarsServer> {
  const requests = new Map<string, number>();
  const urls: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    urls.push(url.pathname + url.search);
    const key = req.headers.authorization?.replace(/^Bearer /, "") ?? null;
    if (!key || key.includes("invalid401")) return send(res, 401, { status: "ERROR", error: "Unknown API Key" });
    if (url.pathname === "/v2/aggs/ticker/AAPL/prev") {
      return send(res, 200, { ticker: "AAPL", status: "OK", resultsCount: 1, results: [{ T: "AAPL", t: 1_772_485_200_000, o: 190, h: 192, l: 189, c: 191, v: 1e6 }] });
    }
    const match = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/(minute|day)\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(url.pathname);
    if (!match) return send(res, 404, { status: "NOT_FOUND" });
    const [, rawSymbol, span, from, to] = match as unknown as [string, string, string, string, string];
    const symbol = decodeURIComponent(rawSymbol);
    const name = `${symbol} ${span} ${from}`;
    const seen = requests.get(name) ?? 0;
    requests.set(name, seen + 1);
    if (key.includes("revoked")) return send(res, 401, { status: "ERROR", error: "Unknown API Key" });
    if (symbol === "HANG") return; // never answers
    if (symbol === "FAIL") return send(res, 500, { status: "ERROR", error: "internal" });
    if (symbol === "NOPLAN") return send(res, 403, { status: "NOT_AUTHORIZED", message: "Your plan doesn't include this data timeframe." });
    if (symbol === "RATE" && seen === 0) return send(res, 429, { status: "ERROR", error: "You've exceeded the maximum requests per minute" }, { "Retry-After": "1" });
    const results = span === "minute" ? minuteBars(symbol, from) : dayBars(from, to);
    return send(res, 200, { ticker: symbol, queryCount: results.length, resultsCount: results.length, adjusted: false, status: "OK", results });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { BARS_BASE_URL: url },
    requests,
    urls,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
