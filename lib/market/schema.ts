import * as z from "zod/mini";

/** GET /api/symbols?q= : 1 to 50 characters after trimming. */
export const SymbolSearchQuerySchema = z.object({
  q: z
    .string({ error: "is required" })
    .check(z.trim(), z.minLength(1, "must not be empty"), z.maxLength(50, "must be at most 50 characters")),
});

/** A stock ticker as the quote route takes it: letters, digits, ".", "-" and "/", up to 12; case-insensitive. */
export const QuoteParamSchema = z.object({
  symbol: z.pipe(
    z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9.\-/]{0,11}$/, 'must be a stock ticker such as "AAPL" (1 to 12 letters, digits, ".", "-" or "/")')),
    z.transform((s: string) => s.toUpperCase()),
  ),
});
