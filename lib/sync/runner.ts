// The broker calls of a sync (lib/sync/sync.ts), as one seam: a `BrokerCall` of plain data (the provider, the
// credentials, the op) in, a `BrokerResult` of plain data out, so the adapters (their parsers and signers) can
// run outside the Worker that holds the connection (docs/architecture.md, "The brokers Worker"): in this
// process on Node and in `wrangler dev` (inProcessBrokers), or in the brokers Worker over a service binding
// (lib/sync/broker-binding.ts). A provider's refusal comes back as data (a SyncError does not cross RPC).
import type { Config } from "../config/index.ts";
import type { Credentials, Provider, SyncAdapter, SyncContext } from "./adapter.ts";
import { SyncError, type SyncProblem } from "./errors.ts";

export type BrokerCall =
  | { op: "verify"; provider: Provider; credentials: Credentials }
  | { op: "pull"; provider: Provider; credentials: Credentials; since: { cursor: string | null; notBefore: string | null } };

/** A pull's answer with its records already normalised to the preset's rows (lib/sync/adapter.ts, tableOf). */
export type PulledRows = { rows: string[][]; cursor: string | null; secret?: Record<string, string>; settings?: Record<string, string | boolean> };

export type BrokerResult =
  | { ok: true; verified?: Partial<Credentials>; pulled?: PulledRows }
  | { ok: false; error: { code: string | null; problem: SyncProblem; message: string; field: string | null } };

/** The configuration the adapters read: their base URLs, waits, the Schwab app and the version (User-Agent). */
export const BROKER_CONFIG = [
  "APP_VERSION", "FLEX_BASE_URL", "FLEX_POLL_MS", "ALPACA_BASE_URL", "TASTYTRADE_BASE_URL", "TRADOVATE_BASE_URL", "SCHWAB_BASE_URL",
  "SCHWAB_CLIENT_ID", "SCHWAB_CLIENT_SECRET", "KRAKEN_BASE_URL", "COINBASE_BASE_URL", "BROKER_RETRY_MS",
] as const satisfies ReadonlyArray<keyof Config>;
export type BrokerConfig = Partial<Pick<Config, (typeof BROKER_CONFIG)[number]>>;

export const brokerConfigOf = (config: Config): BrokerConfig => Object.fromEntries(BROKER_CONFIG.map((k) => [k, config[k]])) as BrokerConfig;

/** Runs one broker call (the adapter, or the binding's): a result, never a thrown provider refusal. */
export type BrokerRunner = (call: BrokerCall, config: BrokerConfig) => Promise<BrokerResult>;

/** Each adapter is loaded when first called, not at start (some carry large parsers). */
const ADAPTERS: Record<Provider, () => Promise<{ adapter: SyncAdapter }>> = {
  "ibkr-flex": () => import("./adapters/ibkr-flex.ts"),
  alpaca: () => import("./adapters/alpaca.ts"),
  tastytrade: () => import("./adapters/tastytrade.ts"),
  tradovate: () => import("./adapters/tradovate.ts"),
  schwab: () => import("./adapters/schwab.ts"),
  kraken: () => import("./adapters/kraken.ts"),
  coinbase: () => import("./adapters/coinbase.ts"),
};

export async function adapterFor(provider: Provider): Promise<SyncAdapter> {
  return (await ADAPTERS[provider]()).adapter;
}

/** One call through the provider's adapter, with `fetch` and the clock of this process. */
export async function runBrokerCall(call: BrokerCall, ctx: Pick<SyncContext, "fetch" | "now"> & { config: BrokerConfig }): Promise<BrokerResult> {
  const sync = ctx as SyncContext; // the adapters read only BROKER_CONFIG's keys
  const adapter = await adapterFor(call.provider);
  try {
    if (call.op === "verify") return { ok: true, verified: (await adapter.verify(sync, call.credentials)) ?? {} };
    const pulled = await adapter.pull(sync, call.credentials, { cursor: call.since.cursor, notBefore: call.since.notBefore ? new Date(call.since.notBefore) : null });
    let rows: string[][];
    try {
      rows = adapter.normalise(pulled.records);
    } catch (err) {
      if (err instanceof SyncError) throw err;
      throw new SyncError(null, "retry", `${adapter.name} sent records this journal cannot read; the next run tries again.`);
    }
    return { ok: true, pulled: { rows, cursor: pulled.cursor, ...(pulled.secret ? { secret: pulled.secret } : {}), ...(pulled.settings ? { settings: pulled.settings } : {}) } };
  } catch (err) {
    if (!(err instanceof SyncError)) throw err;
    return { ok: false, error: { code: err.code, problem: err.problem, message: err.message, field: err.field } };
  }
}

/** The runner of the Node process and of `wrangler dev`: the adapters here (on the app's clock, which tests move). */
export function inProcessBrokers(fetcher: typeof fetch, now: () => Date = () => new Date()): BrokerRunner {
  return (call, config) => runBrokerCall(call, { config, fetch: fetcher, now });
}
