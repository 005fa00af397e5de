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
    // tastytrade: a personal OAuth grant (its application's client secret and the grant's refresh token); the
    // account number when the grant opens several accounts.
    z.strictObject({
      provider: z.literal("tastytrade"),
      clientSecret: text(/^[A-Za-z0-9._~+/=-]{8,200}$/, "must be the OAuth application's client secret, as tastytrade shows it"),
      refreshToken: text(/^[A-Za-z0-9._~+/=-]{16,4000}$/, "must be the grant's refresh token, as tastytrade shows it"),
      accountNumber: z.optional(text(/^[A-Za-z0-9]{4,20}$/, "must be a tastytrade account number, such as 5WT00001")),
      sandbox: z.optional(z.boolean({ error: "must be true or false" })),
      startDate,
    }),
    // Tradovate: the user's name and password and the API key's app id, cid and secret; the account's name when
    // the user has several.
    z.strictObject({
      provider: z.literal("tradovate"),
      name: text(/^\S{1,100}$/, "must be your Tradovate user name"),
      password: z.string({ error: "is required" }).check(z.minLength(1, "is required"), z.maxLength(200, "is too long")),
      appId: text(/^.{1,100}$/, "must be the API key's app id (the name you gave the key)"),
      cid: text(/^\d{1,12}$/, "must be the API key's cid: digits"),
      secret: text(/^[A-Za-z0-9-]{8,200}$/, "must be the API key's secret, as Tradovate shows it"),
      accountName: z.optional(text(/^.{1,100}$/, "must be the account's name as Tradovate shows it")),
      demo: z.optional(z.boolean({ error: "must be true or false" })),
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
  { error: "must be ibkr-flex, alpaca, tastytrade, tradovate, kraken or coinbase (Schwab connects through its sign-in: GET /api/accounts/:id/broker-connection/oauth/schwab/start)" },
);
export type BrokerConnectionInput = z.infer<typeof BrokerConnectionSchema>;

/** What of the PUT is sealed and what is kept in the clear to show (lib/sync/adapter.ts, Credentials). */
export function credentialsOf(input: BrokerConnectionInput): Credentials & { provider: Provider } {
  switch (input.provider) {
    case "ibkr-flex":
      return { provider: input.provider, secret: { token: input.token }, settings: { queryId: input.queryId } };
    case "alpaca":
      return { provider: input.provider, secret: { keyId: input.keyId, secret: input.secret }, settings: { paper: input.paper ?? false } };
    case "tastytrade":
      return { provider: input.provider, secret: { clientSecret: input.clientSecret, refreshToken: input.refreshToken }, settings: { accountNumber: input.accountNumber ?? "", sandbox: input.sandbox ?? false } };
    case "tradovate":
      return { provider: input.provider, secret: { name: input.name, password: input.password, appId: input.appId, cid: input.cid, sec: input.secret }, settings: { accountName: input.accountName ?? "", demo: input.demo ?? false } };
    case "kraken":
      return { provider: input.provider, secret: { key: input.key, secret: input.secret }, settings: {} };
    case "coinbase":
      // Coinbase shows the key with "\n" written out when copied from its JSON file: real line breaks are kept.
      return { provider: input.provider, secret: { keyName: input.keyName, privateKey: input.privateKey.replace(/\\n/g, "\n") }, settings: {} };
  }
}

/** GET .../broker-connection/oauth/schwab/start: what the trader chose before signing in at Schwab. */
export const SchwabStartQuerySchema = z.object({
  startDate: z.optional(z.iso.date("must be a date as YYYY-MM-DD")),
  accountTail: z.optional(z.string().check(z.regex(/^\d{4}$/, "must be the last four digits of the Schwab account"))),
});

/** GET /api/accounts/broker-oauth/schwab/callback: what Schwab sends the browser back with. */
export const SchwabCallbackQuerySchema = z.object({
  code: z.optional(z.string().check(z.maxLength(2000))),
  state: z.optional(z.string().check(z.maxLength(200))),
  error: z.optional(z.string().check(z.maxLength(200))),
  session: z.optional(z.string().check(z.maxLength(200))),
});

/** PATCH /api/accounts/:id/broker-connection: pause the scheduled pulls, or resume them. */
export const BrokerConnectionPatchSchema = z.strictObject({ paused: z.boolean({ error: "must be true or false" }) });
