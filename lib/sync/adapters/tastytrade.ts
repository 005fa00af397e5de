// tastytrade's Open API as a sync adapter (docs/imports.md, "Broker sync"), as tastytrade documents it
// (developer.tastytrade.com: "OAuth2", "Accounts", "Transactions", "Pagination", "Rate limits"; the
// tastyware/tastytrade and tastytrade/tastytrade-api-js SDKs):
// - the username-and-password session (POST /sessions, its remember token) was decommissioned on 2026-02-11;
//   a personal OAuth grant replaces it: the trader makes an OAuth application and a grant on my.tastytrade.com
//   and gives its client secret and refresh token. POST /oauth/token {grant_type: "refresh_token",
//   refresh_token, client_secret} answers an access token for 15 minutes (Authorization: Bearer); a refused
//   grant is {"error_code": "invalid_grant", ...}. The refresh token does not expire and is not rotated; when an
//   answer carries a new one, it is kept.
// - every request needs a User-Agent "product/version" (without one: an HTML 401 from the proxy);
// - GET /customers/me/accounts lists {account: {"account-number", "is-closed"}}; GET
//   /accounts/{n}/transactions?sort=Asc&per-page=250&page-offset=&start-at= answers {data: {items}, pagination:
//   {"page-offset", "total-pages"}}, amounts as unsigned decimal strings with a "-effect" (Debit/Credit/None).
// - no published quota: a 429 is asked again with backoff (lib/sync/http.ts).
import { divideUnits, fromUnits, toUnits } from "../../money.ts";
import { FACTS, type SyncAdapter, type SyncContext } from "../adapter.ts";
import { SyncError } from "../errors.ts";
import { brokerFetch, jsonOf } from "../http.ts";

const LIVE = "https://api.tastyworks.com";
const SANDBOX = "https://api.cert.tastyworks.com";
const NAME = "tastytrade";
const USER_AGENT = "trading-journal/1.0";
export const PAGE_SIZE = 250;

type Secret = { clientSecret: string; refreshToken: string };
export type TastyTransaction = {
  id: number;
  "transaction-type": string;
  "transaction-sub-type"?: string;
  action?: string;
  symbol?: string;
  "instrument-type"?: string;
  description?: string;
  value?: string;
  "value-effect"?: string;
  quantity?: string;
  price?: string;
  commission?: string;
  "clearing-fees"?: string;
  "regulatory-fees"?: string;
  "proprietary-index-option-fees"?: string;
  "underlying-symbol"?: string;
  "executed-at": string;
  "order-id"?: number;
  "net-value"?: string;
  "net-value-effect"?: string;
  currency?: string;
};

const baseOf = (ctx: SyncContext, sandbox: boolean) => (ctx.config.TASTYTRADE_BASE_URL ?? (sandbox ? SANDBOX : LIVE)).replace(/\/$/, "");

/** An access token for the grant (and the refresh token when tastytrade sent a new one). */
async function accessToken(ctx: SyncContext, secret: Secret, sandbox: boolean): Promise<{ token: string; rotated: string | null }> {
  const res = await brokerFetch(ctx, NAME, () => ({
    url: `${baseOf(ctx, sandbox)}/oauth/token`,
    init: {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "User-Agent": USER_AGENT },
      body: JSON.stringify({ grant_type: "refresh_token", refresh_token: secret.refreshToken, client_secret: secret.clientSecret }),
    },
  }));
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    const said = await res.text();
    const code = /"error_code"\s*:\s*"([^"]{1,60})"/.exec(said)?.[1] ?? String(res.status);
    throw new SyncError(code, "credentials", `tastytrade refused the OAuth grant (${code}): check the client secret and the refresh token, and that the grant was not revoked.`, "refreshToken");
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "unavailable", `tastytrade answered HTTP ${res.status}.`);
  }
  const body = await jsonOf<{ access_token?: unknown; refresh_token?: unknown }>(res, NAME);
  if (typeof body?.access_token !== "string") throw new SyncError(null, "retry", "tastytrade sent a token answer this journal cannot read; the next run tries again.");
  const rotated = typeof body.refresh_token === "string" && body.refresh_token !== secret.refreshToken ? body.refresh_token : null;
  return { token: body.access_token, rotated };
}

async function get<T>(ctx: SyncContext, token: string, sandbox: boolean, path: string): Promise<T> {
  const res = await brokerFetch(ctx, NAME, () => ({ url: `${baseOf(ctx, sandbox)}${path}`, init: { headers: { Authorization: `Bearer ${token}`, Accept: "application/json", "User-Agent": USER_AGENT } } }));
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "credentials", `tastytrade refused the access (HTTP ${res.status}): the grant may lack the "read" scope or the account.`, "refreshToken");
  }
  if (res.status === 404) {
    await res.body?.cancel();
    throw new SyncError("404", "settings", "tastytrade: this grant cannot see that account number.", "accountNumber");
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "unavailable", `tastytrade answered HTTP ${res.status}.`);
  }
  return jsonOf<T>(res, NAME);
}

/** The account to read: the one given (it must be the grant's and open), or the grant's only open one. */
async function accountOf(ctx: SyncContext, token: string, sandbox: boolean, wanted: string | undefined): Promise<string> {
  const body = await get<{ data?: { items?: Array<{ account?: { "account-number"?: string; "is-closed"?: boolean } }> } }>(ctx, token, sandbox, "/customers/me/accounts");
  const open = (body?.data?.items ?? []).map((i) => i.account).filter((a) => a && typeof a["account-number"] === "string" && !a["is-closed"]).map((a) => a!["account-number"]!);
  if (wanted) {
    if (!open.includes(wanted)) throw new SyncError(null, "settings", `tastytrade: the grant's open accounts are ${open.join(", ") || "none"}, not ${wanted}.`, "accountNumber");
    return wanted;
  }
  if (open.length === 1) return open[0]!;
  throw new SyncError(null, "settings", open.length ? `tastytrade: the grant opens several accounts (${open.join(", ")}): give the account number to sync.` : "tastytrade: the grant opens no open account.", "accountNumber");
}

/** A "-effect" as a sign: a Debit is money paid. */
const signed = (amount: string | undefined, effect: string | undefined) => (amount && effect === "Debit" && !amount.startsWith("-") ? `-${amount}` : (amount ?? ""));

export const adapter: SyncAdapter = {
  ...FACTS.tastytrade,
  async verify(ctx, { secret, settings }) {
    const sandbox = settings.sandbox === true;
    const { token, rotated } = await accessToken(ctx, secret as Secret, sandbox);
    const accountNumber = await accountOf(ctx, token, sandbox, typeof settings.accountNumber === "string" && settings.accountNumber ? settings.accountNumber : undefined);
    return { settings: { ...settings, accountNumber }, ...(rotated ? { secret: { ...secret, refreshToken: rotated } } : {}) };
  },
  /** The account's transactions from the cursor (the newest time a run committed) or the start date, oldest first. */
  async pull(ctx, { secret, settings }, since) {
    const sandbox = settings.sandbox === true;
    const { token, rotated } = await accessToken(ctx, secret as Secret, sandbox);
    const account = String(settings.accountNumber);
    const start = since.cursor ?? since.notBefore?.toISOString() ?? null;
    const records: TastyTransaction[] = [];
    for (let offset = 0; ; offset++) {
      const query = new URLSearchParams({ sort: "Asc", "per-page": String(PAGE_SIZE), "page-offset": String(offset) });
      if (start) query.set("start-at", start);
      const body = await get<{ data?: { items?: unknown }; pagination?: { "total-pages"?: unknown } }>(ctx, token, sandbox, `/accounts/${encodeURIComponent(account)}/transactions?${query}`);
      const items = body?.data?.items;
      if (!Array.isArray(items) || !items.every((i) => typeof i === "object" && i !== null && typeof (i as TastyTransaction)["executed-at"] === "string")) {
        throw new SyncError(null, "retry", "tastytrade sent transactions this journal cannot read; the next run tries again.");
      }
      records.push(...(items as TastyTransaction[]));
      const pages = Number(body.pagination?.["total-pages"] ?? 1);
      if (items.length === 0 || offset + 1 >= pages) break;
    }
    const newest = records.reduce<string | null>((max, t) => (max === null || Date.parse(t["executed-at"]) > Date.parse(max) ? new Date(Date.parse(t["executed-at"])).toISOString() : max), null);
    return { records, cursor: newest, ...(rotated ? { secret: { ...secret, refreshToken: rotated } } : {}) };
  },
  /**
   * Rows as tastytrade's own transaction history export writes them (its "tastytrade" preset): the action as
   * BUY_TO_OPEN..., "Average Price" as signed cash per unit of quantity (x100 for an option: the value over the
   * quantity), fees signed as paid; the preset then keeps trades and deliveries and skips the rest.
   */
  normalise: (records) =>
    (records as TastyTransaction[]).map((t) => {
      if (typeof t["executed-at"] !== "string" || Number.isNaN(Date.parse(t["executed-at"]))) throw new SyncError(null, "retry", "tastytrade sent a transaction this journal cannot read; the next run tries again.");
      const quantity = t.quantity ?? "";
      const value = t.value ?? "0";
      const perUnit = Number(value) > 0 && Number(quantity) > 0 ? fromUnits(divideUnits(toUnits(value), toUnits(quantity))) : (t.price ?? "");
      const fees = ["clearing-fees", "regulatory-fees", "proprietary-index-option-fees"] as const;
      const feeTotal = fees.reduce((sum, k) => sum + toUnits(t[k] ?? "0"), 0n);
      return [
        new Date(Date.parse(t["executed-at"])).toISOString(),
        t["transaction-type"] ?? "",
        t["transaction-sub-type"] ?? "",
        (t.action ?? "").toUpperCase().replace(/ /g, "_"),
        t.symbol ?? "",
        t["instrument-type"] ?? "",
        t.description ?? "",
        signed(value, t["value-effect"]),
        quantity,
        signed(perUnit, t["value-effect"]),
        t.commission ? `-${t.commission.replace(/^-/, "")}` : "",
        feeTotal ? `-${fromUnits(feeTotal < 0n ? -feeTotal : feeTotal)}` : "",
        t["instrument-type"] === "Equity Option" ? "100" : "1",
        "",
        t["underlying-symbol"] ?? "",
        "",
        "",
        "",
        t["order-id"] === undefined ? "" : String(t["order-id"]),
        signed(t["net-value"], t["net-value-effect"]),
        t.currency ?? "USD",
        String(t.id),
      ];
    }),
};
