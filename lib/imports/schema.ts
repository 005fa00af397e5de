import * as z from "zod/mini";

const column = () => z.string().check(z.minLength(1, "must name a column"), z.maxLength(200, "is too long"));

/** Which column holds what: header names, or 1-based column numbers as strings (a file without a header, or a column without a name). */
export const ImportMappingSchema = z.strictObject({
  executedAt: z.optional(column()),
  /** When date and time are in separate columns. */
  date: z.optional(column()),
  time: z.optional(column()),
  symbol: column(),
  /** Optional only with options.sideFromQuantitySign (files whose sells have negative quantities and no side column). */
  side: z.optional(column()),
  quantity: column(),
  price: column(),
  fees: z.optional(column()),
  /** Several fee columns are added up (commission, exchange fees, ...). */
  extraFees: z.optional(z.array(column()).check(z.maxLength(10, "at most 10 columns"))),
  executionId: z.optional(column()),
  /**
   * The broker's order the row's fill belongs to (IBKR's IBOrderID, tastytrade's Order #): the legs of one
   * multi-leg order make one option strategy (docs/options.md), however far apart their fills.
   */
  orderId: z.optional(column()),
  assetClass: z.optional(column()),
  multiplier: z.optional(column()),
  /**
   * A text naming an option contract in a broker's own words ("SPY 2/16/2024 Call $480.00", "CALL SPY
   * 02/16/24 480.000", "AAPL 16FEB24 195 C"): when it reads as one, it decides the instrument (an OCC symbol).
   */
  contract: z.optional(column()),
  /** Options given as columns: with all three cells filled, the symbol cell is the underlying. */
  optionExpiry: z.optional(column()),
  optionStrike: z.optional(column()),
  optionRight: z.optional(column()),
  /**
   * The row's net cash (fees included, negative when paid): the fees are what separates it from the
   * notional, for files that net them into an amount instead of listing them. Overrides the fee columns when
   * the cell is filled.
   */
  netAmount: z.optional(column()),
  /**
   * The row's currency (multi-currency brokers): a row in another currency than the account's is an error
   * of that row, never imported as if it were in the account's (the journal does not convert currencies).
   * An empty cell is taken as the account's.
   */
  currency: z.optional(column()),
  /**
   * The broker's own rate of the row's currency to its account's base currency (IBKR's fxRateToBase: 1 of
   * the currency is this many of `baseCurrency`), with the column naming that base: kept per date for the
   * figures in a base currency (docs/currencies.md). Read only when both cells are filled.
   */
  fxRateToBase: z.optional(column()),
  baseCurrency: z.optional(column()),
  /**
   * The trade's plan (docs/trading.md, "Risk and R"): a stop and a target price on a row go onto the trade
   * its fill belongs to (the first row of the trade that carries one), unless the trade has its own already.
   */
  stopPrice: z.optional(column()),
  targetPrice: z.optional(column()),
  /**
   * A row that is a whole trade (another journal's export, docs/imports.md "Moving from another journal"):
   * `price` is its entry and `exitPrice` its exit, `side` its direction (long or short), `executedAt` (or
   * date and time) its open and `closedAt` (or closeDate and closeTime) its close. The row makes two fills,
   * the opening one and the closing one (which carries the row's fees).
   */
  exitPrice: z.optional(column()),
  closedAt: z.optional(column()),
  closeDate: z.optional(column()),
  closeTime: z.optional(column()),
  /** What the trader wrote on the trade in the other journal: onto the trade its fills make, unless it has its own. */
  notes: z.optional(column()),
  /** Tags, comma-separated in one cell: added to the trade's own (20 at most on a trade). */
  tags: z.optional(column()),
  /** More columns of tags (another journal's setups, mistakes, playbook), read like `tags`. */
  extraTags: z.optional(z.array(column()).check(z.maxLength(5, "at most 5 columns"))),
  /** The file's own P&L of the row (before fees): the preview reconciles it per symbol with the journal's. */
  pnl: z.optional(column()),
});
export type ImportMapping = z.infer<typeof ImportMappingSchema>;

export const DATE_FORMATS = ["iso", "MM/DD/YYYY", "DD/MM/YYYY", "YYYYMMDD"] as const;

const cellText = () => z.string().check(z.maxLength(100));

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
  /** For files without a side column (mapping.side absent): a negative quantity is a sell, a positive one a buy. */
  sideFromQuantitySign: z.optional(z.boolean()),
  /**
   * The header is the first row holding all these cells (case-insensitive); rows above it (a title, an account
   * line, other sections of a statement) are ignored.
   */
  headerRowContains: z.optional(z.array(cellText()).check(z.minLength(1), z.maxLength(5))),
  /** The data ends at the first blank row after the header (one section of a multi-section statement). */
  endAtBlankRow: z.optional(z.boolean()),
  /**
   * Multi-leg orders written as a first row and continuation rows whose `blankIn` cell is empty (thinkorswim's
   * Account Trade History: the legs after the first have no time and no spread name). A continuation row takes the
   * first row's time, and every row of one order the same order id (the first row's time: mapping.orderId, when
   * given, wins).
   */
  multiLegRows: z.optional(z.strictObject({ blankIn: column() })),
  /**
   * Rows to import: a row is imported only if, for every filter, its cell matches one of `keep` (when given) and
   * none of `drop` (when given). Other rows (cash movements, subtotals, cancelled orders) are skipped, not errors.
   * Matching ignores case and repeated spaces; a value ending in "*" matches any cell starting with the rest.
   */
  rowFilters: z.optional(
    z
      .array(
        z.strictObject({
          column: column(),
          keep: z.optional(z.array(cellText()).check(z.maxLength(20))),
          drop: z.optional(z.array(cellText()).check(z.maxLength(20))),
          /** Why such rows are skipped, shown beside each one in the preview. */
          reason: z.optional(z.string().check(z.maxLength(200))),
        }),
      )
      .check(z.maxLength(5)),
  ),
  /**
   * How the layout lists its rows: "newest-first" or "oldest-first". Only used for rows with a date and no time,
   * and only when the file's own dates cannot tell (lib/imports/normalize.ts, orderUntimed).
   */
  rowOrder: z.optional(z.enum(["newest-first", "oldest-first"], { error: "must be newest-first or oldest-first" })),
  /** The day of a file whose rows carry only a time (mapping.time and no date column), as YYYY-MM-DD. */
  tradeDate: z.optional(z.iso.date("must be a date as YYYY-MM-DD")),
  /** The price column carries the sign of the cash flow (buys negative); its magnitude is the price. */
  signedPrice: z.optional(z.boolean()),
  /** The price column is money per 1 of quantity (price x multiplier); it is divided by the instrument's multiplier. */
  priceIncludesMultiplier: z.optional(z.boolean()),
  /**
   * Fee cells are costs when positive and rebates when negative (added with their signs; a net rebate counts
   * as no fee, since a fill's fees cannot be negative). Default: every fee cell is a cost whatever its sign.
   */
  feeRebates: z.optional(z.boolean()),
  /**
   * Fees listed in another section of the same file (a statement's cash section): its header row holds all of
   * `headerRowContains`; each of its rows whose date and time (read like the fills') fall on a fill's second
   * adds its `fees` columns to that fill.
   */
  feeSection: z.optional(
    z.strictObject({
      headerRowContains: z.array(cellText()).check(z.minLength(1), z.maxLength(5)),
      date: column(),
      time: z.optional(column()),
      fees: z.array(column()).check(z.minLength(1), z.maxLength(5)),
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

/** POST /api/csv-import/suggest: a file's header and some rows under it (the import page sends its first 20). */
export const SuggestRequestSchema = z.strictObject({
  accountId: z.optional(z.uuid("must be a uuid")),
  header: z.array(z.string().check(z.maxLength(200, "must be at most 200 characters"))).check(z.minLength(1, "must name at least one column"), z.maxLength(200, "at most 200 columns")),
  rows: z
    .array(z.array(z.string().check(z.maxLength(500, "must be at most 500 characters"))).check(z.maxLength(200, "at most 200 cells")))
    .check(z.maxLength(50, "at most 50 rows")),
});
export type SuggestRequest = z.infer<typeof SuggestRequestSchema>;

export const CommitSchema = z.strictObject({ importId: z.uuid("must be a uuid"), includeDuplicates: z.optional(z.boolean()) });
export const ImportIdParamSchema = z.object({ importId: z.uuid("must be a uuid") });
export const HistoryQuerySchema = z.object({ accountId: z.uuid("must be a uuid") });
