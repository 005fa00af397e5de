// One local HTTP server standing in for the regulator's ticker file and for the delayed-quote provider.
//
// Ticker files (GET), in the regulator's two shapes:
//   /tickers/exchange.json  company_tickers_exchange.json: {fields, data}   (SMALL_TICKERS)
//   /tickers/plain.json     company_tickers.json: {"0": {cik_str, ticker, title}, ...}
//   /tickers/big.json       10,000 rows in the exchange shape (bigTickers())
//   /tickers/malformed.json not JSON
//   /tickers/slow.json      the exchange file, sent after `slowMs` (default 400 ms)
//   /tickers/stall.json     headers, half a file, then nothing
//   /tickers/huge.json      more bytes than the loader's cap, chunked (no Content-Length)
//   /tickers/down.json      503
// Quotes: GET /v1/stockprice?ticker=X with X-Api-Key, API Ninjas' shape {ticker, name, price, exchange,
// updated, currency}. Prices come from `prices` (settable), currencies from `currencies` (USD unless set;
// null leaves the field out); "BUSY" -> 429, "BROKEN" -> 500, "GARBAGE" -> a body that is
// not JSON, "NONE" -> [] (unknown ticker); the key "refused-key" -> 401; `failing = true` -> every call 502.
// Each quote call takes `quoteDelayMs` (default 30 ms), so concurrent lookups overlap.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const SMALL_TICKERS: Array<[number, string, string, string]> = [
  [320193, "Apple Inc.", "AAPL", "Nasdaq"],
  [1018724, "AMAZON COM INC", "AMZN", "Nasdaq"],
  [789019, "MICROSOFT CORP", "MSFT", "Nasdaq"],
  [21344, "COCA COLA CO", "KO", "NYSE"],
  [1067983, "BERKSHIRE HATHAWAY INC", "BRK-B", "NYSE"],
  [1067983, "BERKSHIRE HATHAWAY INC", "BRK-A", "NYSE"],
  [37996, "FORD MOTOR CO", "F", "NYSE"],
  [1424929, "FIRST AMERICAN FINANCIAL Corp", "FAF", "NYSE"],
  [1800, "ABBOTT LABORATORIES", "ABT", "NYSE"],
  [1551152, "AbbVie Inc.", "ABBV", "NYSE"],
  [1467858, "General Motors Co", "GM", "NYSE"],
  [40545, "GENERAL ELECTRIC CO", "GE", "NYSE"],
  [1652044, "Alphabet Inc.", "GOOGL", "Nasdaq"],
  [1652044, "Alphabet Inc.", "GOOG", "Nasdaq"],
  [1045810, "NVIDIA CORP", "NVDA", "Nasdaq"],
  [1318605, "Tesla, Inc.", "TSLA", "Nasdaq"],
  [884394, "SPDR S&P 500 ETF TRUST", "SPY", "NYSE"],
  [1326801, "Meta Platforms, Inc.", "META", "Nasdaq"],
  // Not tickers: skipped.
  [1, "No ticker", "", "NYSE"],
  [2, "", "EMPTY", "NYSE"],
  [3, "Spaces", "HAS SPACE", "NYSE"],
];

export function exchangeFile(rows: ReadonlyArray<[number, string, string, string | null]>): string {
  return JSON.stringify({ fields: ["cik", "name", "ticker", "exchange"], data: rows });
}

/** 10,000 distinct tickers: AAAA..., with three-word names. */
export function bigTickers(count = 10_000): Array<[number, string, string, string]> {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const rows: Array<[number, string, string, string]> = [];
  for (let i = 0; i < count; i++) {
    let n = i;
    let ticker = "";
    for (let k = 0; k < 4; k++) {
      ticker = letters[n % 26] + ticker;
      n = Math.floor(n / 26);
    }
    rows.push([100_000 + i, `Company ${ticker} Holdings ${i % 7 === 0 ? "Group" : "Inc"}`, `Z${ticker}`, i % 2 ? "Nasdaq" : "NYSE"]);
  }
  return rows;
}

export type MarketServer = {
  url: string;
  tickersUrl(name: string): string;
  /** Ticker-file requests: path and the User-Agent they carried. */
  tickerRequests: Array<{ path: string; userAgent: string | undefined }>;
  /** Quote calls per ticker. */
  quoteCalls: Map<string, number>;
  quoteRequests: Array<{ ticker: string; key: string | undefined }>;
  prices: Map<string, number | string>;
  /** A quote's `currency` per ticker (USD when absent; null leaves the field out). */
  currencies: Map<string, string | null>;
  failing: boolean;
  quoteDelayMs: number;
  slowMs: number;
  env: Record<string, string>;
  close(): Promise<void>;
};

export async function startMarketServer(): Promise<MarketServer> {
  const big = exchangeFile(bigTickers());
  const small = exchangeFile(SMALL_TICKERS);
  const plain = JSON.stringify(Object.fromEntries(SMALL_TICKERS.map(([cik, name, ticker], i) => [String(i), { cik_str: cik, ticker, title: name }])));
  const open = new Set<ServerResponse>();
  const json = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(body);
  };
  const state: Pick<MarketServer, "tickerRequests" | "quoteCalls" | "quoteRequests" | "prices" | "currencies" | "failing" | "quoteDelayMs" | "slowMs"> = {
    tickerRequests: [],
    quoteCalls: new Map(),
    quoteRequests: [],
    prices: new Map<string, number | string>([
      ["AAPL", 190.12],
      ["MSFT", 410.5],
      ["KO", 61.03],
      ["TSLA", 250],
    ]),
    currencies: new Map(),
    failing: false,
    quoteDelayMs: 30,
    slowMs: 400,
  };
  const server = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname.startsWith("/tickers/")) {
      state.tickerRequests.push({ path: url.pathname, userAgent: req.headers["user-agent"] });
      switch (url.pathname) {
        case "/tickers/exchange.json":
          return json(res, 200, small);
        case "/tickers/plain.json":
          return json(res, 200, plain);
        case "/tickers/big.json":
          return json(res, 200, big);
        case "/tickers/malformed.json":
          return json(res, 200, '{"fields": ["cik", "name", "ticker"], "data": [[1, "Broken');
        case "/tickers/slow.json":
          setTimeout(() => json(res, 200, small), state.slowMs);
          return;
        case "/tickers/stall.json":
          res.writeHead(200, { "Content-Type": "application/json" });
          res.write(small.slice(0, 100));
          return;
        case "/tickers/huge.json": {
          res.writeHead(200, { "Content-Type": "application/json" });
          const chunk = " ".repeat(1024 * 1024);
          let sent = 0;
          const pump = () => {
            while (sent < 20 && res.write(chunk)) sent++;
            if (sent >= 20) res.end("{}");
            else res.once("drain", pump);
          };
          pump();
          return;
        }
        case "/tickers/down.json":
          return json(res, 503, '{"error":"maintenance"}');
      }
      return json(res, 404, "{}");
    }
    if (url.pathname === "/v1/stockprice") {
      const ticker = url.searchParams.get("ticker") ?? "";
      const key = req.headers["x-api-key"] as string | undefined;
      state.quoteRequests.push({ ticker, key });
      state.quoteCalls.set(ticker, (state.quoteCalls.get(ticker) ?? 0) + 1);
      setTimeout(() => {
        if (key === "refused-key") return json(res, 401, '{"error": "Invalid API Key."}');
        if (state.failing) return json(res, 502, '{"error": "upstream"}');
        if (ticker === "BUSY") {
          res.writeHead(429, { "Content-Type": "application/json", "Retry-After": "17" });
          return res.end('{"error": "Too many requests"}');
        }
        if (ticker === "BROKEN") return json(res, 500, '{"error": "oops"}');
        if (ticker === "GARBAGE") return json(res, 200, "<html>maintenance</html>");
        const price = state.prices.get(ticker);
        if (price === undefined) return json(res, 200, "[]");
        const currency = state.currencies.has(ticker) ? state.currencies.get(ticker) : "USD";
        json(res, 200, JSON.stringify({ ticker, name: `${ticker} Inc.`, price, exchange: "NASDAQ", updated: 1_764_000_000, ...(currency === null ? {} : { currency }) }));
      }, state.quoteDelayMs);
      return;
    }
    json(res, 404, "{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const self = state as MarketServer;
  self.url = url;
  self.tickersUrl = (name) => `${url}/tickers/${name}`;
  self.env = { STOCK_QUOTE_API_KEY: "platform-quote-key", STOCK_QUOTE_BASE_URL: url, REGULATOR_TICKERS_URL: `${url}/tickers/exchange.json` };
  self.close = () =>
    new Promise<void>((resolve) => {
      for (const res of open) res.destroy();
      server.close(() => resolve());
    });
  return self;
}
