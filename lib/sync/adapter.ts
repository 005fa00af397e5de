// The broker sync adapter interface (docs/imports.md, "Broker sync"). A provider's adapter does two things and
// keeps them apart:
// - pull: I/O only. It asks the provider for the account's executions since the connection's cursor, with the
//   provider's own authentication, paging, rate limits and retries, and answers the provider's records as they
//   came (plus the new cursor, and the credentials when the provider rotated them).
// - normalise: a pure function from those records to rows under one of the journal's CSV presets (the preset
//   a trader would use for the same broker's own export, where there is one), so a fill from a sync and the
//   same fill from a file carry the same execution id and are stored once.
// The records then go through the staged import pipeline like an upload (lib/sync/sync.ts). Conformance
// vectors (tests/fixtures/sync/<provider>/*.json: provider answers in, fills out) pin each normaliser.
import type { Deps } from "../deps.ts";
import { findPreset } from "../imports/presets.ts";
import type { ImportMapping, ImportOptions } from "../imports/schema.ts";
import { PROVIDERS, type Credentials, type Provider } from "../ports/broker.ts";

export { PROVIDERS, type Credentials, type Provider };

export type SyncContext = Pick<Deps, "config" | "fetch" | "now">;

/** What the trader gave, split: what is sealed (keys, tokens) and what may be shown (a query id, "paper"). */

export type Pulled = {
  /** The provider's records, as it sent them (one per execution, or pages the normaliser unpacks). */
  records: unknown[];
  /** Where the next run starts (a time or a provider's id): null keeps the connection's cursor as it was. */
  cursor: string | null;
  /** The secret as the provider rotated it during the pull (a new refresh or remember token), to be sealed. */
  secret?: Record<string, string>;
  /** What the provider told that the connection keeps (the account the keys open, learnt on a first run). */
  settings?: Record<string, string | boolean>;
};

/** What the journal knows of a provider without loading its adapter (the sync, the PUT, the emails). */
export type AdapterFacts = {
  /** The name a trader knows ("Alpaca"): in run errors and emails. */
  name: string;
  /** What the trader saves again when the provider refuses the credentials ("a new API key"): in the email. */
  mend: string;
  /** The CSV preset the normalised rows are read with (lib/imports/presets.ts). */
  presetId: string;
  /**
   * Columns the provider's API has and its export lacks (tastytrade's transaction id), written after the
   * preset's: each mapping field to its column's name.
   */
  extraColumns?: Partial<Record<Exclude<keyof ImportMapping, "extraFees" | "extraTags">, string>>;
  /** The secret's field whose last four characters are shown (the token, the key id, the key's name). */
  hintOf: string;
};

export type SyncAdapter = AdapterFacts & {
  /**
   * Checked when the trader saves the connection: the provider accepts the credentials. A refusal is a
   * SyncError naming the field ("credentials"/"settings"); a provider that cannot answer now is "retry".
   * It may answer what the provider told of the credentials (the account they open) to keep with them.
   */
  verify(ctx: SyncContext, credentials: Credentials): Promise<Partial<Credentials> | void>;
  pull(ctx: SyncContext, credentials: Credentials, since: { cursor: string | null; notBefore: Date | null }): Promise<Pulled>;
  /** Pure: the records to rows under the preset's header, then the extra columns (cells as strings). */
  normalise(records: unknown[]): string[][];
};


/** Each provider's facts; its adapter (lib/sync/adapters/<provider>.ts) spreads them. */
export const FACTS: Record<Provider, AdapterFacts> = {
  // IBKR's rate of each trade to the account's base currency, and that base (Account Information's currency).
  "ibkr-flex": {
    name: "Interactive Brokers", mend: "a new Flex Web Service token", presetId: "ibkr-flex", hintOf: "token",
    extraColumns: { fxRateToBase: "FXRateToBase", baseCurrency: "BaseCurrency" },
  },
  alpaca: { name: "Alpaca", mend: "new API keys", presetId: "alpaca", hintOf: "keyId" },
  // The export has no id per execution; the API's transaction id is one (partial fills of one order at one
  // price in one second stay apart, and the same fill from the export is still matched by its print).
  tastytrade: { name: "tastytrade", mend: "a new OAuth grant", presetId: "tastytrade", extraColumns: { executionId: "Transaction ID" }, hintOf: "refreshToken" },
  tradovate: { name: "Tradovate", mend: "your Tradovate password and API key", presetId: "tradovate", hintOf: "cid" },
  schwab: { name: "Schwab", mend: "a new sign-in to Schwab", presetId: "generic", extraColumns: { orderId: "Order ID" }, hintOf: "refreshToken" },
  kraken: { name: "Kraken", mend: "a new API key", presetId: "kraken", hintOf: "key" },
  coinbase: { name: "Coinbase", mend: "a new API key", presetId: "coinbase", hintOf: "keyName" },
};

/** The last four characters of the secret's shown field. */
export const hintOf = (provider: Provider, secret: Record<string, string>) => (secret[FACTS[provider].hintOf] ?? "").slice(-4);

/** The table an adapter's rows make: the preset's header and mapping, with the adapter's extra columns. */
export function tableOf(adapter: AdapterFacts): { headers: string[]; mapping: ImportMapping; options: ImportOptions } {
  const preset = findPreset(adapter.presetId)!;
  const extra = adapter.extraColumns ?? {};
  return { headers: [...preset.headers, ...(Object.values(extra) as string[])], mapping: { ...preset.mapping, ...extra }, options: preset.options };
}
