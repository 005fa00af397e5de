// The response bodies of the sync routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { id } from "../fields.ts";

const BrokerRunSchema = z.object({
  id: id(),
  trigger: z.enum(["schedule", "manual"]),
  status: z.enum(["running", "succeeded", "failed"]),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  imported: z.number().check(z.describe("Fills the run wrote")),
  duplicates: z.number().check(z.describe("Fills of the statement the account had already (skipped)")),
  skippedDeleted: z.number().check(z.describe("Fills of the statement the trader had deleted by hand: left out, never brought back by a sync")),
  skipped: z.array(z.object({ reason: z.string(), count: z.number() })).check(z.describe("Every row the run left out, counted per reason (not a trade, before the start date, deleted by you...), most first")),
  error: z.nullable(z.string()).check(z.describe("Why it failed, or the rows it could not read, in the broker's or the importer's words")),
  importId: z.nullable(z.string()).check(z.describe("The import it committed (undo it from the import history)")),
});

export const BrokerRunListSchema = z.object({ runs: z.array(BrokerRunSchema) });

export const BrokerConnectionViewSchema = z.object({
  provider: z.enum(["ibkr-flex", "alpaca", "tastytrade", "tradovate", "schwab", "kraken", "coinbase"]),
  queryId: z.optional(z.string().check(z.describe("Interactive Brokers: the Flex query's id"))),
  paper: z.optional(z.boolean().check(z.describe("Alpaca: the connection reads the paper trading API"))),
  accountNumber: z.optional(z.string().check(z.describe("Alpaca: the account the keys open (a later answer for another account is refused); tastytrade: the account synced"))),
  sandbox: z.optional(z.boolean().check(z.describe("tastytrade: the connection reads the sandbox (cert) API"))),
  accountName: z.optional(z.string().check(z.describe("Tradovate: the account synced"))),
  accountTail: z.optional(z.string().check(z.describe("Schwab: the last four digits of the account synced"))),
  needsReauth: z.boolean().check(z.describe("Schwab: the sign-in has ended (a refused refresh, or its 7 days over); sign in at Schwab again")),
  demo: z.optional(z.boolean().check(z.describe("Tradovate: the connection reads the demo API"))),
  startDate: z.nullable(z.string()).check(z.describe("Nothing executed before this day (YYYY-MM-DD, the account's time zone) is imported")),
  tokenHintTail: z.string().check(z.describe("The last four characters of the token or key (Coinbase: of the key's name); secrets are never returned")),
  verified: z.boolean(),
  broken: z.nullable(z.string()).check(z.describe("Why the broker refused the credentials or the query on the last try; the schedule skips a broken connection until new ones are saved")),
  paused: z.boolean().check(z.describe("Paused by the trader: not pulled on the schedule (Sync now still pulls)")),
  lastRun: z.nullable(BrokerRunSchema),
});

export const BrokerTestSchema = z.object({ ok: z.boolean(), message: z.nullable(z.string()), connection: BrokerConnectionViewSchema });
