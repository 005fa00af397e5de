// Local stand-ins for three brokers' APIs, on one server (their paths do not meet), each built from its
// provider's documentation (docs/imports.md, "Broker sync") and checking authentication as the provider does:
// - Alpaca (ALPACA_BASE_URL): APCA-API-KEY-ID and APCA-API-SECRET-KEY must be a known pair, else 401
//   {"code":40110000,"message":"request is not authorized"}; GET /v2/account, GET /v2/account/activities/FILL
//   with direction, after (exclusive), page_size (100 at most) and page_token (the page starts after that id).
// - Kraken (KRAKEN_BASE_URL): POST /0/private/TradesHistory with API-Key and API-Sign, the signature recomputed
//   from the key's secret over the path and SHA-256(nonce + body); a nonce not above the key's last is refused;
//   trades newest first, 50 a page, ofs, start (exclusive) and end (inclusive) as unix times.
// - Coinbase (COINBASE_BASE_URL): every request's JWT verified with the key's public key (ES256, iss "cdp",
//   sub and kid the key's name, uri "GET api.coinbase.com<path>" without the query, exp at most 120 s after
//   nbf, a nonce never seen before), else 401 "Unauthorized"; key_permissions and historical fills paged by
//   cursor (empty on the last page).
// Each provider's `throttle` answers that many next requests with its rate-limit answer (429, or Kraken's
// "EAPI:Rate limit exceeded"); `revoke` makes a key refused from then on.
import { createHash, createHmac, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader, jwtVerify } from "jose";
import type { AlpacaFill } from "../../lib/sync/adapters/alpaca.ts";
import type { CoinbaseFill } from "../../lib/sync/adapters/coinbase.ts";
import type { KrakenTrade } from "../../lib/sync/adapters/kraken.ts";

type Provider<K> = {
  keys: Map<string, K>;
  revoked: Set<string>;
  /** The next this-many requests get the provider's rate-limit answer. */
  throttle: number;
  /** Each request's path and query (the tests read the cursor off them). */
  requests: string[];
};

export type BrokerServer = {
  url: string;
  env: { ALPACA_BASE_URL: string; KRAKEN_BASE_URL: string; COINBASE_BASE_URL: string; BROKER_RETRY_MS: string };
  /** Each provider's executions by the account (the stand-in's own name for it) a key opens. */
  /** `truncated`: the fills answer is cut off halfway (a dropped connection behind a proxy that sent its head). */
  alpaca: Provider<{ secret: string; accountNumber: string }> & { fills: Map<string, AlpacaFill[]>; truncated: boolean };
  kraken: Provider<{ secret: string; lastNonce: bigint; account: string }> & { trades: Map<string, Array<KrakenTrade & { txid: string }>> };
  coinbase: Provider<{ publicKey: KeyObject; account: string }> & { fills: Map<string, CoinbaseFill[]>; permissions: { can_view: boolean } };
  /** A new Alpaca key pair opening `account`. */
  alpacaKey(account: string): { keyId: string; secret: string };
  /** A new Kraken key opening `account`: its id and base64 secret. */
  krakenKey(account: string): { key: string; secret: string };
  /** A new Coinbase CDP key opening `account`: its name and SEC1 PEM private key, its public key known to the stand-in. */
  coinbaseKey(account: string): { keyName: string; privateKey: string };
  close(): Promise<void>;
};

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const provider = <K>(): Provider<K> => ({ keys: new Map(), revoked: new Set(), throttle: 0, requests: [] });

export async function startBrokerServer(): Promise<BrokerServer> {
  const usedNonces = new Set<string>();
  let serial = 0;
  const state = {
    alpaca: { ...provider<{ secret: string; accountNumber: string }>(), fills: new Map<string, AlpacaFill[]>(), truncated: false },
    kraken: { ...provider<{ secret: string; lastNonce: bigint; account: string }>(), trades: new Map<string, Array<KrakenTrade & { txid: string }>>() },
    coinbase: { ...provider<{ publicKey: KeyObject; account: string }>(), fills: new Map<string, CoinbaseFill[]>(), permissions: { can_view: true } },
  };

  function alpaca(req: IncomingMessage, url: URL, res: ServerResponse) {
    const s = state.alpaca;
    s.requests.push(url.pathname + url.search);
    if (s.throttle > 0) {
      s.throttle--;
      return json(res, 429, { message: "rate limit exceeded" });
    }
    const keyId = String(req.headers["apca-api-key-id"] ?? "");
    const key = s.keys.get(keyId);
    if (!key || s.revoked.has(keyId) || req.headers["apca-api-secret-key"] !== key.secret) return json(res, 401, { code: 40110000, message: "request is not authorized" });
    if (url.pathname === "/v2/account") return json(res, 200, { id: "904837e3-3b76-47ec-b432-046db621571b", account_number: key.accountNumber, status: "ACTIVE", currency: "USD" });
    if (url.pathname !== "/v2/account/activities/FILL") return json(res, 404, { code: 40410000, message: "endpoint not found" });
    const size = Number(url.searchParams.get("page_size") ?? "100");
    if (!(size >= 1 && size <= 100)) return json(res, 422, { code: 40010001, message: "page_size must be between 1 and 100" });
    const after = url.searchParams.get("after");
    const token = url.searchParams.get("page_token");
    const asc = url.searchParams.get("direction") === "asc";
    let fills = [...(s.fills.get(key.accountNumber) ?? [])].sort((a, b) => a.transaction_time.localeCompare(b.transaction_time) || a.id.localeCompare(b.id));
    if (!asc) fills.reverse();
    if (after) fills = fills.filter((f) => Date.parse(f.transaction_time) > Date.parse(after));
    if (token) fills = fills.slice(fills.findIndex((f) => f.id === token) + 1);
    if (s.truncated) {
      const text = JSON.stringify(fills.slice(0, size));
      res.writeHead(200, { "Content-Type": "application/json; charset=UTF-8" });
      return res.end(text.slice(0, Math.floor(text.length / 2)));
    }
    return json(res, 200, fills.slice(0, size));
  }

  async function kraken(req: IncomingMessage, url: URL, res: ServerResponse) {
    const s = state.kraken;
    const body = await bodyOf(req);
    s.requests.push(`${url.pathname}?${body}`);
    if (req.method !== "POST" || url.pathname !== "/0/private/TradesHistory") return json(res, 404, { error: ["EGeneral:Unknown method"] });
    const keyId = String(req.headers["api-key"] ?? "");
    const key = s.keys.get(keyId);
    if (!key || s.revoked.has(keyId)) return json(res, 200, { error: ["EAPI:Invalid key"] });
    const form = new URLSearchParams(body);
    const nonce = form.get("nonce") ?? "";
    const expected = createHmac("sha512", Buffer.from(key.secret, "base64"))
      .update(Buffer.concat([Buffer.from(url.pathname), createHash("sha256").update(nonce + body).digest()]))
      .digest("base64");
    if (req.headers["api-sign"] !== expected) return json(res, 200, { error: ["EAPI:Invalid signature"] });
    if (!/^\d+$/.test(nonce) || BigInt(nonce) <= key.lastNonce) return json(res, 200, { error: ["EAPI:Invalid nonce"] });
    key.lastNonce = BigInt(nonce);
    if (s.throttle > 0) {
      s.throttle--;
      return json(res, 200, { error: ["EAPI:Rate limit exceeded"] });
    }
    const start = form.get("start");
    const end = form.get("end");
    const ofs = Number(form.get("ofs") ?? "0");
    const all = [...(s.trades.get(key.account) ?? [])]
      .filter((t) => (start === null || t.time > Number(start)) && (end === null || t.time <= Number(end)))
      .sort((a, b) => b.time - a.time);
    const trades = Object.fromEntries(all.slice(ofs, ofs + 50).map(({ txid, ...t }) => [txid, t]));
    return json(res, 200, { error: [], result: { trades, count: all.length } });
  }

  async function coinbase(req: IncomingMessage, url: URL, res: ServerResponse) {
    const s = state.coinbase;
    s.requests.push(url.pathname + url.search);
    const unauthorized = () => {
      res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Unauthorized\n");
    };
    let account = "";
    const jwt = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
    if (!jwt) return unauthorized();
    try {
      const header = decodeProtectedHeader(jwt);
      account = s.keys.get(String(header.kid))?.account ?? "";
      const key = s.keys.get(String(header.kid));
      if (!key || s.revoked.has(String(header.kid)) || typeof header.nonce !== "string" || usedNonces.has(header.nonce)) return unauthorized();
      const { payload } = await jwtVerify(jwt, key.publicKey, { algorithms: ["ES256"], issuer: "cdp", subject: String(header.kid) });
      if (payload.uri !== `${req.method} api.coinbase.com${url.pathname}` || typeof payload.nbf !== "number" || typeof payload.exp !== "number" || payload.exp - payload.nbf > 120) return unauthorized();
      usedNonces.add(header.nonce);
    } catch {
      return unauthorized();
    }
    if (s.throttle > 0) {
      s.throttle--;
      res.writeHead(429, { "Content-Type": "text/html" });
      return res.end("<html><body>Too Many Requests</body></html>");
    }
    if (url.pathname === "/api/v3/brokerage/key_permissions") return json(res, 200, { ...s.permissions, can_trade: false, can_transfer: false, portfolio_uuid: "6bd6ce2b-0b4e-4f87-a4b0-7bd1a5e9c5f0", portfolio_type: "DEFAULT" });
    if (url.pathname !== "/api/v3/brokerage/orders/historical/fills") return json(res, 404, { error: "NOT_FOUND", message: "not found" });
    const start = url.searchParams.get("start_sequence_timestamp");
    const limit = Number(url.searchParams.get("limit") ?? "100");
    const from = Number(url.searchParams.get("cursor") || "0");
    const fills = [...(s.fills.get(account) ?? [])].filter((f) => start === null || Date.parse(f.trade_time) >= Date.parse(start)).sort((a, b) => a.trade_time.localeCompare(b.trade_time));
    const page = fills.slice(from, from + limit);
    return json(res, 200, { fills: page, cursor: from + limit < fills.length ? String(from + limit) : "" });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://brokers");
    const handle = url.pathname.startsWith("/v2/") ? alpaca : url.pathname.startsWith("/0/") ? kraken : url.pathname.startsWith("/api/v3/") ? coinbase : null;
    if (!handle) return json(res, 404, { message: "not found" });
    Promise.resolve(handle(req, url, res)).catch(() => json(res, 500, { message: "stand-in failed" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url: base,
    env: { ALPACA_BASE_URL: base, KRAKEN_BASE_URL: base, COINBASE_BASE_URL: base, BROKER_RETRY_MS: "10" },
    alpacaKey(account: string) {
      const keyId = `PK${++serial}${crypto.randomUUID().replace(/-/g, "").slice(0, 16).toUpperCase()}`;
      const secret = `${crypto.randomUUID().replace(/-/g, "")}Ab12`;
      state.alpaca.keys.set(keyId, { secret, accountNumber: account });
      return { keyId, secret };
    },
    krakenKey(account: string) {
      const key = `K${++serial}${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64").replace(/[/+=]/g, "x")}`;
      const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(64))).toString("base64");
      state.kraken.keys.set(key, { secret, lastNonce: 0n, account });
      return { key, secret };
    },
    coinbaseKey(account: string) {
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
      const keyName = `organizations/8e1ab7f4-3c1d-4a3e-9c59-${String(++serial).padStart(12, "0")}/apiKeys/${crypto.randomUUID()}`;
      state.coinbase.keys.set(keyName, { publicKey, account });
      return { keyName, privateKey: privateKey.export({ type: "sec1", format: "pem" }).toString().trim() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
