import * as z from "zod/mini";
import { TagListSchema } from "../tags/tag.ts";

/** A calendar date YYYY-MM-DD that exists (no February 30th), between 1970 and 2200. */
export const daySchema = () =>
  z.string().check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date such as 2026-11-26"),
    z.refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= "1970-01-01" && v < "2200-01-01";
    }, "must be a real date between 1970 and 2199"),
  );

export const DayParamSchema = z.object({ accountId: z.uuid("must be a uuid"), day: daySchema() });

/** Up to 400 days at once (a year and its edges). */
export const MAX_DAYS = 400;

export const DayListQuerySchema = z
  .object({
    accountId: z.optional(z.uuid("must be a uuid")),
    /** First and last day, both included. */
    from: daySchema(),
    to: daySchema(),
  })
  .check(
    z.refine((q) => !/^\d{4}-\d{2}-\d{2}$/.test(q.from) || !/^\d{4}-\d{2}-\d{2}$/.test(q.to) || q.from <= q.to, { message: "must not be before from", path: ["to"] }),
    z.refine((q) => !(Date.parse(q.to) - Date.parse(q.from) > (MAX_DAYS - 1) * 86_400_000), { message: `at most ${MAX_DAYS} days at once`, path: ["to"] }),
  );
export type DayListQuery = z.infer<typeof DayListQuerySchema>;

const text = () => z.optional(z.nullable(z.string().check(z.maxLength(20_000, "must be at most 20000 characters"))));

/** The fields a write names are set (null clears one); the fields it leaves out are kept. */
export const DayEntrySchema = z.strictObject({
  plan: text(),
  review: text(),
  mood: z.optional(z.nullable(z.number().check(z.int("must be a whole number"), z.minimum(1, "must be 1 to 5"), z.maximum(5, "must be 1 to 5")))),
  tags: z.optional(TagListSchema),
});
export type DayEntryPatch = z.infer<typeof DayEntrySchema>;
