// Coinbase's Advanced Trade API as a sync adapter (docs/imports.md, "Broker sync"), as Coinbase documents it
// (docs.cdp.coinbase.com, "API key authentication" and "List Fills"; coinbase/coinbase-advanced-py's
// jwt_generator.py):
// - each request carries its own JWT (Authorization: Bearer), signed ES256 with the CDP key's EC private key:
//   header {alg: ES256, typ: JWT, kid: the key's name, nonce: random hex}, claims {iss: "cdp", sub: the key's
//   name, nbf: now, exp: now + 120, uri: "GET api.coinbase.com/api/v3/brokerage/..." (method, host and path,
//   never the query)}. A refused or expired JWT is 401 "Unauthorized"; a key without the view scope is 403;
// - GET /api/v3/brokerage/key_permissions answers {can_view, can_trade, ...}: the key's check;
// - GET /api/v3/brokerage/orders/historical/fills?start_sequence_timestamp=&limit=&cursor= answers
//   {fills: [...], cursor}: the last page's cursor is empty. Only fills of trade_type FILL are trades (a
//   REVERSAL or CORRECTION is Coinbase's own bookkeeping); their trade_id is the id the fills report carries.
// Coinbase keeps 30 private requests a second per user: a 429 (sometimes an HTML page) is asked again with
// backoff (lib/sync/http.ts).
import { importPKCS8, SignJWT } from "jose";
import { FACTS, type SyncAdapter, type SyncContext } from "../adapter.ts";
import { SyncError } from "../errors.ts";
import { brokerFetch, jsonOf } from "../http.ts";

const DEFAULT_BASE = "https://api.coinbase.com";
/** The host the JWT's uri names: Coinbase checks it against its own, whatever base the request went to. */
const HOST = "api.coinbase.com";
const NAME = "Coinbase";
export const PAGE_SIZE = 100;

type Secret = { keyName: string; privateKey: string };
export type CoinbaseFill = { entry_id: string; trade_id: string; order_id: string; trade_time: string; trade_type: string; price: string; size: string; commission: string; product_id: string; sequence_timestamp?: string; side: string; size_in_quote?: boolean; retail_portfolio_id?: string };

/** DER length bytes. */
function derLength(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return [0x80 | bytes.length, ...bytes];
}
const der = (tag: number, body: Uint8Array) => Uint8Array.from([tag, ...derLength(body.length), ...body]);

/** version 0, and AlgorithmIdentifier {id-ecPublicKey, prime256v1}: the head of a P-256 key's PKCS #8 (RFC 5208, 5480). */
const PKCS8_HEAD = Uint8Array.from([0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]);

/**
 * Coinbase gives the key as SEC1 ("EC PRIVATE KEY", RFC 5915); Web Crypto imports PKCS #8 only, which wraps the
 * same bytes: the SEC1 DER goes, as it is, into the PKCS #8 structure's privateKey octet string.
 */
export function sec1ToPkcs8Pem(pem: string): string {
  const body = pem.replace(/-----(BEGIN|END) EC PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  const sec1 = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  const inner = new Uint8Array(PKCS8_HEAD.length + 0);
  inner.set(PKCS8_HEAD);
  const octets = der(0x04, sec1);
  const pkcs8 = der(0x30, Uint8Array.from([...inner, ...octets]));
  const b64 = btoa(String.fromCharCode(...pkcs8)).replace(/(.{64})/g, "$1\n");
  return `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----`;
}

async function signingKey(secret: Secret) {
  try {
    return await importPKCS8(sec1ToPkcs8Pem(secret.privateKey), "ES256");
  } catch {
    throw new SyncError(null, "credentials", "Coinbase: the private key could not be read: copy the whole key, from -----BEGIN EC PRIVATE KEY----- to its end (an ECDSA key).", "privateKey");
  }
}

/** The JWT of one request: a new one each time (it lives two minutes and names the request's path). */
export async function requestJwt(secret: Secret, method: string, path: string, now: Date): Promise<string> {
  const key = await signingKey(secret);
  const nbf = Math.floor(now.getTime() / 1000);
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  return new SignJWT({ iss: "cdp", sub: secret.keyName, nbf, exp: nbf + 120, uri: `${method} ${HOST}${path}` })
    .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: secret.keyName, nonce })
    .sign(key);
}

async function get<T>(ctx: SyncContext, secret: Secret, path: string, query?: URLSearchParams): Promise<T> {
  const base = (ctx.config.COINBASE_BASE_URL ?? DEFAULT_BASE).replace(/\/$/, "");
  await signingKey(secret); // a key that cannot be read is the trader's to mend, not a retry
  const res = await brokerFetch(ctx, NAME, async () => ({
    url: `${base}${path}${query ? `?${query}` : ""}`,
    init: { headers: { Authorization: `Bearer ${await requestJwt(secret, "GET", path, ctx.now())}`, Accept: "application/json" } },
  }));
  if (res.status === 401) {
    await res.body?.cancel();
    throw new SyncError("401", "credentials", "Coinbase: the API key was refused (HTTP 401): check the key's name and private key, and that the key was not deleted.", "keyName");
  }
  if (res.status === 403) {
    await res.body?.cancel();
    throw new SyncError("403", "credentials", 'Coinbase: the API key lacks the "View" permission (HTTP 403).', "keyName");
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "unavailable", `Coinbase answered HTTP ${res.status}.`);
  }
  return jsonOf<T>(res, NAME);
}

const isFill = (v: unknown): v is CoinbaseFill => {
  const f = v as CoinbaseFill;
  return typeof f === "object" && f !== null && typeof f.trade_id === "string" && typeof f.trade_time === "string" && typeof f.product_id === "string";
};

/** An RFC 3339 time with nanoseconds, to milliseconds (what the import reads). */
const toMillis = (time: string) => new Date(Date.parse(time.replace(/(\.\d{3})\d+/, "$1"))).toISOString();

export const adapter: SyncAdapter = {
  ...FACTS.coinbase,
  async verify(ctx, { secret }) {
    const permissions = await get<{ can_view?: unknown }>(ctx, secret as Secret, "/api/v3/brokerage/key_permissions");
    if (permissions?.can_view !== true) throw new SyncError(null, "credentials", 'Coinbase: the API key lacks the "View" permission.', "keyName");
  },
  /** The fills after the cursor (the newest fill time a run committed) or the start date, every page of them. */
  async pull(ctx, { secret }, since) {
    const start = since.cursor ?? since.notBefore?.toISOString() ?? null;
    const records: CoinbaseFill[] = [];
    let cursor = "";
    for (;;) {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), sort_by: "TRADE_TIME" });
      if (start) query.set("start_sequence_timestamp", start);
      if (cursor) query.set("cursor", cursor);
      const page = await get<{ fills?: unknown; cursor?: unknown }>(ctx, secret as Secret, "/api/v3/brokerage/orders/historical/fills", query);
      if (!Array.isArray(page?.fills) || !page.fills.every(isFill)) throw new SyncError(null, "retry", "Coinbase sent fills this journal cannot read; the next run tries again.");
      records.push(...page.fills);
      cursor = typeof page.cursor === "string" ? page.cursor : "";
      if (!cursor || page.fills.length === 0) break;
    }
    const newest = records.reduce<string | null>((max, f) => (max === null || Date.parse(toMillis(f.trade_time)) > Date.parse(max) ? toMillis(f.trade_time) : max), null);
    return { records, cursor: newest };
  },
  /** Rows as Coinbase's own fills report writes them (its "coinbase" preset); an amount given in the quote currency is turned into the base's. */
  normalise: (records) =>
    (records as CoinbaseFill[])
      .filter((f) => (f.trade_type ?? "FILL") === "FILL")
      .map((f) => {
        const [base = "", quote = ""] = f.product_id.split("-");
        const size = f.size_in_quote === true ? String(Number(f.size) / Number(f.price)) : f.size;
        return [f.retail_portfolio_id ?? "", f.trade_id, f.product_id, f.side, toMillis(f.trade_time), size, base, f.price, f.commission ?? "0", "", quote];
      }),
};
