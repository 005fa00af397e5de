// Response bodies as zod schemas, for the OpenAPI document (describeRoute) and so for the contract test that
// holds real responses to it. The domain code builds these bodies; these schemas say what they are.
import * as z from "zod/mini";
import { FeeScheduleSchema } from "../accounts/fees.ts";

export const iso = () => z.string().check(z.describe("An instant, ISO 8601 in UTC"));
export const decimal = () => z.string().check(z.regex(/^-?\d+\.\d{2,10}$/), z.describe("A decimal as a string, at least two decimals"));
export const id = () => z.uuid();

export const HealthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.optional(z.string()),
  database: z.enum(["up", "down"]),
});

export const PublicConfigSchema = z.object({ registrationOpen: z.boolean(), newsletterUrl: z.nullable(z.string()) });

export const PackSchema = z.object({ id: z.string(), name: z.string(), credits: z.number(), priceCents: z.number(), currency: z.string() });

export const ConfigSchema = z.object({
  weekStartDay: z.number().check(z.int(), z.minimum(0), z.maximum(6)),
  quotes: z.boolean(),
  billing: z.boolean(),
  pro: z.boolean(),
  email: z.boolean(),
  objectStorage: z.boolean(),
  analytics: z.boolean(),
  schwab: z.boolean().check(z.describe("Traders can connect Schwab (the operator's Schwab app is set up)")),
  packs: z.optional(z.array(PackSchema)),
  proPrice: z.optional(
    z.nullable(z.object({ id: z.string(), amountCents: z.nullable(z.number()), currency: z.nullable(z.string()), interval: z.nullable(z.string()) })),
  ),
});

export const PublicUserSchema = z.object({ id: id(), email: z.string(), emailVerified: z.boolean(), isAdmin: z.boolean() });
/** Register and login: the user, and in cross-origin mode the anti-CSRF token for the new session. */
export const SignedInSchema = z.object({ user: PublicUserSchema, csrfToken: z.optional(z.string()) });
/** POST /api/auth/login: signed in, or (the second factor on) the challenge for POST /api/auth/login/2fa. */
export const SignInResultSchema = z.union([
  SignedInSchema,
  z.object({ twoFactorRequired: z.literal(true), challenge: z.string(), methods: z.array(z.enum(["totp", "passkey"])) }),
]);
/** WebAuthn options as navigator.credentials wants them (JSON form; lib/auth/passkeys.ts). */
export const WebauthnOptionsSchema = z.looseObject({ challenge: z.string() });
export const WebauthnFlowSchema = z.object({ flowId: z.string(), options: WebauthnOptionsSchema });
export const PasskeySchema = z.object({ id: z.string(), name: z.string(), createdAt: iso(), lastUsedAt: z.nullable(iso()), backedUp: z.boolean() });
export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) });
const TokenInfoShape = {
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(["read", "import", "fills:write"])),
  createdAt: iso(),
  expiresAt: z.nullable(iso()),
};
export const NewTokenResultSchema = z.object({ ...TokenInfoShape, token: z.string() });
export const TokenListSchema = z.object({ tokens: z.array(z.object({ ...TokenInfoShape, lastUsedAt: z.nullable(iso()) })) });
/** POST /api/fills/push: per pushed fill, in order, whether it was imported or a duplicate (lib/imports/push.ts). */
export const PushResultSchema = z.object({
  importId: z.string(),
  imported: z.number(),
  duplicates: z.number(),
  fills: z.array(z.object({ index: z.number(), status: z.enum(["imported", "duplicate"]), fillId: z.nullable(z.string()) })),
});
export const TotpSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export const BackupCodesSchema = z.object({ backupCodes: z.array(z.string()) });
export const TwoFactorStatusSchema = z.object({ enabled: z.boolean(), enabledAt: z.nullable(iso()), backupCodesLeft: z.number() });
export const UserSchema = z.object({ user: PublicUserSchema });
export const MaybeUserSchema = z.object({ user: z.nullable(PublicUserSchema) });
export const CsrfSchema = z.object({ csrfToken: z.string() });
export const SessionListSchema = z.object({
  sessions: z.array(z.object({ id: z.string(), createdAt: iso(), lastSeenAt: iso(), expiresAt: iso(), userAgent: z.nullable(z.string()), current: z.boolean() })),
});

export const AccountSchema = z.object({
  id: id(),
  name: z.string(),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/)),
  startingBalance: decimal(),
  startingBalanceAt: z.nullable(iso()),
  timezone: z.string(),
  brokerageId: z.nullable(id()),
  createdAt: iso(),
  balance: decimal(),
  defaultRisk: z.nullable(decimal()).check(z.describe("1R in money for trades without a plan of their own; null: none")),
  taxStatus: z.enum(["taxable", "ira", "exempt"]).check(z.describe("For tax lots and wash sales (docs/tax.md)")),
  feeSchedule: z.nullable(FeeScheduleSchema).check(z.describe("What the broker charges per asset class, for imported rows that carry no fee; null: none")),
});
export const AccountListSchema = z.object({ accounts: z.array(AccountSchema) });

export const BrokerageSchema = z.object({ id: id(), name: z.string(), createdAt: iso(), updatedAt: iso() });
export const BrokerageListSchema = z.object({ brokerages: z.array(BrokerageSchema) });

export const LedgerEntrySchema = z.object({
  id: id(),
  type: z.enum(["opening", "deposit", "withdrawal", "fill", "adjustment", "prop_fee", "payout"]),
  amount: decimal(),
  occurredAt: iso(),
  note: z.nullable(z.string()),
  fillId: z.optional(id()),
  fill: z.optional(z.object({ symbol: z.string(), side: z.enum(["buy", "sell"]), quantity: decimal(), price: decimal() })),
  base: z.optional(
    z
      .object({
        currency: z.string(),
        amount: z.nullable(decimal()),
        rate: z.nullable(decimal()).check(z.describe("Units of the account's currency per 1 base")),
        rateDate: z.nullable(z.string()).check(z.describe("The date of the rate (an earlier one over a weekend or holiday)")),
      })
      .check(z.describe("In a page, when a base currency other than the account's is set (docs/currencies.md): the amount at its date's rate in the account's zone; null figures when the instance lacks the rate")),
  ),
});
export const LedgerPageSchema = z.object({
  entries: z.array(LedgerEntrySchema),
  hasMore: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
  runningBalanceAtFirstRow: decimal(),
});

const assetClass = () => z.enum(["stock", "option", "future"]);
const FillFields = {
  id: id(),
  accountId: id(),
  symbol: z.string(),
  assetClass: assetClass(),
  multiplier: decimal(),
  side: z.enum(["buy", "sell"]),
  quantity: decimal(),
  price: decimal(),
  fees: decimal(),
  feesEstimated: z.boolean().check(z.describe("The fees are the account's fee schedule's estimate: the imported row carried none")),
  generated: z.nullable(z.enum(["expiry"])).check(
    z.describe("expiry: the journal wrote this fill, priced 0, to close an option still open after its expiry. The broker's own rows replace it when they come; deleting it keeps the option open"),
  ),
  executedAt: iso(),
  executionId: z.nullable(z.string()),
  importId: z.nullable(id()),
};
export const FillSchema = z.object(FillFields);
/** GET /api/fills/:id: the fill and the trades it is in now (two when it reversed a position). */
export const FillDetailSchema = z.object({ ...FillFields, tradeIds: z.array(id()) });
export const FillListSchema = z.object({ fills: z.array(FillSchema), hasMore: z.boolean(), page: z.number(), pageSize: z.number() });

const TradeFields = {
  id: id(),
  accountId: id(),
  /** The account's currency: every amount of the trade is in it. */
  currency: z.string(),
  symbol: z.string(),
  assetClass: assetClass(),
  multiplier: decimal(),
  direction: z.enum(["long", "short"]),
  status: z.enum(["open", "closed"]),
  openedAt: iso(),
  closedAt: z.nullable(iso()),
  openQuantity: decimal(),
  maxQuantity: decimal(),
  averageEntryPrice: z.nullable(decimal()),
  averageExitPrice: z.nullable(decimal()),
  fees: decimal(),
  grossPnl: decimal(),
  netPnl: decimal(),
  notes: z.nullable(z.string()),
  tags: z.array(z.string()),
  setup: z.nullable(z.string()),
  rating: z.nullable(z.number()),
  journalId: z.nullable(id()).check(z.describe("The journal holding what is written on this trade (notes, tags, setup, rating, plan, screenshots); null when nothing is")),
  playbookId: z.nullable(id()).check(z.describe("The playbook the trade was taken from")),
  playbookAnswers: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])).check(z.describe("Answers to the playbook's checklist by item id")),
  base: z.optional(
    z
      .object({
        currency: z.string(),
        netPnl: z.nullable(decimal()),
        rate: z.nullable(decimal()).check(z.describe("Units of the trade's currency per 1 base")),
        rateDate: z.nullable(z.string()).check(z.describe("The date of the rate (an earlier one over a weekend or holiday)")),
      })
      .check(z.describe("When a base currency is set (docs/currencies.md): the net P&L at the close date's rate (today's while open); null figures when the instance lacks the rate")),
  ),
  risk: z.object({
    stopPrice: z.nullable(decimal()),
    targetPrice: z.nullable(decimal()),
    plannedRisk: z.nullable(decimal()),
    oneR: z.nullable(decimal()).check(z.describe("1R in money: plannedRisk, else |entry - stop| x largest size x multiplier, else the account's defaultRisk")),
    rMultiple: z.nullable(decimal()).check(z.describe("Net realised P&L (so far, while open) / oneR, 2 decimals")),
    plannedRR: z.nullable(decimal()).check(z.describe("|target - entry| / |entry - stop|, 2 decimals")),
  }),
  excursions: z.nullable(
    z.object({
      priceMae: z.nullable(decimal()).check(z.describe("The worst price against the trade while it was open")),
      priceMfe: z.nullable(decimal()).check(z.describe("The best price for the trade while it was open")),
      positionMae: z.nullable(decimal()).check(z.describe("The lowest running P&L (gross), scale-ins and partial exits included")),
      positionMfe: z.nullable(decimal()).check(z.describe("The highest running P&L (gross)")),
      maeR: z.nullable(decimal()),
      mfeR: z.nullable(decimal()),
      bestExitPnl: z.nullable(decimal()).check(z.describe("positionMfe less the trade's fees: its net P&L had it left at its best")),
      efficiency: z.nullable(z.string()).check(z.describe("netPnl / bestExitPnl, 4 decimals; null when bestExitPnl is not positive")),
      barsFrom: z.enum(["1m", "1d"]).check(z.describe("The bars they were read from: 1-minute, else daily")),
    }),
  ).check(z.describe("Null while the trade is open, for options, and when no bars cover it (docs/charts.md)")),
};
export const ValuationSchema = z.object({ price: decimal(), asOf: iso(), stale: z.boolean(), marketValue: decimal(), unrealizedPnl: decimal() });
export const TradeListSchema = z.object({
  trades: z.array(z.object({ ...TradeFields, valuation: z.optional(z.nullable(ValuationSchema)) })),
  hasMore: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
  totals: z.optional(
    z.array(
      z.object({
        currency: z.string(),
        trades: z.number().check(z.describe("Every trade the filters match, on every page")),
        closed: z.number(),
        wins: z.number().check(z.describe("Closed trades with a net P&L above 0")),
        winRate: z.nullable(decimal()).check(z.describe("wins / closed, 4 decimals; null when none closed")),
        netPnl: decimal().check(z.describe("Their net P&L summed (realised so far for open trades)")),
      }),
    ),
  ).check(z.describe("With totals=true: one row per currency of the matching trades")),
});
export const TradeDetailSchema = z.object({
  trade: z.object(TradeFields),
  fills: z.array(z.object({ ...FillFields, role: z.enum(["open", "add", "reduce", "close"]), quantityInTrade: decimal(), feesInTrade: decimal(),
    splitFactor: decimal().check(z.describe("Today's shares per share of the fill after the stock splits since it (1 without any): the trade counts its quantity times this and its price divided by it")) })),
  compliance: z.nullable(
    z.object({
      score: z.number().check(z.describe("Out of 100: the weights of the account's rules it kept over all of them")),
      rules: z.number().check(z.describe("The account's rules turned on")),
      broken: z.array(z.object({ ruleId: id(), label: z.string(), weight: z.enum(["critical", "important", "nice"]) })),
    }),
  ).check(z.describe("The account's trading rules this trade broke; null when the account has none")),
  adjacent: z
    .object({ older: z.nullable(id()), newer: z.nullable(id()) })
    .check(z.describe("The trades of the same account opened just before and just after this one (null at either end), to step through them")),
});

/** POST /api/auth/account/import: a multipart form. */
export const DataImportBodySchema = z.object({
  file: z.string().check(z.describe("A JSON export (GET /api/auth/account/export), at most 25 MB")),
});
export const DataImportSummarySchema = z.object({ accounts: z.number(), fills: z.number(), entries: z.number(), journaled: z.number() });
export const ArchiveImportSummarySchema = z.object({
  accounts: z.number(),
  fills: z.number(),
  entries: z.number(),
  journaled: z.number(),
  screenshots: z.number(),
  detachedNotes: z.number(),
  conversations: z.number(),
  imports: z.number(),
  bars: z.number().check(z.describe("Uploaded price bars stored again")),
  comments: z.number().check(z.describe("Comments on trades, notes and days stored again")),
});

const strategyKind = () => z.enum(["single", "vertical", "straddle", "strangle", "iron_condor", "iron_butterfly", "butterfly", "calendar", "diagonal", "covered_call", "protective_put", "collar", "custom"]);
const StrategyFields = z.object({
  id: id(),
  accountId: id(),
  currency: z.string(),
  underlying: z.string(),
  kind: strategyKind(),
  credit: z.nullable(z.boolean()).check(z.describe("Opened for a credit (the short premium more than the long); null without an option leg")),
  premium: z.nullable(decimal()).check(z.describe("The option legs' premium at opening, x contracts x multiplier: positive a credit received, negative a debit paid")),
  source: z.enum(["auto", "manual"]),
  status: z.enum(["open", "closed"]),
  openedAt: iso(),
  closedAt: z.nullable(iso()),
  legs: z.array(
    z.object({
      tradeId: id(),
      symbol: z.string(),
      assetClass: z.enum(["option", "stock"]).check(z.describe("An option, or a covered call's (collar's, protective put's) shares")),
      right: z.nullable(z.enum(["call", "put"])).check(z.describe("null for shares, or an option symbol that does not parse")),
      strike: z.nullable(decimal()),
      expiry: z.nullable(z.string()),
      side: z.enum(["long", "short"]),
      quantity: decimal(),
      multiplier: decimal(),
      price: z.nullable(decimal()).check(z.describe("The average price of its opening fills")),
      netPnl: decimal().check(z.describe("The leg's trade's net P&L, fees included")),
      entry: z
        .nullable(z.object({ underlyingPrice: decimal(), iv: z.string(), delta: z.string(), gamma: z.string(), theta: z.string(), vega: z.string() }))
        .check(z.describe("An option leg's figures at its opening fill (Black-Scholes at the implied volatility; per unit of the underlying; theta a day, vega a volatility point); null without the underlying's price then")),
    }),
  ),
  netPnl: decimal().check(z.describe("Its legs' net P&L, fees included (realised so far while open)")),
  maxProfit: z.nullable(decimal()).check(z.describe("At expiry as opened, fees excluded; null when unbounded (or with legs of several expiries)")),
  maxLoss: z.nullable(decimal()).check(z.describe("A positive amount; null when unbounded (or with legs of several expiries)")),
  breakevens: z.array(decimal()),
  rollOfId: z.nullable(id()),
  rolledIntoId: z.nullable(id()),
  campaignNetPnl: decimal().check(z.describe("Net P&L of its roll chain, up to and including it")),
  greeks: z
    .nullable(z.object({ delta: z.string(), gamma: z.string(), theta: z.string(), vega: z.string(), iv: z.nullable(z.string()) }))
    .check(z.describe("The legs' Greeks at entry x contracts x multiplier x side (shares count a delta of 1), and the option legs' implied volatility weighted by the size of their vega; null when a leg's are unknown")),
  notes: z.nullable(z.string()),
  tags: z.array(z.string()),
  setup: z.nullable(z.string()),
  rating: z.nullable(z.number()),
  plannedRisk: z.nullable(decimal()),
  playbookId: z.nullable(id()),
  rMultiple: z.nullable(decimal()).check(z.describe("netPnl / (plannedRisk, else maxLoss), 2 decimals")),
});
export const StrategySchema = z.object({
  strategy: StrategyFields,
  campaign: z
    .nullable(
      z.object({
        strategies: z.array(z.object({ id: id(), kind: strategyKind(), credit: z.nullable(z.boolean()), premium: z.nullable(decimal()), openedAt: iso(), closedAt: z.nullable(iso()), netPnl: decimal() })),
        netPnl: decimal(),
        days: z.number().check(z.describe("Days in trade: from the first opening to the last close (or now, while open)")),
      }),
    )
    .check(z.describe("Its roll chain, first strategy first; null when it was never rolled")),
  underlyingQuote: z
    .nullable(z.object({ price: decimal(), asOf: iso(), stale: z.boolean() }))
    .check(z.describe("The underlying's delayed quote while the strategy is open, when the instance has a quote provider")),
});
export const StrategyListSchema = z.object({ strategies: z.array(StrategyFields), nextCursor: z.nullable(z.string()) });

export const TradeImageSchema = z.object({
  id: id(),
  contentType: z.enum(["image/png", "image/jpeg", "image/webp"]),
  bytes: z.number().check(z.describe("Size after metadata was removed")),
  createdAt: iso(),
});
export const TradeImageListSchema = z.object({ images: z.array(TradeImageSchema) });

export const JournalSchema = z.object({
  id: id(),
  accountId: id(),
  currency: z.string(),
  tradeId: z.nullable(id()).check(z.describe("The trade it is on; null for a detached note")),
  symbol: z.string(),
  direction: z.nullable(z.enum(["long", "short"])),
  openedAt: z.nullable(iso()).check(z.describe("Of the trade it is (or was last) on")),
  closedAt: z.nullable(iso()),
  netPnl: z.nullable(decimal()),
  fills: z.number().check(z.describe("Fills of the trade it is (or was last) on")),
  notes: z.nullable(z.string()),
  tags: z.array(z.string()),
  setup: z.nullable(z.string()),
  rating: z.nullable(z.number()),
  images: z.array(TradeImageSchema),
  detachedAt: z.nullable(iso()),
  formerTradeIds: z.array(id()).check(z.describe("Trades it was on before (old links to them lead here)")),
  createdAt: iso(),
  updatedAt: iso(),
});
export const JournalListSchema = z.object({ journals: z.array(JournalSchema) });
export const JournalAttachResultSchema = z.object({
  outcome: z.enum(["attached", "merged", "same"]).check(z.describe("merged: the trade had notes of its own, and these were added to them")),
  tradeId: id(),
  journalId: id(),
});
export const JournalImpactSchema = z.object({
  journaledTrades: z.number().check(z.describe("Trades with something written on them (notes, tags, setup, rating or screenshots) that the change touches")),
  screenshots: z.number(),
});
/** POST /api/trades/:id/images: a multipart form. */
export const TradeImageUploadSchema = z.object({
  file: z.string().check(z.describe("A PNG, JPEG or WebP image (checked by its content), at most 5 MB")),
});

export const ratio = () => z.nullable(z.string().check(z.regex(/^\d+(\.\d+)?$/), z.describe("A ratio as a decimal string, 4 decimals; null when undefined")));
/** The one currency of a statistic's amounts (null when the user has no account). */
export const statsCurrency = () => z.nullable(z.string());
export const day = () => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("A date, YYYY-MM-DD"));
/** With currency=base (docs/currencies.md): the rates the figures needed and the instance lacks; their trades are left out. */
export const missingRates = () =>
  z.optional(z.array(z.object({ currency: z.string(), date: day() })).check(z.describe("With currency=base: each currency and date whose rate the instance lacks (those amounts are left out)")));
export const StatsSummarySchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  trades: z.number(),
  wins: z.number(),
  losses: z.number(),
  netPnl: decimal(),
  grossPnl: decimal(),
  fees: decimal(),
  winRate: ratio(),
  profitFactor: ratio(),
  expectancy: z.nullable(decimal()),
  averageWin: z.nullable(decimal()),
  averageLoss: z.nullable(decimal()),
  largestWin: z.nullable(decimal()),
  largestLoss: z.nullable(decimal()),
  maxDrawdown: decimal(),
  r: z
    .object({
      trades: z.number(),
      withRisk: z.number().check(z.describe("Closed trades of the period with a 1R: what every R figure is over")),
      total: z.nullable(decimal()),
      expectancy: z.nullable(decimal()),
      averageWin: z.nullable(decimal()),
      averageLoss: z.nullable(decimal()),
      best: z.nullable(decimal()),
      worst: z.nullable(decimal()),
    })
    .check(z.describe("The closed trades in R (2 decimals); the figures are null when none has a 1R")),
});
/** A bucket's closed trades in R: the sum over those with a 1R (null when none), and how many they are. */
const rFields = {
  rTotal: z.nullable(decimal()),
  withRisk: z.number(),
};
export const CalendarSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  days: z.array(z.object({ date: z.string(), netPnl: decimal(), trades: z.number(), ...rFields })),
});
export const EquitySchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  bucket: z.enum(["day", "week", "month"]),
  points: z.array(
    z.object({ start: z.string(), netPnl: decimal(), equity: decimal(), trades: z.number(), ...rFields, rEquity: decimal().check(z.describe("Cumulative R")) }),
  ),
});
export const BreakdownSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  by: z.enum(["symbol", "direction", "tag", "setup", "weekday", "hour", "rules", "strategy"]),
  groups: z.array(z.object({ key: z.string(), netPnl: decimal(), trades: z.number(), wins: z.number(), winRate: ratio(), ...rFields })),
});
export const RDistributionSchema = z.object({
  currency: statsCurrency(),
  trades: z.number().check(z.describe("Closed trades of the period")),
  withRisk: z.number().check(z.describe("Those with a 1R: the ones counted in the buckets")),
  buckets: z.array(
    z.object({
      from: z.nullable(z.string()).check(z.describe("Lower bound in R (inclusive); null: the lower tail")),
      to: z.nullable(z.string()).check(z.describe("Upper bound in R (exclusive); null: the upper tail")),
      trades: z.number(),
    }),
  ),
});

export const SplitSchema = z.object({
  id: id(),
  symbol: z.string(),
  effectiveAt: iso().check(z.describe("Fills before this instant count in post-split shares")),
  newShares: decimal().check(z.describe("Shares after the split for oldShares before: 2 for 1 in a 2-for-1 split, 1 for 10 in a 1-for-10 reverse split")),
  oldShares: decimal(),
});
export const SplitListSchema = z.object({ splits: z.array(SplitSchema) });

export const ExcursionPointsSchema = z.object({
  currency: z.nullable(z.string()),
  trades: z.number().check(z.describe("Closed trades in scope")),
  withExcursions: z.number().check(z.describe("Those with excursions (bars cover them)")),
  points: z.array(
    z.object({
      tradeId: id(),
      symbol: z.string(),
      netPnl: decimal(),
      positionMae: decimal(),
      positionMfe: decimal(),
      maeR: z.nullable(decimal()),
      mfeR: z.nullable(decimal()),
      rMultiple: z.nullable(decimal()),
      efficiency: z.nullable(z.string()),
    }),
  ),
});

const barOut = () => z.object({ t: iso(), open: decimal(), high: decimal(), low: decimal(), close: decimal(), volume: decimal() });
export const TradeChartSchema = z.object({
  tradeId: id(),
  symbol: z.string(),
  assetClass: assetClass(),
  direction: z.enum(["long", "short"]),
  multiplier: decimal(),
  closedAt: z.nullable(iso()),
  resolution: z.enum(["1m", "5m", "15m", "1h", "1d"]),
  from: iso(),
  to: iso(),
  fills: z.array(z.object({ id: id(), t: iso(), side: z.enum(["buy", "sell"]), quantity: decimal(), price: decimal(), role: z.enum(["open", "add", "reduce", "close"]) })),
  stopPrice: z.nullable(decimal()),
  targetPrice: z.nullable(decimal()),
  bars: z.array(barOut()).check(z.describe("Bars of the resolution from `from` to `to`, by their start; 5m, 15m and 1h are read from 1-minute bars")),
  averageCost: z.array(z.object({ t: iso(), price: z.nullable(decimal()) })).check(z.describe("The average cost after each fill; null once flat (the running P&L is the browser's: lib/market/running-pnl.ts)")),
  coverage: z.object({
    sources: z.array(z.enum(["provider", "upload"])),
    key: z.boolean().check(z.describe("Whether you have a bar provider key")),
    missing: z.array(z.object({ day: z.string(), status: z.enum(["none", "queued", "fetching", "failed"]), detail: z.nullable(z.string()) })),
  }),
  note: z.nullable(z.string()),
});

/** POST /api/bars/upload: a multipart form. */
export const BarsUploadBodySchema = z.object({
  file: z.string().check(z.describe("A candle CSV: a header naming time, open, high, low, close, volume; time ISO 8601 with an offset or epoch seconds; at most 5 MB and 50,000 bars")),
  symbol: z.string().check(z.describe("A stock or futures symbol")),
  resolution: z.enum(["1m", "1d"]),
});
export const BarsUploadSchema = z.object({
  symbol: z.string(),
  resolution: z.enum(["1m", "1d"]),
  bars: z.number(),
  from: iso().check(z.describe("The first bar's start")),
  to: iso().check(z.describe("The last bar's start")),
});

export const FuturesListSchema = z.object({
  futures: z.array(
    z.object({
      root: z.string(),
      name: z.string(),
      exchange: z.enum(["CME", "CBOT", "NYMEX", "COMEX", "ICE US", "CFE"]),
      group: z.string(),
      multiplier: z.string().check(z.describe("Money per point of the quoted price, per contract")),
      tickSize: z.string(),
      currency: z.string(),
    }),
  ),
});

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

const loose = () => z.record(z.string(), z.unknown());
const BrokerRunSchema = z.object({
  id: id(),
  trigger: z.enum(["schedule", "manual"]),
  status: z.enum(["running", "succeeded", "failed"]),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  imported: z.number().check(z.describe("Fills the run wrote")),
  duplicates: z.number().check(z.describe("Fills of the statement the account had already (skipped)")),
  skippedDeleted: z.number().check(z.describe("Fills of the statement the trader had deleted by hand: left out, never brought back by a sync")),
  skipped: z.array(z.object({ reason: z.string(), count: z.number() })).check(z.describe("Every row the run left out, counted per reason (not a trade, before the start date, deleted by you...), most first")),
  error: z.nullable(z.string()).check(z.describe("Why it failed, or the rows it could not read, in the broker's or the importer's words")),
  importId: z.nullable(z.string()).check(z.describe("The import it committed (undo it from the import history)")),
});
export const BrokerRunListSchema = z.object({ runs: z.array(BrokerRunSchema) });
export const BrokerConnectionViewSchema = z.object({
  provider: z.enum(["ibkr-flex", "alpaca", "tastytrade", "tradovate", "schwab", "kraken", "coinbase"]),
  queryId: z.optional(z.string().check(z.describe("Interactive Brokers: the Flex query's id"))),
  paper: z.optional(z.boolean().check(z.describe("Alpaca: the connection reads the paper trading API"))),
  accountNumber: z.optional(z.string().check(z.describe("Alpaca: the account the keys open (a later answer for another account is refused); tastytrade: the account synced"))),
  sandbox: z.optional(z.boolean().check(z.describe("tastytrade: the connection reads the sandbox (cert) API"))),
  accountName: z.optional(z.string().check(z.describe("Tradovate: the account synced"))),
  accountTail: z.optional(z.string().check(z.describe("Schwab: the last four digits of the account synced"))),
  needsReauth: z.boolean().check(z.describe("Schwab: the sign-in has ended (a refused refresh, or its 7 days over); sign in at Schwab again")),
  demo: z.optional(z.boolean().check(z.describe("Tradovate: the connection reads the demo API"))),
  startDate: z.nullable(z.string()).check(z.describe("Nothing executed before this day (YYYY-MM-DD, the account's time zone) is imported")),
  tokenHintTail: z.string().check(z.describe("The last four characters of the token or key (Coinbase: of the key's name); secrets are never returned")),
  verified: z.boolean(),
  broken: z.nullable(z.string()).check(z.describe("Why the broker refused the credentials or the query on the last try; the schedule skips a broken connection until new ones are saved")),
  paused: z.boolean().check(z.describe("Paused by the trader: not pulled on the schedule (Sync now still pulls)")),
  lastRun: z.nullable(BrokerRunSchema),
});
export const BrokerTestSchema = z.object({ ok: z.boolean(), message: z.nullable(z.string()), connection: BrokerConnectionViewSchema });

export const PresetListSchema = z.object({ presets: z.array(loose()) });
export const SuggestionSchema = z.object({
  mapping: loose().check(z.describe("Field -> column name, as ImportRequest.mapping; only the fields found")),
  options: loose().check(z.describe("As ImportRequest.options: dateFormat, numberFormat, sideFromQuantitySign when the values show them")),
  notes: z.array(z.string()).check(z.describe("What to check before previewing, in words")),
  source: z.enum(["saved", "rules"]).check(z.describe("saved: the mapping this account used for the same header; rules: read from the names and values")),
  savedAt: z.nullable(z.string()),
});
export const ModelSuggestionSchema = z.object({
  mapping: loose().check(z.describe("Field -> column name, as ImportRequest.mapping; only fields naming a column of the header")),
  options: loose().check(z.describe("dateFormat, numberFormat, sideFromQuantitySign when the model gave a known one")),
  notes: z.array(z.string()).check(z.describe("Which model suggested it, then what the model says to check")),
  source: z.literal("model"),
  savedAt: z.null(),
  provider: z.string(),
  model: z.string(),
});
export const ImportSchema = z.object({
  importId: id(),
  accountId: id(),
  status: z.enum(["staged", "committing", "committed", "undone"]),
  fileName: z.nullable(z.string()),
  presetId: z.nullable(z.string()),
  createdAt: iso(),
  expiresAt: iso(),
  committedAt: z.nullable(iso()),
  undoneAt: z.nullable(iso()),
  summary: z.unknown(),
  fillsCreated: z.nullable(z.number()),
});
export const ImportHistorySchema = z.object({ imports: z.array(ImportSchema) });
export const PreviewSchema = z.object({
  importId: id(),
  expiresAt: iso(),
  summary: loose(),
  errors: z.array(loose()),
  symbols: z.array(z.object({ symbol: z.string(), fills: z.number(), netQuantity: decimal() })),
  fills: z.array(loose()),
  rows: z.array(loose()),
  reconciliation: z.optional(
    z
      .object({
        file: decimal(),
        journal: decimal(),
        matches: z.boolean(),
        differ: z.array(z.object({ symbol: z.string(), file: decimal(), journal: decimal() })),
      })
      .check(z.describe("Another journal's export (mapping.pnl): its own P&L against the journal's, in total and per symbol where they differ")),
  ),
});
/** POST /api/csv-import/preview: a multipart form. */
export const PreviewBodySchema = z.object({
  file: z.string().check(z.describe("The broker's CSV file (at most CSV_IMPORT_MAX_FILE_BYTES)")),
  request: z.string().check(z.describe("JSON {accountId, presetId?, mapping?, options?} (at most CSV_IMPORT_MAX_REQUEST_BYTES)")),
});

const modelProvider = () => z.enum(["openai", "anthropic", "gemini", "openrouter"]);
export const ProviderKeySchema = z.object({
  provider: modelProvider(),
  keyHintTail: z.string(),
  defaultModel: z.string(),
  verified: z.boolean(),
  createdAt: iso(),
  updatedAt: iso(),
});
export const ProviderKeyListSchema = z.object({ keys: z.array(ProviderKeySchema) });
export const ModelListSchema = z.object({
  providers: z.array(z.object({ provider: modelProvider(), defaultModel: z.string(), verified: z.boolean(), models: z.nullable(z.array(z.string())) })),
});
export const MarketDataKeySchema = z.object({ configured: z.boolean(), keyHintTail: z.optional(z.string()), verified: z.optional(z.boolean()) });
export const AdvisorSettingsSchema = z.object({ shareJournal: z.boolean() });
export const ConversationSchema = z.object({ id: id(), title: z.string(), provider: modelProvider(), model: z.string(), createdAt: iso(), updatedAt: iso() });
export const ConversationListSchema = z.object({ conversations: z.array(ConversationSchema), nextCursor: z.nullable(z.string()) });
export const ConversationDetailSchema = z.object({
  conversation: ConversationSchema,
  messages: z.array(
    z.object({
      id: id(),
      role: z.enum(["user", "assistant"]),
      text: z.string(),
      toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.unknown(), summary: z.nullable(z.optional(z.string())) })),
      usage: z.optional(loose()),
      status: z.enum(["complete", "incomplete", "failed"]),
      createdAt: iso(),
    }),
  ),
});
/**
 * POST /api/advisor/conversations/:id/turns answers text/event-stream: one `event:` line and one JSON `data:`
 * line per event, in this order: start, then delta (answer text), tool_call and tool_result (the journal
 * lookups), usage, and finally done or error. Comment lines keep the connection alive.
 */
export const TurnEventSchema = z.object({
  event: z.enum(["start", "delta", "tool_call", "tool_result", "usage", "done", "error"]),
  data: loose(),
});

export const SymbolListSchema = z.object({ symbols: z.array(z.object({ ticker: z.string(), name: z.string(), exchange: z.nullable(z.string()) })) });
export const QuoteSchema = z.object({ symbol: z.string(), price: decimal(), currency: z.nullable(z.string()), asOf: iso(), delayed: z.literal(true), stale: z.boolean() });

const AdminUserFields = {
  id: id(),
  email: z.string(),
  isAdmin: z.boolean(),
  plan: z.enum(["free", "pro"]),
  emailVerified: z.boolean(),
  createdAt: iso(),
  lastSeenAt: z.nullable(iso()),
  accounts: z.number(),
  fills: z.number(),
  trades: z.number(),
};
export const AdminUserListSchema = z.object({ users: z.array(z.object(AdminUserFields)), nextCursor: z.nullable(z.string()) });
export const AdminUserSchema = z.object({
  user: z.object({
    ...AdminUserFields,
    sessions: z.number(),
    wallet: z.object({ balance: z.number(), reserved: z.number(), available: z.number() }),
  }),
});
export const AdminCreditSchema = z.object({
  movement: z.object({ id: id(), kind: z.literal("admin_grant"), amount: z.number(), balanceAfter: z.number(), reference: z.string(), createdAt: iso() }),
});
export const AdminStatsSchema = z.object({
  users: z.object({ total: z.number(), admins: z.number(), pro: z.number(), active7Days: z.number(), active30Days: z.number() }),
  accounts: z.number(),
  fills: z.number(),
  imports: z.number(),
  advisor: z.object({ from: iso(), to: iso(), turns: z.number(), creditsCharged: z.number() }),
  digests: z.object({ emailConfigured: z.boolean(), sent: z.number(), failed: z.number(), retrying: z.number(), lastError: z.nullable(z.string()) }).check(
    z.describe("Weekly digests claimed in the period: sent, failed for good (a refused address, email not configured, tried 3 times), waiting to be tried again; the newest failure's reason"),
  ),
});
export const AuditListSchema = z.object({
  entries: z.array(
    z.object({
      id: id(),
      actorId: z.nullable(id()),
      actorEmail: z.string(),
      action: z.enum(["promote", "demote", "set_plan", "credit_grant", "end_sessions", "disable_2fa"]),
      targetUserId: z.nullable(id()),
      targetEmail: z.string(),
      reason: z.nullable(z.string()),
      details: z.record(z.string(), z.unknown()),
      at: iso(),
    }),
  ),
  nextCursor: z.nullable(z.string()),
});

export const ChangelogSchema = z.object({
  releases: z.array(z.object({ name: z.string(), tag: z.string(), publishedAt: iso(), url: z.string(), body: z.string() })),
  unread: z.number(),
  stale: z.boolean(),
  shipped: z.boolean().check(z.describe("True when the releases source could not be reached and the release notes this instance ships (its CHANGELOG.md) are served instead")),
});

const PlaybookItemOut = z.object({
  id: id(),
  kind: z.enum(["checkbox", "number", "text", "choice"]),
  label: z.string(),
  options: z.optional(z.array(z.string()).check(z.describe("A choice item's options"))),
});
export const PlaybookSchema = z.object({
  id: id(),
  name: z.string(),
  description: z.nullable(z.string()),
  entryCriteria: z.nullable(z.string()),
  exitCriteria: z.nullable(z.string()),
  items: z.array(PlaybookItemOut),
  archived: z.boolean(),
  archivedAt: z.nullable(iso()),
  trades: z.number().check(z.describe("Trades (and detached notes) taken from it")),
  createdAt: iso(),
  updatedAt: iso(),
});
export const PlaybookListSchema = z.object({ playbooks: z.array(PlaybookSchema) });
const PlaybookFigures = z.object({
  trades: z.number().check(z.describe("Closed trades of the period")),
  wins: z.number().check(z.describe("Of them, those that made money")),
  netPnl: decimal(),
  winRate: ratio(),
  expectancy: z.nullable(decimal()).check(z.describe("Net P&L per trade")),
  withRisk: z.number().check(z.describe("Those with a 1R")),
  expectancyR: z.nullable(decimal()).check(z.describe("R per trade over those with a 1R, 2 decimals")),
});
export const PlaybookReportSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  playbooks: z.array(
    z.extend(PlaybookFigures, {
      id: id(),
      name: z.string(),
      archived: z.boolean(),
      items: z.array(
        z.object({
          id: id(),
          label: z.string(),
          kind: z.enum(["checkbox", "number", "text", "choice"]),
          followed: PlaybookFigures.check(z.describe("Trades that ticked it (a checkbox) or answered it")),
          broken: PlaybookFigures.check(z.describe("Trades that did not")),
        }),
      ),
    }),
  ),
  none: PlaybookFigures.check(z.describe("Closed trades of the period taken from no playbook")),
});

export const DayEntryOutSchema = z.object({
  accountId: id(),
  day: z.string().check(z.describe("The trading day on the account's clock, YYYY-MM-DD")),
  plan: z.nullable(z.string()).check(z.describe("The plan, written before the open")),
  review: z.nullable(z.string()).check(z.describe("The review, written after the close")),
  mood: z.nullable(z.number()).check(z.describe("1 (worst) to 5 (best)")),
  tags: z.array(z.string()),
  createdAt: iso(),
  updatedAt: iso(),
});
export const DayListSchema = z.object({ days: z.array(DayEntryOutSchema) });

export const RuleSchema = z.object({
  id: id(),
  accountId: id(),
  rule: z.record(z.string(), z.unknown()).check(z.describe("The rule: {type, ...its parameters} (see the POST body)")),
  label: z.string().check(z.describe("The rule in words")),
  weight: z.enum(["critical", "important", "nice"]),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const RuleListSchema = z.object({ rules: z.array(RuleSchema) });
const ComplianceFigures = z.object({ trades: z.number(), wins: z.number(), netPnl: decimal(), winRate: ratio(), expectancy: z.nullable(decimal()) });
export const ComplianceSchema = z.object({
  accountId: id(),
  currency: z.string(),
  missingRates: missingRates(),
  rules: z.array(
    z.extend(RuleSchema, {
      brokenTrades: z.number(),
      brokenDays: z.number(),
      brokenNetPnl: decimal().check(z.describe("Net P&L of the closed trades that broke it")),
    }),
  ),
  score: z.nullable(z.number()).check(z.describe("The period's average day score, out of 100")),
  trades: z.object({ compliant: ComplianceFigures, broken: ComplianceFigures }),
  days: z.array(z.object({ day: z.string(), trades: z.number(), netPnl: decimal(), score: z.nullable(z.number()), broken: z.array(id()) })),
  streak: z.object({ current: z.number(), best: z.number() }).check(z.describe("Fully compliant trading days in a row")),
});

const CitedTrade = z.object({
  id: id(),
  symbol: z.string(),
  openedAt: iso(),
  netPnl: decimal(),
  afterLoss: z.optional(id().check(z.describe("The losing trade it followed"))),
  day: z.optional(z.string().check(z.describe("The day it belongs to (overtrading)"))),
});
const Finding = {
  found: z.boolean(),
  title: z.string(),
  detail: z.string().check(z.describe("The finding in words, with the trader's own figures")),
  count: z.number().check(z.describe("Trades it found")),
  netPnl: decimal().check(z.describe("What those trades made")),
  trades: z.array(CitedTrade).check(z.describe("The trades it cites, newest first (at most 50)")),
};
export const InsightsSchema = z.object({
  currency: statsCurrency(),
  findings: z.array(
    z.union([
      z.object({ kind: z.literal("revenge"), ...Finding }),
      z.object({ kind: z.literal("overtrading"), ...Finding, days: z.array(z.object({ day: z.string(), trades: z.number() })) }),
      z.object({ kind: z.literal("size_up_after_loss"), ...Finding }),
      z.object({ kind: z.literal("losers_held_longer"), ...Finding, averageWinnerMinutes: z.nullable(z.number()), averageLoserMinutes: z.nullable(z.number()) }),
    ]),
  ),
});

const tagKind = () => z.nullable(z.enum(["setup", "mistake", "emotion"]));
export const TagListSchema = z.object({ tags: z.array(z.object({ tag: z.string(), kind: tagKind(), trades: z.number().check(z.describe("Trades (not detached notes) carrying it")) })) });
export const TagKindOutSchema = z.object({ tag: z.string(), kind: tagKind() });
export const TagReportSchema = z.object({
  currency: statsCurrency(),
  missingRates: missingRates(),
  kind: tagKind(),
  tags: z.array(
    z.object({
      tag: z.string(),
      kind: tagKind(),
      trades: z.number().check(z.describe("Closed trades of the period carrying it")),
      wins: z.number().check(z.describe("Of them, those that made money")),
      netPnl: decimal().check(z.describe("What they made (for a mistake: what it cost)")),
      winRate: ratio(),
      expectancy: decimal(),
    }),
  ),
});

const DigestSettingsSchema = z.object({ weekly: z.boolean(), weekday: z.number(), hour: z.number(), zone: z.string(), reading: z.optional(z.nullable(z.string())), washWatch: z.optional(z.boolean()) });
export const SettingsSchema = z.object({
  baseCurrency: z.nullable(z.string()).check(z.describe("ISO 4217 code every account's figures convert to (currency=base), null when off")),
  digest: z.nullable(DigestSettingsSchema),
  privacyMode: z.boolean(),
});
export const FxOverrideSchema = z.object({ override: z.object({ date: day(), currency: z.string(), base: z.string(), rate: decimal().check(z.describe("Units of currency per 1 base")) }) });
export const FxRatesSchema = z.object({
  base: z.string(),
  from: day(),
  to: day(),
  service: z.string().check(z.describe("The rate service asked (FX_RATES_BASE_URL)")),
  rates: z.array(z.object({ date: day(), currency: z.string(), rate: decimal(), rateDate: day(), source: z.enum(["same", "override", "broker", "reference"]) })),
  missingRates: z.array(z.object({ currency: z.string(), date: day() })),
  overrides: z.array(z.object({ date: day(), currency: z.string(), rate: decimal() })),
});


