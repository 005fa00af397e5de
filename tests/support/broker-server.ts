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
// - tastytrade (TASTYTRADE_BASE_URL): POST /oauth/token {grant_type: "refresh_token", refresh_token,
//   client_secret} for a known, unrevoked grant answers a 15-minute access token, else 400 {"error_code":
//   "invalid_grant"}; a request without a "product/version" User-Agent is an HTML 401; the accounts and their
//   transactions (sort, per-page, page-offset, start-at) only for a live access token of a grant opening them.
// - Tradovate (TRADOVATE_BASE_URL, ".../v1"): POST /auth/accesstokenrequest checks name, password, appId, cid and
//   sec (else HTTP 200 {errorText}); `penalty` answers the next sign-ins with a p-ticket to wait out and send
//   back; GET /auth/renewaccesstoken renews a live token; fills only through the account's orders.
// - Schwab (SCHWAB_BASE_URL): /v1/oauth/authorize checks the app's client id and its registered redirect URI
//   exactly, and answers a sign-in page whose "Allow" link goes back to the redirect URI with a code (ending
//   in "@", as Schwab's) and the state; POST /v1/oauth/token takes the app's Basic credentials only (else 401
//   invalid_client), a code once, with the redirect URI it was issued for and the PKCE verifier of its S256
//   challenge (else 400 invalid_grant), and a refresh token neither revoked nor older than 7 days (else 400
//   refresh_token_authentication_error); the accounts and their TRADE transactions (startDate, endDate and
//   types required, a year at most) for a live access token only.
// Each provider's `throttle` answers that many next requests with its rate-limit answer (429, or Kraken's
// "EAPI:Rate limit exceeded"); `revoke` makes a key refused from then on.
import { createHash, createHmac, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader, jwtVerify } from "jose";
import type { AlpacaFill } from "../../lib/sync/adapters/alpaca.ts";
import type { CoinbaseFill } from "../../lib/sync/adapters/coinbase.ts";
import type { KrakenTrade } from "../../lib/sync/adapters/kraken.ts";
import type { SchwabTransaction } from "../../lib/sync/adapters/schwab.ts";
import type { TastyTransaction } from "../../lib/sync/adapters/tastytrade.ts";

/** A fill as Tradovate's API holds it (without the names the adapter joins to it). */
export type TradovateFill = { id: number; orderId: number; contractId: number; timestamp: string; tradeDate: { year: number; month: number; day: number }; action: "Buy" | "Sell"; qty: number; price: number; active: boolean; fee: number };

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
  env: { ALPACA_BASE_URL: string; KRAKEN_BASE_URL: string; COINBASE_BASE_URL: string; TASTYTRADE_BASE_URL: string; TRADOVATE_BASE_URL: string; SCHWAB_BASE_URL: string; SCHWAB_CLIENT_ID: string; SCHWAB_CLIENT_SECRET: string; BROKER_RETRY_MS: string };
  /** Each provider's executions by the account (the stand-in's own name for it) a key opens. */
  /** `truncated`: the fills answer is cut off halfway (a dropped connection behind a proxy that sent its head). */
  alpaca: Provider<{ secret: string; accountNumber: string }> & { fills: Map<string, AlpacaFill[]>; truncated: boolean; unavailable: number };
  kraken: Provider<{ secret: string; lastNonce: bigint; account: string }> & { trades: Map<string, Array<KrakenTrade & { txid: string }>> };
  coinbase: Provider<{ publicKey: KeyObject; account: string }> & { fills: Map<string, CoinbaseFill[]>; permissions: { can_view: boolean } };
  /** Grants by refresh token; transactions by account number. */
  tastytrade: Provider<{ clientSecret: string; account: string }> & { transactions: Map<string, TastyTransaction[]>; tokens: Map<string, { grant: string; expiresAt: number }> };
  /** Users by name; fills by account name; `penalty`: sign-ins answered with a p-ticket; counts of sign-ins and renewals. */
  tradovate: Provider<{ password: string; appId: string; cid: string; sec: string; account: { id: number; name: string } }> & {
    fills: Map<string, TradovateFill[]>;
    contracts: Map<number, string>;
    tokens: Map<string, { user: string; expiresAt: number }>;
    penalty: number;
    signIns: number;
    renewals: number;
  };
  /** The app (client id, secret, registered redirect URI); logins by name: the accounts a sign-in opens; transactions by account hash. */
  schwab: Provider<never> & {
    app: { clientId: string; clientSecret: string; redirectUri: string };
    /** The accounts (number, hash) the next sign-in opens. */
    nextLogin: Array<{ accountNumber: string; hashValue: string }>;
    transactions: Map<string, SchwabTransaction[]>;
    codes: Map<string, { challenge: string; redirectUri: string; accounts: Array<{ accountNumber: string; hashValue: string }>; used: boolean }>;
    refreshTokens: Map<string, { accounts: Array<{ accountNumber: string; hashValue: string }>; issuedAt: number; revoked: boolean }>;
    accessTokens: Map<string, { refresh: string; expiresAt: number }>;
    /** Seconds an access token lives (Schwab: 1800); tests shorten it to see refreshes. */
    accessLifetime: number;
    /** Token requests by grant type. */
    grants: string[];
  };
  /** A new tastytrade grant opening account `account`: its client secret and refresh token. */
  tastyGrant(account: string): { clientSecret: string; refreshToken: string };
  /** A new Tradovate user (and API key) with one account named `account`. */
  tradovateUser(account: string): { name: string; password: string; appId: string; cid: string; secret: string };
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
  const sortedFills = new WeakMap<AlpacaFill[], { length: number; asc: AlpacaFill[]; desc: AlpacaFill[] }>();
  const lastEnd = new WeakMap<AlpacaFill[], number>();
  let serial = 0;
  const state = {
    alpaca: { ...provider<{ secret: string; accountNumber: string }>(), fills: new Map<string, AlpacaFill[]>(), truncated: false, unavailable: 0 },
    kraken: { ...provider<{ secret: string; lastNonce: bigint; account: string }>(), trades: new Map<string, Array<KrakenTrade & { txid: string }>>() },
    coinbase: { ...provider<{ publicKey: KeyObject; account: string }>(), fills: new Map<string, CoinbaseFill[]>(), permissions: { can_view: true } },
    tastytrade: { ...provider<{ clientSecret: string; account: string }>(), transactions: new Map<string, TastyTransaction[]>(), tokens: new Map<string, { grant: string; expiresAt: number }>() },
    schwab: {
      ...provider<never>(),
      app: { clientId: "JournalAppKey0000000000000000000", clientSecret: "JournalAppSecret", redirectUri: "" },
      nextLogin: [] as Array<{ accountNumber: string; hashValue: string }>,
      transactions: new Map<string, SchwabTransaction[]>(),
      codes: new Map<string, { challenge: string; redirectUri: string; accounts: Array<{ accountNumber: string; hashValue: string }>; used: boolean }>(),
      refreshTokens: new Map<string, { accounts: Array<{ accountNumber: string; hashValue: string }>; issuedAt: number; revoked: boolean }>(),
      accessTokens: new Map<string, { refresh: string; expiresAt: number }>(),
      accessLifetime: 1800,
      grants: [] as string[],
    },
    tradovate: {
      ...provider<{ password: string; appId: string; cid: string; sec: string; account: { id: number; name: string } }>(),
      fills: new Map<string, TradovateFill[]>(),
      contracts: new Map<number, string>(),
      tokens: new Map<string, { user: string; expiresAt: number }>(),
      penalty: 0,
      signIns: 0,
      renewals: 0,
    },
  };

  async function tastytrade(req: IncomingMessage, url: URL, res: ServerResponse) {
    const s = state.tastytrade;
    s.requests.push(url.pathname + url.search);
    if (!/^\S+\/\S+/.test(String(req.headers["user-agent"] ?? ""))) {
      res.writeHead(401, { "Content-Type": "text/html" });
      return res.end("<html><head><title>401 Authorization Required</title></head><body><center><h1>401 Authorization Required</h1></center><hr><center>nginx</center></body></html>");
    }
    if (s.throttle > 0) {
      s.throttle--;
      res.writeHead(429);
      return res.end();
    }
    if (url.pathname === "/oauth/token" && req.method === "POST") {
      let body: { grant_type?: string; refresh_token?: string; client_secret?: string };
      try {
        body = JSON.parse(await bodyOf(req));
      } catch {
        return json(res, 400, { error_code: "invalid_request", error_description: "Malformed body" });
      }
      const grant = body.refresh_token ? s.keys.get(body.refresh_token) : undefined;
      if (body.grant_type !== "refresh_token" || !grant || s.revoked.has(body.refresh_token!) || grant.clientSecret !== body.client_secret) {
        return json(res, 400, { error_code: "invalid_grant", error_description: "Invalid JWT" });
      }
      const token = `tt-${crypto.randomUUID()}`;
      s.tokens.set(token, { grant: body.refresh_token!, expiresAt: Date.now() + 900_000 });
      return json(res, 200, { access_token: token, token_type: "Bearer", expires_in: 900 });
    }
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
    const session = bearer ? s.tokens.get(bearer) : undefined;
    if (!session || session.expiresAt < Date.now() || s.revoked.has(session.grant)) return json(res, 401, { error: { code: "token_invalid", message: "This session has expired or is invalid." } });
    const account = s.keys.get(session.grant)!.account;
    if (url.pathname === "/customers/me/accounts") return json(res, 200, { data: { items: [{ account: { "account-number": account, "is-closed": false, nickname: "Individual" }, "authority-level": "owner" }] }, context: "/customers/me/accounts" });
    const match = /^\/accounts\/([^/]+)\/transactions$/.exec(url.pathname);
    if (!match) return json(res, 404, { error: { code: "not_found", message: "Not found" } });
    if (decodeURIComponent(match[1]!) !== account) return json(res, 404, { error: { code: "record_not_found", message: "Account not found" } });
    const perPage = Number(url.searchParams.get("per-page") ?? "250");
    const offset = Number(url.searchParams.get("page-offset") ?? "0");
    const startAt = url.searchParams.get("start-at");
    const asc = url.searchParams.get("sort") === "Asc";
    let items = [...(s.transactions.get(account) ?? [])].filter((t) => startAt === null || Date.parse(t["executed-at"]) >= Date.parse(startAt)).sort((a, b) => Date.parse(a["executed-at"]) - Date.parse(b["executed-at"]) || a.id - b.id);
    if (!asc) items = items.reverse();
    const pages = Math.max(1, Math.ceil(items.length / perPage));
    return json(res, 200, {
      data: { items: items.slice(offset * perPage, (offset + 1) * perPage) },
      context: url.pathname,
      pagination: { "per-page": perPage, "page-offset": offset, "item-offset": offset * perPage, "total-items": items.length, "total-pages": pages, "current-item-count": items.slice(offset * perPage, (offset + 1) * perPage).length },
    });
  }

  async function schwab(req: IncomingMessage, url: URL, res: ServerResponse) {
    const s = state.schwab;
    s.requests.push(url.pathname + url.search);
    if (url.pathname === "/v1/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== s.app.clientId || q.get("redirect_uri") !== s.app.redirectUri || q.get("response_type") !== "code") {
        res.writeHead(400, { "Content-Type": "text/html" });
        return res.end("<html><body><h1>Invalid request</h1><p>The app key or its callback URL does not match the app's.</p></body></html>");
      }
      const code = `C0.b2F1dGgyLmNkYy5zY2h3YWIuY29t.${crypto.randomUUID()}@`;
      s.codes.set(code, { challenge: q.get("code_challenge_method") === "S256" ? (q.get("code_challenge") ?? "") : "", redirectUri: q.get("redirect_uri")!, accounts: s.nextLogin, used: false });
      const back = `${q.get("redirect_uri")}?code=${encodeURIComponent(code)}&session=${crypto.randomUUID()}${q.get("state") ? `&state=${encodeURIComponent(q.get("state")!)}` : ""}`;
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html><head><title>Schwab sign-in (stand-in)</title></head><body><h1>Allow Journal to read your accounts?</h1><a id="allow" href="${back.replace(/&/g, "&amp;")}">Allow</a></body></html>`);
    }
    if (s.throttle > 0) {
      s.throttle--;
      return json(res, 429, { message: "Too many requests" });
    }
    if (url.pathname === "/v1/oauth/token" && req.method === "POST") {
      const form = new URLSearchParams(await bodyOf(req));
      s.grants.push(form.get("grant_type") ?? "");
      if (req.headers.authorization !== `Basic ${Buffer.from(`${s.app.clientId}:${s.app.clientSecret}`).toString("base64")}`) return json(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
      const issue = (refresh: string) => {
        const access = `I0.${crypto.randomUUID()}@`;
        s.accessTokens.set(access, { refresh, expiresAt: Date.now() + s.accessLifetime * 1000 });
        return json(res, 200, { expires_in: s.accessLifetime, token_type: "Bearer", scope: "api", refresh_token: refresh, access_token: access, id_token: "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.e30.c2ln" });
      };
      if (form.get("grant_type") === "authorization_code") {
        const code = s.codes.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!code || code.used || code.redirectUri !== form.get("redirect_uri") || !code.challenge || code.challenge !== challenge) {
          if (code) code.used = true;
          return json(res, 400, { error: "invalid_grant", error_description: "Bad authorization code" });
        }
        code.used = true;
        const refresh = `${crypto.randomUUID()}@`;
        s.refreshTokens.set(refresh, { accounts: code.accounts, issuedAt: Date.now(), revoked: false });
        return issue(refresh);
      }
      if (form.get("grant_type") === "refresh_token") {
        const refresh = s.refreshTokens.get(form.get("refresh_token") ?? "");
        if (!refresh || refresh.revoked || refresh.issuedAt + 7 * 24 * 3_600_000 < Date.now()) {
          return json(res, 400, { error: "unsupported_token_type", error_description: '400 Bad Request: "{"error_description":"Exception while authenticating refresh token","error":"refresh_token_authentication_error"}"' });
        }
        return issue(form.get("refresh_token")!);
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
    const access = bearer ? s.accessTokens.get(bearer) : undefined;
    const login = access ? s.refreshTokens.get(access.refresh) : undefined;
    if (!access || access.expiresAt < Date.now() || !login || login.revoked) return json(res, 401, { errors: [{ id: "401", status: 401, title: "Unauthorized", detail: "Client not authorized" }] });
    if (url.pathname === "/trader/v1/accounts/accountNumbers") return json(res, 200, login.accounts);
    const match = /^\/trader\/v1\/accounts\/([^/]+)\/transactions$/.exec(url.pathname);
    if (!match) return json(res, 404, { message: "Not found" });
    const hash = decodeURIComponent(match[1]!);
    if (!login.accounts.some((a) => a.hashValue === hash)) return json(res, 400, { message: "Invalid account number" });
    const start = Date.parse(url.searchParams.get("startDate") ?? "");
    const end = Date.parse(url.searchParams.get("endDate") ?? "");
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(url.searchParams.get("startDate") ?? "") || Number.isNaN(end) || !url.searchParams.get("types") || end - start > 366 * 24 * 3_600_000 || end < start) {
      return json(res, 400, { message: "Bad request: startDate, endDate (a year at most apart) and types are required" });
    }
    const parse = (t: string) => Date.parse(t.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    return json(res, 200, (s.transactions.get(hash) ?? []).filter((t) => parse(t.time) >= start && parse(t.time) <= end));
  }

  async function tradovate(req: IncomingMessage, url: URL, res: ServerResponse) {
    const s = state.tradovate;
    const path = url.pathname.replace(/^\/v1/, "");
    s.requests.push(path + url.search);
    if (s.throttle > 0) {
      s.throttle--;
      res.writeHead(429);
      return res.end();
    }
    if (path === "/auth/accesstokenrequest" && req.method === "POST") {
      const body = JSON.parse(await bodyOf(req)) as Record<string, unknown>;
      if (s.penalty > 0 && body["p-ticket"] !== "ticket-1") {
        s.penalty--;
        return json(res, 200, { "p-ticket": "ticket-1", "p-time": 0 });
      }
      const user = s.keys.get(String(body.name));
      if (!user || s.revoked.has(String(body.name)) || user.password !== body.password || user.appId !== body.appId || String(user.cid) !== String(body.cid) || user.sec !== body.sec || typeof body.cid !== "number" || !body.appVersion) {
        return json(res, 200, { errorText: "Incorrect username or password. Please try again, noting that passwords are case-sensitive." });
      }
      s.signIns++;
      const token = `tv-${crypto.randomUUID()}`;
      const expiresAt = Date.now() + 90 * 60_000;
      s.tokens.set(token, { user: String(body.name), expiresAt });
      return json(res, 200, { accessToken: token, expirationTime: new Date(expiresAt).toISOString(), passwordExpirationTime: "2027-01-01T00:00:00.000Z", userStatus: "Active", userId: 1, name: body.name, hasLive: false });
    }
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
    const session = bearer ? s.tokens.get(bearer) : undefined;
    if (!session || session.expiresAt < Date.now() || s.revoked.has(session.user)) {
      res.writeHead(401, { "Content-Type": "text/plain" });
      return res.end("Expired Access Token");
    }
    const user = s.keys.get(session.user)!;
    const fills = s.fills.get(user.account.name) ?? [];
    const ids = (name: string) => (url.searchParams.get(name) ?? "").split(",").filter(Boolean).map(Number);
    if (path === "/auth/renewaccesstoken") {
      s.renewals++;
      const token = `tv-${crypto.randomUUID()}`;
      const expiresAt = Date.now() + 90 * 60_000;
      s.tokens.set(token, { user: session.user, expiresAt });
      return json(res, 200, { accessToken: token, expirationTime: new Date(expiresAt).toISOString(), userStatus: "Active", userId: 1, name: session.user, hasLive: false });
    }
    if (path === "/account/list") return json(res, 200, [{ id: user.account.id, name: user.account.name, userId: 1, accountType: "Customer", active: true, clearingHouseId: 2, riskCategoryId: 2, autoLiqProfileId: 2, marginAccountType: "Speculator", legalStatus: "Individual", archived: false, timestamp: "2024-01-02T00:00:00Z" }]);
    if (path === "/order/deps") {
      if (Number(url.searchParams.get("masterid")) !== user.account.id) return json(res, 200, []);
      return json(res, 200, [...new Set(fills.map((f) => f.orderId))].map((id) => ({ id, accountId: user.account.id, ordStatus: "Filled" })));
    }
    if (path === "/fill/ldeps") {
      const orders = new Set(ids("masterids"));
      return json(res, 200, fills.filter((f) => orders.has(f.orderId)).map(({ fee: _fee, ...f }) => ({ ...f, finallyPaired: 0 })));
    }
    if (path === "/fillFee/ldeps") {
      const wanted = new Set(ids("masterids"));
      return json(res, 200, fills.filter((f) => wanted.has(f.id)).map((f) => ({ id: f.id, commission: f.fee, clearingFee: 0.19, exchangeFee: 1.38, nfaFee: 0.02, brokerageFee: 0, ipFee: 0, orderRoutingFee: 0 })));
    }
    if (path === "/contract/items") {
      const wanted = ids("ids");
      if (wanted.length > 10) return json(res, 404, {});
      return json(res, 200, wanted.filter((id) => s.contracts.has(id)).map((id) => ({ id, name: s.contracts.get(id), contractMaturityId: 1 })));
    }
    return json(res, 404, {});
  }

  function alpaca(req: IncomingMessage, url: URL, res: ServerResponse) {
    const s = state.alpaca;
    s.requests.push(url.pathname + url.search);
    if (s.throttle > 0) {
      s.throttle--;
      return json(res, 429, { message: "rate limit exceeded" });
    }
    if (s.unavailable > 0) {
      s.unavailable--;
      res.writeHead(503, { "Content-Type": "text/html" });
      return res.end("<html><body>503 Service Temporarily Unavailable</body></html>");
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
    // Sorted once per list (a 50,000-fill account is paged 500 times by the benchmark), positions by id.
    const all = s.fills.get(key.accountNumber) ?? [];
    let cached = sortedFills.get(all);
    if (!cached || cached.length !== all.length) {
      const sorted = [...all].sort((a, b) => a.transaction_time.localeCompare(b.transaction_time) || a.id.localeCompare(b.id));
      cached = { length: all.length, asc: sorted, desc: [...sorted].reverse() };
      sortedFills.set(all, cached);
    }
    const order = asc ? cached.asc : cached.desc;
    const afterMs = after ? Date.parse(after) : null;
    // After page_token's fill: found from where the last page ended (kept per order), else searched.
    let from = 0;
    if (token) {
      const hint = lastEnd.get(order);
      from = hint !== undefined && order[hint - 1]?.id === token ? hint : order.findIndex((f) => f.id === token) + 1;
    }
    const page: AlpacaFill[] = [];
    let i = from;
    for (; i < order.length && page.length < size; i++) {
      const f = order[i]!;
      if (afterMs !== null && Date.parse(f.transaction_time) <= afterMs) continue;
      page.push(f);
    }
    lastEnd.set(order, i);
    if (s.truncated) {
      const text = JSON.stringify(page);
      res.writeHead(200, { "Content-Type": "application/json; charset=UTF-8" });
      return res.end(text.slice(0, Math.floor(text.length / 2)));
    }
    return json(res, 200, page);
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
    const p = url.pathname;
    const handle = p.startsWith("/v2/") ? alpaca : p.startsWith("/0/") ? kraken : p.startsWith("/api/v3/") ? coinbase : p.startsWith("/v1/oauth/") || p.startsWith("/trader/") ? schwab : p.startsWith("/v1/") ? tradovate : /^\/(oauth|customers|accounts)\//.test(p) ? tastytrade : null;
    if (!handle) return json(res, 404, { message: "not found" });
    Promise.resolve(handle(req, url, res)).catch(() => json(res, 500, { message: "stand-in failed" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url: base,
    env: { ALPACA_BASE_URL: base, KRAKEN_BASE_URL: base, COINBASE_BASE_URL: base, TASTYTRADE_BASE_URL: base, TRADOVATE_BASE_URL: `${base}/v1`, SCHWAB_BASE_URL: base, SCHWAB_CLIENT_ID: state.schwab.app.clientId, SCHWAB_CLIENT_SECRET: state.schwab.app.clientSecret, BROKER_RETRY_MS: "10" },
    tastyGrant(account: string) {
      const clientSecret = `cs${crypto.randomUUID().replace(/-/g, "")}`;
      const refreshToken = `rt.${Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString("base64url")}`;
      state.tastytrade.keys.set(refreshToken, { clientSecret, account });
      return { clientSecret, refreshToken };
    },
    tradovateUser(account: string) {
      const name = `trader${++serial}`;
      const user = { password: `pw ${crypto.randomUUID()}`, appId: "Journal Sync", cid: String(1000 + serial), sec: crypto.randomUUID(), account: { id: 700000 + serial, name: account } };
      state.tradovate.keys.set(name, user);
      return { name, password: user.password, appId: user.appId, cid: user.cid, secret: user.sec };
    },
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
