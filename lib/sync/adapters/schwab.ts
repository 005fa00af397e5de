// Charles Schwab's Trader API as a sync adapter (docs/imports.md, "Broker sync"), as Schwab documents it
// (developer.schwab.com, Trader API - Individual: "Authenticate with OAuth", "Accounts and Trading
// Production"; its OpenAPI description as mirrored by schwab-go and schwab-rs; alexgolec/schwab-py,
// tylerebowers/Schwabdev):
// - the operator registers one app (SCHWAB_CLIENT_ID, SCHWAB_CLIENT_SECRET, its https callback); each trader
//   signs in at Schwab (lib/sync/schwab-oauth.ts) and the connection keeps the tokens: an access token for 30
//   minutes, a refresh token for 7 days from the sign-in (a refresh does not extend it; a new sign-in ends the
//   old one). POST /v1/oauth/token with Basic client_id:client_secret, grant_type=refresh_token; a refused
//   refresh (400 or 401, "invalid_grant", "refresh_token_authentication_error") means the trader signs in again:
//   the connection needs re-authorisation and the trader is emailed once.
// - GET /trader/v1/accounts/accountNumbers → [{accountNumber, hashValue}]; every later call names the hash.
// - GET /trader/v1/accounts/{hash}/transactions?startDate=&endDate=&types=TRADE (ISO 8601 with milliseconds,
//   both required, a year at most per call, 3,000 transactions at most, no paging): read in windows of 30 days.
//   A transaction's traded item is its transferItem without a feeType and not CURRENCY (amount: the signed
//   quantity; price per unit); its fee items' costs are the fees. Times come as "2024-05-10T14:30:05+0000".
import { fromUnits, toUnits } from "../../money.ts";
import { FACTS, type SyncAdapter, type SyncContext } from "../adapter.ts";
import { SyncError } from "../errors.ts";
import { brokerFetch, jsonOf } from "../http.ts";

const DEFAULT_BASE = "https://api.schwabapi.com";
const NAME = "Schwab";
/** Schwab's refresh token lives seven days from the sign-in. */
export const REFRESH_LIFETIME_MS = 7 * 24 * 3_600_000;
/** Transactions are asked for in windows this long (a call answers 3,000 at most and spans a year at most). */
const WINDOW_MS = 30 * 24 * 3_600_000;
/** Without a start date or a cursor, a first sync reads this far back. */
export const FIRST_SYNC_MS = 365 * 24 * 3_600_000;

export type SchwabSecret = { accessToken: string; refreshToken: string; expiresAt: string; signedInAt: string };
type Item = { instrument?: { assetType?: string; symbol?: string }; amount?: number; cost?: number; price?: number; feeType?: string; positionEffect?: string };
export type SchwabTransaction = { activityId: number; time: string; type: string; status?: string; orderId?: number; netAmount?: number; transferItems?: Item[] };

export const baseOf = (ctx: Pick<SyncContext, "config">) => (ctx.config.SCHWAB_BASE_URL ?? DEFAULT_BASE).replace(/\/$/, "");
const basic = (ctx: SyncContext) => `Basic ${btoa(`${ctx.config.SCHWAB_CLIENT_ID ?? ""}:${ctx.config.SCHWAB_CLIENT_SECRET ?? ""}`)}`;

const REAUTH = "Schwab: the sign-in has ended (Schwab asks for it again every 7 days): sign in to Schwab again from the account page.";

/** The token endpoint, for a code (the sign-in) or a refresh: the new tokens, or a SyncError. */
export async function tokenRequest(ctx: SyncContext, form: Record<string, string>, signedInAt: string): Promise<SchwabSecret> {
  if (!ctx.config.SCHWAB_CLIENT_ID || !ctx.config.SCHWAB_CLIENT_SECRET) throw new SyncError(null, "unavailable", "Schwab is not set up on this instance (SCHWAB_CLIENT_ID and SCHWAB_CLIENT_SECRET).");
  const res = await brokerFetch(ctx, NAME, () => ({
    url: `${baseOf(ctx)}/v1/oauth/token`,
    init: { method: "POST", headers: { Authorization: basic(ctx), "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" }, body: new URLSearchParams(form).toString() },
  }));
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    const said = await res.text();
    const code = /"error"\s*:\s*"([^"]{1,60})"/.exec(said)?.[1] ?? String(res.status);
    throw new SyncError(code, "reauth", form.grant_type === "refresh_token" ? REAUTH : `Schwab refused the sign-in (${code}): try connecting again.`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "unavailable", `Schwab answered HTTP ${res.status}.`);
  }
  const body = await jsonOf<{ access_token?: unknown; refresh_token?: unknown; expires_in?: unknown }>(res, NAME);
  if (typeof body?.access_token !== "string") throw new SyncError(null, "retry", "Schwab sent a token answer this journal cannot read; the next run tries again.");
  const refreshToken = typeof body.refresh_token === "string" ? body.refresh_token : form.refresh_token;
  if (!refreshToken) throw new SyncError(null, "retry", "Schwab sent no refresh token; try connecting again.");
  const seconds = typeof body.expires_in === "number" ? body.expires_in : 1800;
  return { accessToken: body.access_token, refreshToken, expiresAt: new Date(ctx.now().getTime() + seconds * 1000).toISOString(), signedInAt };
}

async function get<T>(ctx: SyncContext, token: string, path: string): Promise<T> {
  const res = await brokerFetch(ctx, NAME, () => ({ url: `${baseOf(ctx)}${path}`, init: { headers: { Authorization: `Bearer ${token}`, Accept: "application/json" } } }));
  if (res.status === 401) {
    await res.body?.cancel();
    throw new SyncError("401", "reauth", REAUTH);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "unavailable", `Schwab answered HTTP ${res.status}.`);
  }
  return jsonOf<T>(res, NAME);
}

/** The trader's accounts: the last four digits shown, the hash Schwab wants in paths. */
export async function accountsOf(ctx: SyncContext, token: string): Promise<Array<{ tail: string; hash: string }>> {
  const list = await get<unknown>(ctx, token, "/trader/v1/accounts/accountNumbers");
  if (!Array.isArray(list)) throw new SyncError(null, "retry", "Schwab sent accounts this journal cannot read; the next run tries again.");
  return list.flatMap((a: { accountNumber?: unknown; hashValue?: unknown }) => (typeof a?.accountNumber === "string" && typeof a.hashValue === "string" ? [{ tail: a.accountNumber.slice(-4), hash: a.hashValue }] : []));
}

/** "2024-05-10T14:30:05+0000" as an instant (the offset without its colon is Schwab's). */
const instant = (time: string) => new Date(Date.parse(time.replace(/([+-]\d{2})(\d{2})$/, "$1:$2")));

/** A live access token (refreshed when it has less than a minute left) that still opens the connection's account. */
async function signedIn(ctx: SyncContext, kept: SchwabSecret, settings: Record<string, string | boolean>) {
  if (Date.parse(kept.signedInAt) + REFRESH_LIFETIME_MS <= ctx.now().getTime()) throw new SyncError("expired", "reauth", REAUTH);
  const fresh = Date.parse(kept.expiresAt) - ctx.now().getTime() > 60_000 ? null : await tokenRequest(ctx, { grant_type: "refresh_token", refresh_token: kept.refreshToken }, kept.signedInAt);
  const token = (fresh ?? kept).accessToken;
  const hash = String(settings.accountHash);
  const accounts = await accountsOf(ctx, token);
  if (!accounts.some((a) => a.hash === hash)) throw new SyncError(null, "reauth", `Schwab: this sign-in no longer opens account …${String(settings.accountTail)}: sign in to Schwab again from the account page.`);
  return { fresh, token, hash };
}

export const adapter: SyncAdapter = {
  ...FACTS.schwab,
  /** The kept sign-in still opens the account (a connection is made by the sign-in's callback, not a PUT). */
  async verify(ctx, { secret, settings }) {
    const { fresh } = await signedIn(ctx, secret as SchwabSecret, settings);
    return fresh ? { secret: fresh } : undefined;
  },
  async pull(ctx, { secret, settings }, since) {
    const { fresh, token, hash } = await signedIn(ctx, secret as SchwabSecret, settings);
    const end = ctx.now().getTime();
    let from = since.cursor ? Date.parse(since.cursor) : (since.notBefore?.getTime() ?? end - FIRST_SYNC_MS);
    const records: SchwabTransaction[] = [];
    while (from < end) {
      const to = Math.min(from + WINDOW_MS, end);
      const query = new URLSearchParams({ startDate: new Date(from).toISOString(), endDate: new Date(to).toISOString(), types: "TRADE" });
      const page = await get<unknown>(ctx, token, `/trader/v1/accounts/${encodeURIComponent(hash)}/transactions?${query}`);
      if (!Array.isArray(page) || !page.every((t) => typeof t?.activityId === "number" && typeof t.time === "string")) throw new SyncError(null, "retry", "Schwab sent transactions this journal cannot read; the next run tries again.");
      records.push(...(page as SchwabTransaction[]));
      from = to;
    }
    const newest = records.reduce<number | null>((max, t) => Math.max(max ?? -Infinity, instant(t.time).getTime()), null);
    return { records, cursor: newest === null ? null : new Date(newest).toISOString(), ...(fresh ? { secret: fresh } : {}) };
  },
  /** Rows under the generic preset: one per traded item of a valid TRADE, its fees the fee items' costs, the order id. */
  normalise: (records) =>
    (records as SchwabTransaction[])
      .filter((t) => t.type === "TRADE" && (t.status ?? "VALID") === "VALID")
      .flatMap((t) => {
        const at = instant(t.time);
        if (Number.isNaN(at.getTime())) throw new SyncError(null, "retry", "Schwab sent a transaction this journal cannot read; the next run tries again.");
        const items = t.transferItems ?? [];
        const fees = items.filter((i) => i.feeType).reduce((sum, i) => sum + toUnits(String(Math.abs(i.cost ?? 0))), 0n);
        const traded = items.filter((i) => !i.feeType && i.instrument?.assetType !== "CURRENCY" && typeof i.amount === "number" && i.amount !== 0);
        return traded.map((i, n) => [
          at.toISOString(),
          (i.instrument?.symbol ?? "").trim(),
          i.amount! > 0 ? "BUY" : "SELL",
          String(Math.abs(i.amount!)),
          String(i.price ?? ""),
          n === 0 ? fromUnits(fees) : "0",
          traded.length > 1 ? `${t.activityId}-${n + 1}` : String(t.activityId),
          t.orderId === undefined ? "" : String(t.orderId),
        ]);
      }),
};
