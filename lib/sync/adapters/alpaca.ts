// Alpaca's Trading API as a sync adapter (docs/imports.md, "Broker sync"), as Alpaca documents it
// (docs.alpaca.markets, "Authentication" and "Account Activities"; alpacahq/alpaca-docs):
// - every request carries the key pair in APCA-API-KEY-ID and APCA-API-SECRET-KEY; a refused key is 401
//   (`{"code":40110000,"message":"request is not authorized"}`) or 403; paper keys work only on the paper API;
// - GET /v2/account names the account the keys open (its account_number: a later answer for another account is
//   refused, not imported);
// - GET /v2/account/activities/FILL?direction=asc&page_size=100&after=&page_token= answers a bare JSON array of
//   fills, oldest first; the next page starts after the last item's id (page_token), and a page shorter than
//   page_size is the last. 200 requests a minute per key: a 429 is asked again with backoff (lib/sync/http.ts).
import { FACTS, type SyncAdapter, type SyncContext } from "../adapter.ts";
import { SyncError } from "../errors.ts";
import { brokerFetch, jsonOf } from "../http.ts";

const LIVE = "https://api.alpaca.markets";
const PAPER = "https://paper-api.alpaca.markets";
const NAME = "Alpaca";
/** Alpaca's largest page without a date. */
export const PAGE_SIZE = 100;

type Secret = { keyId: string; secret: string };
export type AlpacaFill = { id: string; activity_type: string; transaction_time: string; type: string; price: string; qty: string; side: string; symbol: string; leaves_qty?: string; order_id?: string; cum_qty?: string; order_status?: string };

const baseOf = (ctx: SyncContext, paper: boolean) => (ctx.config.ALPACA_BASE_URL ?? (paper ? PAPER : LIVE)).replace(/\/$/, "");

async function get<T>(ctx: SyncContext, secret: Secret, paper: boolean, path: string): Promise<T> {
  const res = await brokerFetch(ctx, NAME, () => ({
    url: `${baseOf(ctx, paper)}${path}`,
    init: { headers: { "APCA-API-KEY-ID": secret.keyId, "APCA-API-SECRET-KEY": secret.secret, Accept: "application/json" } },
  }));
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    const where = paper ? "paper" : "live";
    throw new SyncError(String(res.status), "credentials", `Alpaca: the API key was refused (HTTP ${res.status}): check the key id and secret, and that they are ${where} trading keys.`, "keyId");
  }
  if (!res.ok) {
    const body = await res.text();
    const said = /"message"\s*:\s*"([^"]{1,200})"/.exec(body)?.[1];
    throw new SyncError(String(res.status), "unavailable", `Alpaca answered HTTP ${res.status}${said ? ` (${said})` : ""}.`);
  }
  return jsonOf<T>(res, NAME);
}

async function accountNumber(ctx: SyncContext, secret: Secret, paper: boolean): Promise<string> {
  const account = await get<{ account_number?: unknown }>(ctx, secret, paper, "/v2/account");
  if (typeof account?.account_number !== "string") throw new SyncError(null, "retry", "Alpaca sent an account this journal cannot read; the next run tries again.");
  return account.account_number;
}

const isFill = (v: unknown): v is AlpacaFill => {
  const f = v as AlpacaFill;
  return typeof f === "object" && f !== null && typeof f.id === "string" && typeof f.transaction_time === "string";
};

export const adapter: SyncAdapter = {
  ...FACTS.alpaca,
  async verify(ctx, { secret, settings }) {
    const number = await accountNumber(ctx, secret as Secret, settings.paper === true);
    return { settings: { ...settings, accountNumber: number } };
  },
  /**
   * The fills after the cursor (the newest fill time a run committed, less a second: a fill in the same second
   * is skipped as a duplicate, never missed) or after the start date, every page of them.
   */
  async pull(ctx, { secret, settings }, since) {
    const paper = settings.paper === true;
    const number = await accountNumber(ctx, secret as Secret, paper);
    if (settings.accountNumber && number !== settings.accountNumber) {
      throw new SyncError(null, "settings", `Alpaca: these keys now open account ${number}, not ${String(settings.accountNumber)} that this connection was made with. Save the connection again with that account's keys.`, "keyId");
    }
    const after = since.cursor ? new Date(Date.parse(since.cursor) - 1000) : since.notBefore;
    const records: AlpacaFill[] = [];
    let pageToken: string | null = null;
    for (;;) {
      const query = new URLSearchParams({ direction: "asc", page_size: String(PAGE_SIZE) });
      if (after) query.set("after", after.toISOString());
      if (pageToken) query.set("page_token", pageToken);
      const page = await get<unknown>(ctx, secret as Secret, paper, `/v2/account/activities/FILL?${query}`);
      if (!Array.isArray(page) || !page.every(isFill)) throw new SyncError(null, "retry", "Alpaca sent activities this journal cannot read; the next run tries again.");
      records.push(...page);
      if (page.length < PAGE_SIZE) break;
      pageToken = page[page.length - 1]!.id;
    }
    const newest = records.reduce<string | null>((max, f) => (max === null || Date.parse(f.transaction_time) > Date.parse(max) ? f.transaction_time : max), null);
    return { records, cursor: newest, ...(settings.accountNumber ? {} : { settings: { ...settings, accountNumber: number } }) };
  },
  normalise: (records) =>
    (records as AlpacaFill[]).map((f) => [f.id, f.activity_type, f.transaction_time, f.type, f.price, f.qty, f.side, f.symbol, f.leaves_qty ?? "", f.order_id ?? "", f.cum_qty ?? "", f.order_status ?? ""]),
};
