// The adapters' side of the broker call (lib/ports/broker.ts): the adapter of each provider, and one call
// run through it, in this process (Node, `wrangler dev`) or in the brokers Worker (functions/workers/brokers.ts).
import type { Provider, SyncAdapter, SyncContext } from "./adapter.ts";
import { adapter as alpaca } from "./adapters/alpaca.ts";
import { adapter as coinbase } from "./adapters/coinbase.ts";
import { adapter as ibkrFlex } from "./adapters/ibkr-flex.ts";
import { adapter as kraken } from "./adapters/kraken.ts";
import { adapter as schwab } from "./adapters/schwab.ts";
import { adapter as tastytrade } from "./adapters/tastytrade.ts";
import { adapter as tradovate } from "./adapters/tradovate.ts";
import type { BrokerCall, BrokerConfig, BrokerResult, BrokerRunner } from "../ports/broker.ts";
import { SyncError } from "./errors.ts";

/**
 * Every adapter, imported with this module: the runner is where the adapters belong (the brokers Worker, and
 * a Node process or `wrangler dev` that pulls connections). Statically: a Worker bundle inlines dynamic
 * imports as lazily initialised modules, and with zod shared between them and the advisor's SDK, `wrangler dev`
 * once started with a module used before its initialisation ("... is not a constructor").
 */
const ADAPTERS: Record<Provider, SyncAdapter> = {
  "ibkr-flex": ibkrFlex,
  alpaca,
  tastytrade,
  tradovate,
  schwab,
  kraken,
  coinbase,
};

export async function adapterFor(provider: Provider): Promise<SyncAdapter> {
  return ADAPTERS[provider];
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
