import * as z from "zod/mini";
import type { Credentials, Provider } from "./adapter.ts";

/** Nothing executed before this day (YYYY-MM-DD, in the account's time zone) is imported; null or absent: all. */
const startDate = z.optional(z.nullable(z.iso.date("must be a date as YYYY-MM-DD")));
const text = (pattern: RegExp, says: string) => z.string({ error: "is required" }).check(z.trim(), z.regex(pattern, says));

/** PUT /api/accounts/:id/broker-connection: the provider and its credentials (docs/imports.md, "Broker sync"). */
export const BrokerConnectionSchema = z.discriminatedUnion(
  "provider",
  [
    // Interactive Brokers' Flex Web Service: the token and an Activity Flex query's id.
    z.strictObject({
      provider: z.literal("ibkr-flex"),
      token: text(/^[A-Za-z0-9]{8,64}$/, "must be the Flex Web Service token: 8 to 64 letters and digits"),
      queryId: text(/^\d{1,12}$/, "must be the Flex query's id: digits only"),
      startDate,
    }),
    // Alpaca: an API key id and its secret (live or paper: paper keys only work on the paper API).
    z.strictObject({
      provider: z.literal("alpaca"),
      keyId: text(/^[A-Za-z0-9]{8,64}$/, "must be the API key id: 8 to 64 letters and digits"),
      secret: text(/^[A-Za-z0-9/+=_-]{16,128}$/, "must be the API key's secret: 16 to 128 characters, no spaces"),
      paper: z.optional(z.boolean({ error: "must be true or false" })),
      startDate,
    }),
    // Kraken: an API key and its private key (base64), with the "Query closed orders & trades" permission.
    z.strictObject({
      provider: z.literal("kraken"),
      key: text(/^[A-Za-z0-9/+=]{16,128}$/, "must be the API key: 16 to 128 characters, no spaces"),
      secret: text(/^[A-Za-z0-9/+]{16,200}={0,2}$/, "must be the private key as Kraken shows it (base64)"),
      startDate,
    }),
    // Coinbase Advanced: a CDP API key's name and its EC private key (PEM).
    z.strictObject({
      provider: z.literal("coinbase"),
      keyName: text(/^organizations\/[A-Za-z0-9-]{1,64}\/apiKeys\/[A-Za-z0-9-]{1,64}$/, "must be the key's name: organizations/{org id}/apiKeys/{key id}"),
      privateKey: z.string({ error: "is required" }).check(
        z.trim(),
        z.maxLength(2000, "is too long for a private key"),
        z.regex(/^-----BEGIN EC PRIVATE KEY-----[\s\S]+-----END EC PRIVATE KEY-----$/, "must be the key's private key as Coinbase shows it (-----BEGIN EC PRIVATE KEY----- ...)"),
      ),
      startDate,
    }),
  ],
  { error: "must be ibkr-flex, alpaca, kraken or coinbase" },
);
export type BrokerConnectionInput = z.infer<typeof BrokerConnectionSchema>;

/** What of the PUT is sealed and what is kept in the clear to show (lib/sync/adapter.ts, Credentials). */
export function credentialsOf(input: BrokerConnectionInput): Credentials & { provider: Provider } {
  switch (input.provider) {
    case "ibkr-flex":
      return { provider: input.provider, secret: { token: input.token }, settings: { queryId: input.queryId } };
    case "alpaca":
      return { provider: input.provider, secret: { keyId: input.keyId, secret: input.secret }, settings: { paper: input.paper ?? false } };
    case "kraken":
      return { provider: input.provider, secret: { key: input.key, secret: input.secret }, settings: {} };
    case "coinbase":
      // Coinbase shows the key with "\n" written out when copied from its JSON file: real line breaks are kept.
      return { provider: input.provider, secret: { keyName: input.keyName, privateKey: input.privateKey.replace(/\\n/g, "\n") }, settings: {} };
  }
}
