// A local stand-in for Interactive Brokers' Flex Web Service (version 3) at FLEX_BASE_URL, built from its
// public documentation: GET /AccountManagement/FlexWebService/SendRequest?t=<token>&q=<query id>&v=3 answers a
// <FlexStatementResponse> with Status Success and a ReferenceCode (or Fail with an ErrorCode and message);
// GET .../GetStatement?t=<token>&q=<reference code>&v=3 answers "in progress" (Warn, 1019) until the statement
// is ready, then the statement itself (XML <FlexQueryResponse> or CSV, as the query is set up).
// What a token asks for:
//   "expired…" -> 1012 (token expired); "invalid…" -> 1015; "throttled…" -> 1018 on its first SendRequest
// What a query id asks for: "404" -> 1014 (query invalid); anything else is served `statement`.
// The test sets `statement` (the text served), `pendingPolls` (in-progress answers before it), and `mode`:
// "ok", "malformed" (not XML), "cut" (the connection dropped halfway through the statement).
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FlexServer = {
  url: string;
  env: { FLEX_BASE_URL: string; FLEX_POLL_MS: string };
  /** The statement GetStatement serves once ready. */
  statement: string;
  /** How many "in progress" answers a new reference code gets before its statement. */
  pendingPolls: number;
  mode: "ok" | "malformed" | "cut";
  /** Tokens the service now calls expired (1012), as when IBKR's token lapses after the connection was made. */
  expired: Set<string>;
  /** A statement per token (its own account's), served instead of `statement`. */
  statements: Map<string, string>;
  /** The next this-many SendRequests are throttled (1018). */
  throttle: number;
  /** Every request: its step, t and q, and the User-Agent. */
  requests: Array<{ step: string; t: string; q: string; userAgent: string }>;
  close(): Promise<void>;
};

const envelope = (status: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<FlexStatementResponse timestamp="19 January, 2024 05:30 PM EST">\n<Status>${status}</Status>\n${body}\n</FlexStatementResponse>\n`;
const fail = (code: string, message: string) => envelope("Fail", `<ErrorCode>${code}</ErrorCode>\n<ErrorMessage>${message}</ErrorMessage>`);

function send(res: ServerResponse, body: string, type = "text/xml") {
  res.writeHead(200, { "Content-Type": `${type}; charset=utf-8` });
  res.end(body);
}

/** One Trade element as a Flex Activity statement writes it (the attributes the ibkr-flex preset reads). */
export function flexTrade(t: { symbol: string; side: "BUY" | "SELL"; quantity: string; price: string; commission: string; dateTime: string; execId: string; assetCategory?: string; currency?: string; multiplier?: string; fxRateToBase?: string }): string {
  const signed = t.side === "SELL" ? `-${t.quantity}` : t.quantity;
  return `<Trade accountId="U1234567" currency="${t.currency ?? "USD"}" assetCategory="${t.assetCategory ?? "STK"}" symbol="${t.symbol}" description="${t.symbol} &amp; CO" conid="265598" tradeID="${t.execId.slice(-6)}" multiplier="${t.multiplier ?? "1"}" strike="" expiry="" dateTime="${t.dateTime}" putCall="" tradeDate="${t.dateTime.slice(0, 8)}" exchange="NASDAQ" quantity="${signed}" tradePrice="${t.price}" proceeds="0" ibCommission="-${t.commission}" ibCommissionCurrency="USD" netCash="0" openCloseIndicator="O" buySell="${t.side}" ibOrderID="1" ibExecID="${t.execId}" levelOfDetail="EXECUTION"${t.fxRateToBase ? ` fxRateToBase="${t.fxRateToBase}"` : ""} />`;
}

/** A Flex Activity statement (XML) holding these Trade elements; with `base`, an Account Information section naming that base currency. */
export function flexStatement(trades: string[], base?: string): string {
  const info = base ? `<AccountInformation accountId="U1234567" acctAlias="" currency="${base}" name="Jane Trader" accountType="Individual" />\n` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<FlexQueryResponse queryName="Journal" type="AF">\n<FlexStatements count="1">\n<FlexStatement accountId="U1234567" fromDate="20240119" toDate="20240119" period="LastBusinessDay" whenGenerated="20240120;083015">\n${info}<Trades>\n${trades.join("\n")}\n</Trades>\n</FlexStatement>\n</FlexStatements>\n</FlexQueryResponse>\n`;
}

export async function startFlexServer(): Promise<FlexServer> {
  const pending = new Map<string, number>();
  const throttled = new Set<string>();
  let next = 1000;
  const state: Omit<FlexServer, "url" | "env" | "close"> = { statement: flexStatement([]), pendingPolls: 0, mode: "ok", expired: new Set(), requests: [], statements: new Map(), throttle: 0 };
  /** The token each reference code was given to: its statement is that token's. */
  const tokenOf = new Map<string, string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://flex");
    const t = url.searchParams.get("t") ?? "";
    const q = url.searchParams.get("q") ?? "";
    const step = url.pathname.replace("/AccountManagement/FlexWebService/", "");
    state.requests.push({ step, t, q, userAgent: req.headers["user-agent"] ?? "" });
    if (url.searchParams.get("v") !== "3" || !url.pathname.startsWith("/AccountManagement/FlexWebService/")) return send(res, fail("1020", "Invalid request or unable to validate request."));
    if (t.startsWith("expired") || state.expired.has(t)) return send(res, fail("1012", "Token has expired."));
    if (t.startsWith("invalid")) return send(res, fail("1015", "Token is invalid."));
    if (step === "SendRequest") {
      if (state.throttle > 0) {
        state.throttle--;
        return send(res, fail("1018", "Too many requests have been made from this token. Please try again shortly."));
      }
      if (t.startsWith("throttled") && !throttled.has(t)) {
        throttled.add(t);
        return send(res, fail("1018", "Too many requests have been made from this token. Please try again shortly."));
      }
      if (q === "404") return send(res, fail("1014", "Query is invalid."));
      const code = String(next++);
      pending.set(code, state.pendingPolls);
      tokenOf.set(code, t);
      return send(res, envelope("Success", `<ReferenceCode>${code}</ReferenceCode>\n<Url>https://gdcdyn.interactivebrokers.com/Universal/servlet/FlexStatementService.GetStatement</Url>`));
    }
    if (step === "GetStatement") {
      const left = pending.get(q);
      if (left === undefined) return send(res, fail("1017", "Reference code is invalid."));
      if (left > 0) {
        pending.set(q, left - 1);
        return send(res, envelope("Warn", "<ErrorCode>1019</ErrorCode>\n<ErrorMessage>Statement generation in progress. Please try again shortly.</ErrorMessage>"));
      }
      if (state.mode === "malformed") return send(res, "<FlexQueryResponse><FlexStatements><Trade symbol=\"AAPL\"");
      if (state.mode === "cut") {
        res.writeHead(200, { "Content-Type": "text/xml", "Content-Length": String(state.statement.length) });
        res.write(state.statement.slice(0, Math.floor(state.statement.length / 2)));
        return setTimeout(() => res.socket?.destroy(), 20);
      }
      const statement = state.statements.get(tokenOf.get(q) ?? "") ?? state.statement;
      return send(res, statement, statement.startsWith("<") ? "text/xml" : "text/csv");
    }
    return send(res, fail("1020", "Invalid request or unable to validate request."));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    env: { FLEX_BASE_URL: url, FLEX_POLL_MS: "10" },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
