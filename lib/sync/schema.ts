import * as z from "zod/mini";

/** PUT /api/accounts/:id/broker-connection: Interactive Brokers' Flex Web Service token and query id. */
export const BrokerConnectionSchema = z.strictObject({
  provider: z.enum(["ibkr-flex"], { error: "must be ibkr-flex (Interactive Brokers' Flex Web Service)" }),
  token: z.string({ error: "is required" }).check(z.trim(), z.regex(/^[A-Za-z0-9]{8,64}$/, "must be the Flex Web Service token: 8 to 64 letters and digits")),
  queryId: z.string({ error: "is required" }).check(z.trim(), z.regex(/^\d{1,12}$/, "must be the Flex query's id: digits only")),
});
export type BrokerConnectionInput = z.infer<typeof BrokerConnectionSchema>;
