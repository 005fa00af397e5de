// Kraken's spot REST API as a sync adapter (docs/imports.md, "Broker sync"), as Kraken documents it
// (docs.kraken.com, "Spot REST authentication", "Get Trades History", "Rate limits"; support.kraken.com,
// "API error messages"):
// - a private call is a POST of a form body holding an always-increasing `nonce`, with headers API-Key and
//   API-Sign = base64(HMAC-SHA512(base64-decoded secret, URI path + SHA-256(nonce + body))), the SHA-256 raw;
// - every answer is `{"error": [...], "result": ...}`, HTTP 200 even for a refusal: "EAPI:Invalid key",
//   "EAPI:Invalid signature" and "EGeneral:Permission denied" are the key's fault, "EAPI:Rate limit exceeded",
//   "EService:..." and "EGeneral:Temporary lockout" are tried again later;
// - POST /0/private/TradesHistory answers `{count, trades: {txid: trade}}`, newest first, 50 a call: paged by
//   `ofs` with `end` pinned to the first call's time (new trades would shift the offsets), `start` exclusive.
//   It costs 2 of the key's rate-limit counter (15 to 20, decaying 0.33 to 1 a second).
// The check of a key is a TradesHistory call too: it needs only the "Query closed orders & trades" permission
// the sync needs (Balance would need "Query funds" as well).
import { FACTS, type SyncAdapter, type SyncContext } from "../adapter.ts";
import { SyncError } from "../errors.ts";
import { brokerFetch, jsonOf, MAX_RETRIES } from "../http.ts";

const DEFAULT_BASE = "https://api.kraken.com";
const NAME = "Kraken";
const PATH = "/0/private/TradesHistory";
/** Kraken's page of trades. */
export const PAGE_SIZE = 50;

type Secret = { key: string; secret: string };
export type KrakenTrade = { ordertxid: string; postxid?: string; pair: string; time: number; type: string; ordertype: string; price: string; cost: string; fee: string; vol: string; margin: string; misc: string; ledgers?: string[] };
type Answer = { error?: string[]; result?: { count?: number; trades?: Record<string, KrakenTrade> } };

const KEY_REFUSED = ["EAPI:Invalid key", "EAPI:Invalid signature", "EGeneral:Permission denied", "EAPI:Bad request"];

let lastNonce = 0n;
/** Microseconds since the epoch, never the same twice in this process (Kraken refuses a nonce not above the last). */
function nextNonce(): string {
  const now = BigInt(Date.now()) * 1000n;
  lastNonce = now > lastNonce ? now : lastNonce + 1n;
  return String(lastNonce);
}

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const base64Of = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/** API-Sign for a path and its form body (which holds the nonce). */
export async function signature(secretBase64: string, path: string, nonce: string, body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(nonce + body)));
  const pathBytes = new TextEncoder().encode(path);
  const message = new Uint8Array(pathBytes.length + digest.length);
  message.set(pathBytes);
  message.set(digest, pathBytes.length);
  const key = await crypto.subtle.importKey("raw", bytesOf(secretBase64), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]);
  return base64Of(await crypto.subtle.sign("HMAC", key, message));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One page of TradesHistory; Kraken's own throttling answers are asked again with backoff. */
async function tradesPage(ctx: SyncContext, secret: Secret, params: Record<string, string>): Promise<{ count: number; trades: Record<string, KrakenTrade> }> {
  const base = (ctx.config.KRAKEN_BASE_URL ?? DEFAULT_BASE).replace(/\/$/, "");
  for (let attempt = 0; ; attempt++) {
    const res = await brokerFetch(ctx, NAME, async () => {
      const nonce = nextNonce();
      const body = new URLSearchParams({ nonce, ...params }).toString();
      let sign: string;
      try {
        sign = await signature(secret.secret, PATH, nonce, body);
      } catch {
        throw new SyncError(null, "credentials", "Kraken: the private key is not valid base64: copy it again from Kraken's API page.", "secret");
      }
      return { url: `${base}${PATH}`, init: { method: "POST", body, headers: { "API-Key": secret.key, "API-Sign": sign, "Content-Type": "application/x-www-form-urlencoded; charset=utf-8", "User-Agent": "TradingJournal" } } };
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new SyncError(String(res.status), "unavailable", `Kraken answered HTTP ${res.status}.`);
    }
    const answer = await jsonOf<Answer>(res, NAME);
    const errors = Array.isArray(answer?.error) ? answer.error.map(String) : [];
    const refused = errors.find((e) => KEY_REFUSED.some((k) => e.startsWith(k)));
    if (refused) {
      const why = refused.startsWith("EGeneral:Permission denied") ? 'the key lacks the "Query closed orders & trades" permission' : "the API key or its private key was refused";
      throw new SyncError(refused, "credentials", `Kraken (${refused}): ${why}.`, "key");
    }
    if (errors.length > 0) {
      if (attempt >= MAX_RETRIES) throw new SyncError(errors[0]!, "retry", `Kraken is busy or limiting requests (${errors[0]}); the next run tries again.`);
      await wait(ctx.config.BROKER_RETRY_MS * 2 ** attempt);
      continue;
    }
    const result = answer?.result;
    if (!result || typeof result.count !== "number" || typeof result.trades !== "object" || result.trades === null) {
      throw new SyncError(null, "retry", "Kraken sent a trade history this journal cannot read; the next run tries again.");
    }
    return { count: result.count, trades: result.trades };
  }
}

export const adapter: SyncAdapter = {
  ...FACTS.kraken,
  async verify(ctx, { secret }) {
    await tradesPage(ctx, secret as Secret, { ofs: "0" });
  },
  /** The trades after the cursor (the newest trade time a run committed: `start` is exclusive) or the start date. */
  async pull(ctx, { secret }, since) {
    const start = since.cursor ?? (since.notBefore ? String(Math.floor(since.notBefore.getTime() / 1000)) : null);
    const end = String(Math.floor(ctx.now().getTime() / 1000) + 1);
    const records: Array<KrakenTrade & { txid: string }> = [];
    for (let ofs = 0; ; ) {
      const page = await tradesPage(ctx, secret as Secret, { ofs: String(ofs), end, ...(start ? { start } : {}) });
      const trades = Object.entries(page.trades).map(([txid, trade]) => ({ ...trade, txid }));
      records.push(...trades);
      ofs += trades.length;
      if (trades.length === 0 || ofs >= page.count) break;
    }
    const newest = records.reduce<number | null>((max, t) => (max === null || Number(t.time) > max ? Number(t.time) : max), null);
    return { records, cursor: newest === null ? null : String(newest) };
  },
  /** Rows as Kraken's own trades export writes them (its "kraken" preset), the time in UTC. */
  normalise: (records) =>
    (records as Array<KrakenTrade & { txid: string }>).map((t) => {
      const time = Number(t.time);
      if (typeof t.txid !== "string" || !Number.isFinite(time)) throw new SyncError(null, "retry", "Kraken sent a trade this journal cannot read; the next run tries again.");
      return [t.txid, t.ordertxid ?? "", t.pair, new Date(time * 1000).toISOString(), t.type, t.ordertype ?? "", t.price, t.cost ?? "", t.fee ?? "0", t.vol, t.margin ?? "", t.misc ?? "", (t.ledgers ?? []).join(",")];
    }),
};
