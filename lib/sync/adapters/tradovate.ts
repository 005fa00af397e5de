// Tradovate's REST API as a sync adapter (docs/imports.md, "Broker sync"), as Tradovate documents it
// (partner.tradovate.com API reference: "Access Token Request", "Renew Access Token", "Account List",
// "Fill", "Fill Fee", "Contract Items", "Rate limits", "Penalty tickets"; tradovate/example-api-js and
// example-api-faq):
// - POST /auth/accesstokenrequest {name, password, appId, appVersion, cid, sec} answers {accessToken,
//   expirationTime, ...} (about 90 minutes), or HTTP 200 {errorText} for refused credentials, or a penalty
//   {"p-ticket", "p-time", "p-captcha"}: wait p-time seconds and send again with the ticket; with p-captcha
//   the app must wait (about an hour). Only two sessions are open at once, so a token still valid is renewed
//   (GET /auth/renewaccesstoken, Bearer) rather than a new one requested; an expired one answers 401.
// - fills carry no account: the account's orders (GET /order/deps?masterid=<account id>), then their fills
//   (GET /fill/ldeps?masterids=), their fees (GET /fillFee/ldeps?masterids=<fill ids>) and the contracts' names
//   (GET /contract/items?ids=, ten at a time).
// - the trap: fills are kept for the current trading session only, so the connection is pulled twice a day
//   (SYNC_EVERY_HOURS), and older history comes from Tradovate's Fills report as a file (the "tradovate" preset).
// - a 429 (empty body) is asked again with backoff (lib/sync/http.ts).
import { fromUnits, toUnits } from "../../money.ts";
import { FACTS, type SyncAdapter, type SyncContext } from "../adapter.ts";
import { SyncError } from "../errors.ts";
import { brokerFetch, jsonOf } from "../http.ts";

const LIVE = "https://live.tradovateapi.com/v1";
const DEMO = "https://demo.tradovateapi.com/v1";
const NAME = "Tradovate";
/** A token with less than this left is requested anew rather than renewed. */
const RENEW_MARGIN_MS = 15 * 60_000;
const CONTRACTS_PER_CALL = 10;
const IDS_PER_CALL = 100;
const MAX_PENALTY_WAIT_S = 60;

type Secret = { name: string; password: string; appId: string; cid: string; sec: string; accessToken?: string; expiresAt?: string };
type Fill = { id: number; orderId: number; contractId: number; timestamp: string; tradeDate?: { year: number; month: number; day: number }; action: string; qty: number; price: number; active: boolean };
type FillFee = { id: number; commission?: number; clearingFee?: number; exchangeFee?: number; nfaFee?: number; brokerageFee?: number; ipFee?: number; orderRoutingFee?: number };
/** A fill with what the normaliser needs beside it: its contract's name, its account's name and its fees. */
export type TradovateRecord = Fill & { contractName: string; accountName: string; accountId: number; fees: string };

const baseOf = (ctx: SyncContext, demo: boolean) => (ctx.config.TRADOVATE_BASE_URL ?? (demo ? DEMO : LIVE)).replace(/\/$/, "");
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A token for the credentials: the kept one renewed while it lives, else a new one (penalties waited out). */
async function session(ctx: SyncContext, secret: Secret, demo: boolean): Promise<Secret> {
  const base = baseOf(ctx, demo);
  if (secret.accessToken && secret.expiresAt && Date.parse(secret.expiresAt) - ctx.now().getTime() > RENEW_MARGIN_MS) {
    const res = await brokerFetch(ctx, NAME, () => ({ url: `${base}/auth/renewaccesstoken`, init: { headers: { Authorization: `Bearer ${secret.accessToken}`, Accept: "application/json" } } }));
    if (res.ok) {
      const body = await jsonOf<{ accessToken?: unknown; expirationTime?: unknown }>(res, NAME);
      if (typeof body?.accessToken === "string" && typeof body.expirationTime === "string") return { ...secret, accessToken: body.accessToken, expiresAt: body.expirationTime };
    } else await res.body?.cancel();
  }
  let ticket: string | undefined;
  for (let attempt = 0; ; attempt++) {
    const body = { name: secret.name, password: secret.password, appId: secret.appId, appVersion: "1.0", cid: Number(secret.cid), sec: secret.sec, ...(ticket ? { "p-ticket": ticket } : {}) };
    const res = await brokerFetch(ctx, NAME, () => ({ url: `${base}/auth/accesstokenrequest`, init: { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) } }));
    if (!res.ok) {
      await res.body?.cancel();
      throw new SyncError(String(res.status), "unavailable", `Tradovate answered HTTP ${res.status}.`);
    }
    const answer = await jsonOf<{ accessToken?: unknown; expirationTime?: unknown; errorText?: unknown; "p-ticket"?: unknown; "p-time"?: unknown; "p-captcha"?: unknown }>(res, NAME);
    if (typeof answer?.errorText === "string" && answer.errorText) {
      throw new SyncError("errorText", "credentials", `Tradovate refused the sign-in: ${answer.errorText.slice(0, 200)}`, "name");
    }
    if (typeof answer?.["p-ticket"] === "string") {
      const seconds = Number(answer["p-time"] ?? 0);
      if (answer["p-captcha"] === true || seconds > MAX_PENALTY_WAIT_S || attempt >= 2) {
        throw new SyncError("p-ticket", "retry", "Tradovate asks to wait before the next sign-in (too many attempts); the next run tries again.");
      }
      ticket = answer["p-ticket"];
      await wait(seconds * 1000);
      continue;
    }
    if (typeof answer?.accessToken !== "string" || typeof answer.expirationTime !== "string") throw new SyncError(null, "retry", "Tradovate sent a sign-in answer this journal cannot read; the next run tries again.");
    return { ...secret, accessToken: answer.accessToken, expiresAt: answer.expirationTime };
  }
}

async function get<T>(ctx: SyncContext, secret: Secret, demo: boolean, path: string): Promise<T> {
  const res = await brokerFetch(ctx, NAME, () => ({ url: `${baseOf(ctx, demo)}${path}`, init: { headers: { Authorization: `Bearer ${secret.accessToken}`, Accept: "application/json" } } }));
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "retry", `Tradovate refused the session (HTTP ${res.status}); the next run signs in again.`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SyncError(String(res.status), "unavailable", `Tradovate answered HTTP ${res.status}.`);
  }
  const body = await jsonOf<T>(res, NAME);
  if (!Array.isArray(body)) throw new SyncError(null, "retry", "Tradovate sent a list this journal cannot read; the next run tries again.");
  return body;
}

const chunks = <T>(list: T[], size: number) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

async function accountOf(ctx: SyncContext, secret: Secret, demo: boolean, wanted: string | undefined) {
  const accounts = await get<Array<{ id: number; name: string; active: boolean }>>(ctx, secret, demo, "/account/list");
  const open = accounts.filter((a) => a.active !== false);
  const found = wanted ? open.find((a) => a.name === wanted) : open.length === 1 ? open[0] : undefined;
  if (!found) {
    const names = open.map((a) => a.name).join(", ") || "none";
    throw new SyncError(null, "settings", wanted ? `Tradovate: the user's active accounts are ${names}, not ${wanted}.` : `Tradovate: the user has several accounts (${names}): give the account's name.`, "accountName");
  }
  return found;
}

const sumFees = (fee: FillFee | undefined) =>
  fromUnits([fee?.commission, fee?.clearingFee, fee?.exchangeFee, fee?.nfaFee, fee?.brokerageFee, fee?.ipFee, fee?.orderRoutingFee].reduce<bigint>((sum, v) => sum + toUnits(String(v ?? 0)), 0n));

export const adapter: SyncAdapter = {
  ...FACTS.tradovate,
  async verify(ctx, { secret, settings }) {
    const demo = settings.demo === true;
    const signed = await session(ctx, secret as Secret, demo);
    const account = await accountOf(ctx, signed, demo, typeof settings.accountName === "string" && settings.accountName ? settings.accountName : undefined);
    return { secret: signed, settings: { ...settings, accountName: account.name } };
  },
  /** The session's fills of the account after the cursor (the newest fill time a run committed) or the start date. */
  async pull(ctx, { secret, settings }, since) {
    const demo = settings.demo === true;
    const signed = await session(ctx, secret as Secret, demo);
    const account = await accountOf(ctx, signed, demo, String(settings.accountName));
    const orders = await get<Array<{ id: number }>>(ctx, signed, demo, `/order/deps?masterid=${account.id}`);
    const fills: Fill[] = [];
    for (const ids of chunks(orders.map((o) => o.id), IDS_PER_CALL)) fills.push(...(await get<Fill[]>(ctx, signed, demo, `/fill/ldeps?masterids=${ids.join(",")}`)));
    const after = since.cursor ? Date.parse(since.cursor) : (since.notBefore?.getTime() ?? -Infinity);
    const wanted = fills.filter((f) => f.active !== false && typeof f.timestamp === "string" && Date.parse(f.timestamp) >= after);
    const fees = new Map<number, FillFee>();
    for (const ids of chunks(wanted.map((f) => f.id), IDS_PER_CALL)) for (const fee of await get<FillFee[]>(ctx, signed, demo, `/fillFee/ldeps?masterids=${ids.join(",")}`)) fees.set(fee.id, fee);
    const names = new Map<number, string>();
    for (const ids of chunks([...new Set(wanted.map((f) => f.contractId))], CONTRACTS_PER_CALL)) {
      for (const c of await get<Array<{ id: number; name: string }>>(ctx, signed, demo, `/contract/items?ids=${ids.join(",")}`)) names.set(c.id, c.name);
    }
    const records: TradovateRecord[] = wanted.map((f) => ({ ...f, contractName: names.get(f.contractId) ?? "", accountName: account.name, accountId: account.id, fees: sumFees(fees.get(f.id)) }));
    const newest = records.reduce<string | null>((max, f) => (max === null || Date.parse(f.timestamp) > Date.parse(max) ? new Date(Date.parse(f.timestamp)).toISOString() : max), null);
    return { records, cursor: newest, secret: signed };
  },
  /** Rows as Tradovate's Fills report writes them (its "tradovate" preset): the fill id, the contract's name, the fees as "commission". */
  normalise: (records) =>
    (records as TradovateRecord[]).map((f) => {
      if (typeof f.id !== "number" || typeof f.timestamp !== "string" || !f.contractName) throw new SyncError(null, "retry", "Tradovate sent a fill this journal cannot read; the next run tries again.");
      const day = f.tradeDate ? `${f.tradeDate.year}-${String(f.tradeDate.month).padStart(2, "0")}-${String(f.tradeDate.day).padStart(2, "0")}` : "";
      return [String(f.id), String(f.orderId), String(f.contractId), f.timestamp, day, f.action, String(f.qty), String(f.price), String(f.active), String(f.accountId), String(f.id), String(f.orderId), "", "", f.accountName, f.action, String(f.qty), String(f.price), "", "", "", f.contractName, "", "", f.fees];
    }),
};
