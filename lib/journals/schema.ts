import * as z from "zod/mini";

export const JournalIdParamSchema = z.object({ id: z.uuid("must be a uuid") });
export const JournalImageParamSchema = z.object({ id: z.uuid("must be a uuid"), imageId: z.uuid("must be a uuid") });
export const TradeIdParamSchema = z.object({ tradeId: z.uuid("must be a uuid") });

export const DetachedListQuerySchema = z.object({
  accountId: z.optional(z.uuid("must be a uuid")),
});
export type DetachedListQuery = z.infer<typeof DetachedListQuerySchema>;

export const AttachJournalSchema = z.strictObject({
  tradeId: z.uuid("must be a uuid"),
});
export type AttachJournal = z.infer<typeof AttachJournalSchema>;

/** Exactly one of the three: what a confirmation is about to change. */
export const JournalImpactQuerySchema = z
  .object({
    fillId: z.optional(z.uuid("must be a uuid")),
    importId: z.optional(z.uuid("must be a uuid")),
    accountId: z.optional(z.uuid("must be a uuid")),
  })
  .check(
    z.refine((q) => [q.fillId, q.importId, q.accountId].filter(Boolean).length === 1, {
      message: "give exactly one of fillId, importId and accountId",
      path: ["fillId"],
    }),
  );
export type JournalImpactQuery = z.infer<typeof JournalImpactQuerySchema>;
