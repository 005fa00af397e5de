import * as z from "zod/mini";

const column = () => z.string().check(z.minLength(1, "must name a column"), z.maxLength(200, "is too long"));

/** Which column holds what: header names (or 1-based column numbers as strings when there is no header). */
export const ImportMappingSchema = z.strictObject({
  executedAt: z.optional(column()),
  /** When date and time are in separate columns. */
  date: z.optional(column()),
  time: z.optional(column()),
  symbol: column(),
  side: column(),
  quantity: column(),
  price: column(),
  fees: z.optional(column()),
  /** Several fee columns are added up (commission, exchange fees, ...). */
  extraFees: z.optional(z.array(column()).check(z.maxLength(10, "at most 10 columns"))),
  executionId: z.optional(column()),
  assetClass: z.optional(column()),
  multiplier: z.optional(column()),
});
export type ImportMapping = z.infer<typeof ImportMappingSchema>;

export const DATE_FORMATS = ["iso", "MM/DD/YYYY", "DD/MM/YYYY", "YYYYMMDD"] as const;

export const ImportOptionsSchema = z.strictObject({
  dateFormat: z.optional(z.enum(DATE_FORMATS, { error: `must be one of ${DATE_FORMATS.join(", ")}` })),
  numberFormat: z.optional(z.enum(["1,234.56", "1.234,56"], { error: 'must be "1,234.56" or "1.234,56"' })),
  /** Zone of timestamps without an offset; defaults to the account's. */
  timezone: z.optional(z.string().check(z.maxLength(64))),
  delimiter: z.optional(z.enum([",", ";", "\t", "|"], { error: "must be one of , ; tab |" })),
  hasHeader: z.optional(z.boolean()),
  /** Extra words for buy and sell, added to the built-in vocabulary. */
  sides: z.optional(
    z.strictObject({
      buy: z.optional(z.array(z.string().check(z.maxLength(30))).check(z.maxLength(20))),
      sell: z.optional(z.array(z.string().check(z.maxLength(30))).check(z.maxLength(20))),
    }),
  ),
});
export type ImportOptions = z.infer<typeof ImportOptionsSchema>;

export const ImportRequestSchema = z
  .strictObject({
    accountId: z.uuid("must be a uuid"),
    presetId: z.optional(z.string().check(z.maxLength(50))),
    mapping: z.optional(ImportMappingSchema),
    options: z.optional(ImportOptionsSchema),
  })
  .check(
    z.refine((r) => r.presetId !== undefined || r.mapping !== undefined, { message: "give presetId or mapping", path: ["mapping"] }),
  );
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

export const CommitSchema = z.strictObject({ importId: z.uuid("must be a uuid"), includeDuplicates: z.optional(z.boolean()) });
export const ImportIdParamSchema = z.object({ importId: z.uuid("must be a uuid") });
export const HistoryQuerySchema = z.object({ accountId: z.uuid("must be a uuid") });
