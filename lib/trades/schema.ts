import * as z from "zod/mini";
import { DecimalStringSchema, toUnits } from "../money.ts";
import { dateTimeSchema } from "../time/range.ts";
import { PlaybookAnswersSchema } from "../playbooks/schema.ts";
import { TagListSchema } from "../tags/tag.ts";

export const positiveDecimal = (what: string) =>
  DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-") && !/^[+]?0+(\.0+)?$/.test(v), `${what} must be greater than zero`));
const nonNegativeDecimal = () => DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-"), "must not be negative"));
const isoDateTime = dateTimeSchema;
const assetClass = () => z.enum(["stock", "option", "future"], { error: "must be stock, option or future" });

export const NewFillSchema = z.object({
  accountId: z.uuid("must be a uuid"),
  symbol: z.string().check(z.minLength(1, "is required"), z.maxLength(40, "is too long")),
  assetClass: z.optional(assetClass()),
  multiplier: z.optional(positiveDecimal("multiplier")),
  side: z.enum(["buy", "sell"], { error: "must be buy or sell" }),
  quantity: positiveDecimal("quantity"),
  price: nonNegativeDecimal(),
  fees: z.optional(nonNegativeDecimal()),
  executedAt: isoDateTime(),
  executionId: z.optional(z.string().check(z.minLength(1, "must not be empty"), z.maxLength(100, "is too long"))),
});
export type NewFill = z.infer<typeof NewFillSchema>;

export const FillPatchSchema = z.strictObject({
  symbol: z.optional(z.string().check(z.minLength(1, "is required"), z.maxLength(40, "is too long"))),
  assetClass: z.optional(assetClass()),
  multiplier: z.optional(positiveDecimal("multiplier")),
  side: z.optional(z.enum(["buy", "sell"], { error: "must be buy or sell" })),
  quantity: z.optional(positiveDecimal("quantity")),
  price: z.optional(nonNegativeDecimal()),
  fees: z.optional(nonNegativeDecimal()),
  executedAt: z.optional(isoDateTime()),
});
export type FillPatch = z.infer<typeof FillPatchSchema>;

export const IdParamSchema = z.object({ id: z.uuid("must be a uuid") });

const pageField = (max: number, def: number) =>
  z._default(
    z.pipe(
      z.string().check(z.regex(/^\d{1,9}$/, "must be a whole number")),
      z.pipe(z.transform(Number), z.number().check(z.minimum(1, "must be at least 1"), z.maximum(max, `must be at most ${max}`))),
    ),
    def,
  );

/** What the trades list can be ordered by: each of its columns. */
export const TRADE_SORTS = [
  "openedAt", "closedAt", "status", "heldFor", "symbol", "account", "direction", "quantity", "averageEntryPrice", "averageExitPrice",
  "grossPnl", "netPnl", "rMultiple", "mae", "mfe", "efficiency",
] as const;
export type TradeSort = (typeof TRADE_SORTS)[number];

export const TradeListQuerySchema = z.object({
  accountId: z.optional(z.uuid("must be a uuid")),
  from: z.optional(isoDateTime()),
  to: z.optional(isoDateTime()),
  symbol: z.optional(z.string().check(z.minLength(1), z.maxLength(40))),
  tag: z.optional(z.string().check(z.minLength(1), z.maxLength(50))),
  /** Trades taken from this playbook. */
  playbookId: z.optional(z.uuid("must be a uuid")),
  status: z.optional(z.enum(["open", "closed"], { error: "must be open or closed" })),
  /** "true": open stock positions carry a `valuation` at the delayed quote (when quotes are configured). */
  quotes: z.optional(z.enum(["true", "false"], { error: "must be true or false" })),
  /** Closed trades that kept at most this share of their best exit (excursions.efficiency, e.g. 0.5). */
  maxEfficiency: z.optional(z.string().check(z.regex(/^-?\d{1,6}(\.\d{1,4})?$/, "must be a decimal such as 0.5"))),
  /** Closed trades whose MAE in R is at most this (went at least that far against: e.g. -1). */
  maxMaeR: z.optional(z.string().check(z.regex(/^-?\d{1,6}(\.\d{1,4})?$/, "must be a decimal such as -1"))),
  /** Trades closed in [closedFrom, closedTo). */
  closedFrom: z.optional(isoDateTime()),
  closedTo: z.optional(isoDateTime()),
  /** Trades with a fill in [tradedFrom, tradedTo): the trades behind a calendar day's P&L. */
  tradedFrom: z.optional(isoDateTime()),
  tradedTo: z.optional(isoDateTime()),
  direction: z.optional(z.enum(["long", "short"], { error: "must be long or short" })),
  /** The journal's setup; "" (an empty parameter) picks the trades without one, as the breakdown's "No setup". */
  setup: z.optional(z.string().check(z.maxLength(100))),
  /** The weekday (1 Monday … 7 Sunday) and hour (0–23) of the entry on the account's clock, as the breakdowns group them. */
  entryWeekday: z.optional(z.string().check(z.regex(/^[1-7]$/, "must be 1 (Monday) to 7 (Sunday)"))),
  entryHour: z.optional(z.string().check(z.regex(/^([01]?\d|2[0-3])$/, "must be an hour from 0 to 23"))),
  /** With accountId: the trades that broke one of its trading rules, or kept them all (the breakdown by rules). */
  rules: z.optional(z.enum(["kept", "broke"], { error: "must be kept or broke" })),
  /** The order (default openedAt, newest first); ties fall back to the newest opened. Trades without the figure come last. */
  sort: z.optional(z.enum(TRADE_SORTS, { error: `must be one of ${TRADE_SORTS.join(", ")}` })),
  order: z.optional(z.enum(["asc", "desc"], { error: "must be asc or desc" })),
  /** "true": the answer carries `totals` of every trade the filters match (not only this page), per currency. */
  totals: z.optional(z.enum(["true", "false"], { error: "must be true or false" })),
  page: pageField(1_000_000, 1),
  pageSize: pageField(200, 50),
});
export type TradeListQuery = z.infer<typeof TradeListQuerySchema>;

export const FillListQuerySchema = z.object({
  accountId: z.uuid("must be a uuid"),
  symbol: z.optional(z.string().check(z.minLength(1), z.maxLength(40))),
  page: pageField(1_000_000, 1),
  pageSize: pageField(500, 100),
});
export type FillListQuery = z.infer<typeof FillListQuerySchema>;

export const TradeJournalSchema = z.strictObject({
  notes: z.optional(z.nullable(z.string().check(z.maxLength(20_000, "must be at most 20000 characters")))),
  tags: z.optional(TagListSchema),
  setup: z.optional(z.nullable(z.string().check(z.maxLength(100, "must be at most 100 characters")))),
  rating: z.optional(z.nullable(z.number().check(z.int("must be a whole number"), z.minimum(1, "must be 1 to 5"), z.maximum(5, "must be 1 to 5")))),
  /** The plan (DESIGN.md section 10): where the trade is wrong, where it takes profit, what it risks. */
  stopPrice: z.optional(z.nullable(nonNegativeDecimal())),
  targetPrice: z.optional(z.nullable(nonNegativeDecimal())),
  plannedRisk: z.optional(z.nullable(positiveDecimal("planned risk"))),
  /** The playbook the trade was taken from (null: none), and answers to its checklist by item id (merged). */
  playbookId: z.optional(z.nullable(z.uuid("must be a uuid"))),
  playbookAnswers: z.optional(PlaybookAnswersSchema),
});
export type TradeJournal = z.infer<typeof TradeJournalSchema>;

const shareCount = () => DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-") && !/^[+]?0+(\.0+)?$/.test(v), "must be greater than zero"));

/** A stock split the trader records (lib/trades/splits.ts, docs/trading.md "Stock splits"). */
export const NewSplitSchema = z
  .strictObject({
    symbol: z.string().check(z.minLength(1, "is required"), z.maxLength(40, "is too long")),
    /** The first trading day on the new share count (the ex-date), YYYY-MM-DD. */
    date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date such as 2026-06-10")),
    /** "2-for-1": newShares 2, oldShares 1; a 1-for-10 reverse split: newShares 1, oldShares 10. */
    newShares: shareCount(),
    oldShares: shareCount(),
    /** The zone of the day's midnight (default America/New_York). */
    timezone: z.optional(z.string().check(z.maxLength(100))),
  })
  .check(
    z.refine((s) => !DecimalStringSchema.safeParse(s.newShares).success || !DecimalStringSchema.safeParse(s.oldShares).success || toUnits(s.newShares) !== toUnits(s.oldShares), {
      message: "must differ from oldShares: a 1-for-1 split changes nothing",
      path: ["newShares"],
    }),
  );
export type NewSplit = z.infer<typeof NewSplitSchema>;

export const SplitListQuerySchema = z.object({ symbol: z.optional(z.string().check(z.minLength(1), z.maxLength(40))) });
