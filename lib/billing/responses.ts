// The response bodies of the billing routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { PackSchema } from "../config/responses.ts";
import { id, iso } from "../fields.ts";

export const PackListSchema = z.object({ packs: z.array(PackSchema) });

export const WalletSchema = z.object({ balance: z.number(), reserved: z.number(), available: z.number() });

export const MovementListSchema = z.object({
  transactions: z.array(
    z.object({
      id: id(),
      kind: z.enum(["purchase", "hold", "charge", "release", "refund", "dispute", "admin_grant"]),
      amount: z.number(),
      reservedChange: z.number(),
      balanceAfter: z.number(),
      reservedAfter: z.number(),
      reference: z.nullable(z.string()),
      note: z.nullable(z.string()),
      createdAt: iso(),
    }),
  ),
  nextCursor: z.nullable(z.string()),
});

export const RedirectSchema = z.object({ url: z.string().check(z.describe("The payment provider's page to send the browser to")) });

export const SubscriptionSchema = z.object({ plan: z.enum(["free", "pro"]), status: z.nullable(z.string()), portal: z.boolean() });

export const WebhookAckSchema = z.object({ received: z.literal(true), outcome: z.string() });

/** The payment provider's event, as it sent it (Stripe's Event object); only its signature is checked here. */
export const WebhookBodySchema = z.object({ id: z.string(), type: z.string(), data: z.object({ object: z.record(z.string(), z.unknown()) }) });
