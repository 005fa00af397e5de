import * as z from "zod/mini";

export const CheckoutSchema = z.strictObject({
  packId: z.string({ error: (iss) => (iss.input === undefined ? "is required" : "must be a string") }).check(
    z.minLength(1, "must not be empty"),
    z.maxLength(100, "is too long"),
  ),
});

export const TransactionsQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.maxLength(200, "is too long"))),
  limit: z._default(
    z.pipe(
      z.string().check(z.regex(/^\d+$/, "must be a whole number")),
      z.pipe(z.transform(Number), z.number().check(z.minimum(1, "must be at least 1"), z.maximum(100, "must be at most 100"))),
    ),
    25,
  ),
});
