// The broker calls of a sync (lib/sync/sync.ts), as one seam: a `BrokerCall` of plain data (the provider, the
// credentials, the op) in, a `BrokerResult` of plain data out, so the adapters (their parsers and signers) can
// run outside the Worker that holds the connection (docs/architecture.md, "The brokers Worker"): in this
// process on Node and in `wrangler dev` (lib/sync/runner.ts, inProcessBrokers), or in the brokers Worker over
// a service binding (lib/sync/broker-binding.ts). A provider's refusal comes back as data (a SyncError does not
// cross RPC). A port (lib/deps.ts composes it): it holds no adapter, and the Workers that only call brokers
// import it alone.
import type { Config } from "../config/index.ts";

/** The brokers a connection can sync (an adapter each: lib/sync/adapters). */
export const PROVIDERS = ["ibkr-flex", "alpaca", "tastytrade", "tradovate", "schwab", "kraken", "coinbase"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** What a connection keeps of the trader's: its secrets (sealed at rest) and its settings. */
export type Credentials = { secret: Record<string, string>; settings: Record<string, string | boolean> };

/**
 * What a provider's answer means for the connection:
 * - "credentials": the key, token or password is wrong, expired or revoked (the connection is broken until the
 *   trader saves new ones; the schedule skips it);
 * - "settings": something else the trader gave is wrong (IBKR's query id);
 * - "reauth": an OAuth grant was refused on refresh (the trader signs in at the broker again);
 * - "retry": the provider is busy, throttled or down, or answered something unreadable: a later run may work;
 * - "unavailable": the provider cannot give what was asked (a statement not available for the period).
 */
export type SyncProblem = "credentials" | "settings" | "reauth" | "retry" | "unavailable";

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
