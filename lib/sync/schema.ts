import * as z from "zod/mini";

/** PUT /api/accounts/:id/broker-connection: Interactive Brokers' Flex Web Service token and query id. */
export const BrokerConnectionSchema = z.strictObject({
  provider: z.enum(["ibkr-flex"], { error: "must be ibkr-flex (Interactive Brokers' Flex Web Service)" }),
  token: z.string({ error: "is required" }).check(z.trim(), z.regex(/^[A-Za-z0-9]{8,64}$/, "must be the Flex Web Service token: 8 to 64 letters and digits")),
  queryId: z.string({ error: "is required" }).check(z.trim(), z.regex(/^\d{1,12}$/, "must be the Flex query's id: digits only")),
  /** Nothing executed before this day (YYYY-MM-DD, in the account's time zone) is imported; null or absent: all. */
  startDate: z.optional(z.nullable(z.iso.date("must be a date as YYYY-MM-DD"))),
});
export type BrokerConnectionInput = z.infer<typeof BrokerConnectionSchema>;
