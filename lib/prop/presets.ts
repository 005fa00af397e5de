// Built-in prop-firm presets (GET /api/prop-firms, docs/prop-firms.md): each firm's published rules for one
// account, as data, with the date they were checked and where from. A trader picks one and edits it: firms
// change their rules, and a preset is a starting point, never a promise. Figures a firm's own pages did not
// give (a review site's, or none) are named in `unverified`.
import { formatDecimal } from "../money.ts";
import type { PropRules } from "./engine.ts";

export type PropPreset = {
  id: string;
  firm: string;
  /** The firm's product and size ("Trading Combine 50K"). */
  name: string;
  phase: "evaluation" | "funded";
  /** The currency of the amounts (an evaluation under them must be on an account in it). */
  currency: string;
  /** The rules as the evaluation takes them; startDate is the trader's. */
  rules: PropRules;
  fees: { evaluation: string | null; evaluationPer: "month" | "once" | null; reset: string | null; activation: string | null; profitSplitPct: number | null };
  checkedOn: string;
  sources: string[];
  /** The figures taken from review sites or left at a common value, not from the firm's own pages. */
  unverified: string[];
  /** What the preset cannot say exactly (a rule the engine reads otherwise). */
  notes: string[];
};

const CHECKED = "2026-11-29";
const CHICAGO = "America/Chicago";
const NEW_YORK = "America/New_York";

const futures50k = (rules: Partial<PropRules>): PropRules => ({
  startingBalance: "50000",
  profitTarget: "3000",
  maxDrawdown: "2000",
  drawdownMode: "eod_trailing",
  dailyLossLimit: null,
  dailyLossIncludesOpen: true,
  dayStartsAt: "18:00",
  dayZone: NEW_YORK,
  minTradingDays: 0,
  consistencyPct: null,
  maxContracts: null,
  floorLocksAt: null,
  ...rules,
});

/** A forex/CFD firm's 100K account: a static drawdown and a daily loss on equity from the day's start. */
const cfd100k = (rules: Partial<PropRules>): PropRules => ({
  startingBalance: "100000",
  profitTarget: "10000",
  maxDrawdown: "10000",
  drawdownMode: "static",
  dailyLossLimit: "5000",
  dailyLossIncludesOpen: true,
  dayStartsAt: "00:00",
  dayZone: "Europe/Prague",
  minTradingDays: 0,
  consistencyPct: null,
  maxContracts: null,
  floorLocksAt: null,
  ...rules,
});

export const PROP_PRESETS: readonly PropPreset[] = [
  {
    id: "topstep-combine-50k",
    firm: "Topstep",
    name: "Trading Combine 50K",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ floorLocksAt: "0", dailyLossLimit: "1000", dayStartsAt: "17:00", dayZone: CHICAGO, minTradingDays: 2, consistencyPct: 50, maxContracts: 5 }),
    fees: { evaluation: "49", evaluationPer: "month", reset: null, activation: "129", profitSplitPct: 90 },
    checkedOn: CHECKED,
    sources: [
      "https://help.topstep.com/en/articles/8284204-what-is-the-maximum-loss-limit",
      "https://help.futures.topstep.com/hc/en-us/articles/8808125387923-Prohibited-Conduct",
      "https://intercom.help/topstep-llc/en/articles/8284121-how-does-the-monthly-subscription-work",
      "https://intercom.help/topstep-llc/en/articles/8284217-express-funded-account-activation-fee",
      "https://help.futures.topstep.com/hc/en-us/articles/235453748",
    ],
    unverified: ["profitTarget", "dailyLossLimit", "consistencyPct", "profitSplitPct"],
    notes: ["TopstepX accounts created or reset since 25 August have no daily loss limit: set it to none for those."],
  },
  {
    id: "apex-full-50k",
    firm: "Apex Trader Funding",
    name: "Full evaluation 50K (before March 2026)",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ maxDrawdown: "2500", drawdownMode: "intraday_trailing", minTradingDays: 7, maxContracts: 10 }),
    fees: { evaluation: "167", evaluationPer: "month", reset: null, activation: "85", profitSplitPct: 90 },
    checkedOn: CHECKED,
    sources: ["https://support.apextraderfunding.com/hc/en-us/articles/31519769997083-Evaluation-Rules"],
    unverified: ["profitTarget", "fees"],
    notes: [
      "The funded (PA) account stops trailing at the start + 100: set floorLocksAt to 100 for it.",
      "On Rithmic the evaluation's trail stops at the profit target; on Tradovate it never stops.",
      "Apex's accounts since 1 March 2026 (\"4.0\") have other rules: edit before use.",
    ],
  },
  {
    id: "mffu-core-50k",
    firm: "My Funded Futures",
    name: "Core 50K",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ minTradingDays: 2, consistencyPct: 50, maxContracts: 3 }),
    fees: { evaluation: "77", evaluationPer: "month", reset: null, activation: "0", profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: [
      "https://help.myfundedfutures.com/en/articles/9558251-permitted-times-to-trade",
      "https://help.myfundedfutures.com/en/articles/11994562-consistency-rule-at-myfunded-futures-core-scale-and-pro-plans",
    ],
    unverified: ["profitTarget", "maxDrawdown", "minTradingDays", "maxContracts", "fees"],
    notes: ["The funded account locks the floor at the start + 100: set floorLocksAt to 100 for it."],
  },
  {
    id: "takeprofittrader-test-50k",
    firm: "Take Profit Trader",
    name: "Test 50K",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ floorLocksAt: "0", minTradingDays: 5, consistencyPct: 50, maxContracts: 6 }),
    fees: { evaluation: "170", evaluationPer: "month", reset: "100", activation: "130", profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: [
      "https://takeprofittrader.crunch.help/en/test-rules/rule-5-trade-approved-products-during-approved-hours",
      "https://takeprofittrader.crunch.help/en/test-rules/rule-6-be-consistent",
      "https://takeprofittrader.crunch.help/en/proplus-account/set-up-process",
    ],
    unverified: ["profitTarget", "maxDrawdown", "maxContracts", "fees"],
    notes: ["The funded PRO account trails intraday until the floor reaches the start: trailing_lock for it."],
  },
  {
    id: "tradeday-50k",
    firm: "TradeDay",
    name: "Evaluation 50K",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ floorLocksAt: "0", dayStartsAt: "17:00", dayZone: CHICAGO, minTradingDays: 5, consistencyPct: 30 }),
    fees: { evaluation: null, evaluationPer: null, reset: null, activation: null, profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: [
      "https://tradeday.freshdesk.com/en/support/solutions/articles/103000008855",
      "https://tradeday.freshdesk.com/en/support/solutions/articles/103000008847",
      "https://tradeday.freshdesk.com/en/support/solutions/articles/103000018874",
    ],
    unverified: ["profitTarget", "maxDrawdown", "minTradingDays", "consistencyPct", "fees"],
    notes: ["The drawdown is computed on end-of-day balances and enforced in real time, as eod_trailing reads it."],
  },
  {
    id: "earn2trade-gauntlet-mini-50k",
    firm: "Earn2Trade",
    name: "Gauntlet Mini 50K",
    phase: "evaluation",
    currency: "USD",
    // Open-equity losses count against the end-of-day floor intraday: the floor measured on equity.
    rules: futures50k({ floorLocksAt: "0", dayStartsAt: "17:00", dayZone: CHICAGO, dailyLossLimit: "1100", minTradingDays: 10, consistencyPct: 30, drawdownOn: "equity" }),
    fees: { evaluation: null, evaluationPer: null, reset: null, activation: null, profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: [
      "https://help.earn2trade.com/en/articles/5372687-how-does-end-of-day-drawdown-work",
      "https://help.earn2trade.com/en/articles/3849975-what-is-the-maintain-consistency-rule",
      "https://help.earn2trade.com/en/articles/3292356-what-is-a-trailing-drawdown",
    ],
    unverified: ["profitTarget", "maxDrawdown", "dailyLossLimit", "minTradingDays", "fees"],
    notes: [],
  },
  {
    id: "tradeify-growth-50k",
    firm: "Tradeify",
    name: "Growth 50K",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ floorLocksAt: "100", dailyLossLimit: "1250", dailyLossSoft: true, minTradingDays: 1 }),
    fees: { evaluation: "97", evaluationPer: "month", reset: null, activation: "0", profitSplitPct: 90 },
    checkedOn: CHECKED,
    sources: [
      "https://intercom.help/tradeify-test/en/articles/11807978-essential-trading-rules-overview",
      "https://intercom.help/tradeify-test/en/articles/11807991-rules-daily-loss-limit",
      "https://tradeify.co/post/instant-funding-vs-evaluation-prop-firm-challenges",
    ],
    unverified: ["profitTarget", "maxDrawdown"],
    notes: ["The daily loss limit is soft: reaching it ends the trading day (the day shows limitHit), not the account."],
  },
  {
    id: "lucid-test-50k",
    firm: "Lucid Trading",
    name: "LucidTest 50K",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ floorLocksAt: "100", dailyLossLimit: "1200", dailyLossSoft: true }),
    fees: { evaluation: null, evaluationPer: "once", reset: null, activation: "0", profitSplitPct: 90 },
    checkedOn: CHECKED,
    sources: [
      "https://support.lucidtrading.com/en/articles/11404720-max-loss-limit-eod-drawdown",
      "https://support.lucidtrading.com/en/articles/11404705-daily-loss-limit",
    ],
    unverified: ["profitTarget", "dayStartsAt", "fees"],
    notes: ["The daily loss limit is soft: reaching it ends the trading day (the day shows limitHit), not the account."],
  },
  {
    id: "alpha-futures-standard-50k",
    firm: "Alpha Futures",
    name: "Standard 50K",
    phase: "evaluation",
    currency: "USD",
    rules: futures50k({ floorLocksAt: "0", consistencyPct: 50, maxContracts: 5 }),
    fees: { evaluation: "79", evaluationPer: "month", reset: "59", activation: "149", profitSplitPct: 70 },
    checkedOn: CHECKED,
    sources: [
      "https://help.alpha-futures.com/en/articles/11632512-standard-account-overview",
      "https://help.alpha-futures.com/en/articles/9491999-maximum-loss-limit-mll",
      "https://help.alpha-futures.com/en/articles/9491980-alpha-futures-evaluation-qualified-trader-overview",
    ],
    unverified: ["reset", "activation", "profitSplitPct"],
    notes: ["A qualified account has a 1,000 daily loss guard (soft) and a 40% consistency rule."],
  },
  {
    id: "ftmo-2step-100k",
    firm: "FTMO",
    name: "FTMO Challenge 100K (step 1)",
    phase: "evaluation",
    currency: "USD",
    // The maximum loss is checked on equity, open positions included.
    rules: cfd100k({ minTradingDays: 4, drawdownOn: "equity" }),
    fees: { evaluation: "540", evaluationPer: "once", reset: null, activation: null, profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: [
      "https://ftmo.com/en/trading-objectives/",
      "https://academy.ftmo.com/lesson/maximum-daily-loss/",
      "https://ftmo.com/en/faq/how-do-i-withdraw-my-profits/",
    ],
    unverified: ["fees.evaluation (EUR)"],
    notes: [
      "The fee is in euros and refunded with the first reward.",
    ],
  },
  {
    id: "fundednext-stellar-2step-100k",
    firm: "FundedNext",
    name: "Stellar 2-Step 100K (phase 1)",
    phase: "evaluation",
    currency: "USD",
    // Server time: GMT+3 in summer, GMT+2 otherwise (Eastern European time).
    rules: cfd100k({ profitTarget: "8000", dayZone: "Europe/Athens", minTradingDays: 5 }),
    fees: { evaluation: "549", evaluationPer: "once", reset: null, activation: null, profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: [
      "https://help.fundednext.com/en/articles/8019811",
      "https://help.fundednext.com/en/articles/8394309",
      "https://help.fundednext.com/en/articles/9941519",
      "https://help.fundednext.com/en/articles/10701694",
    ],
    unverified: ["fees.evaluation"],
    notes: ["The daily loss is measured from the previous day's closing balance, as the engine does."],
  },
  {
    id: "the5ers-high-stakes-100k",
    firm: "The5ers",
    name: "High Stakes 100K (step 1)",
    phase: "evaluation",
    currency: "USD",
    // 5 PM New York (00:00 server time, UTC+3); the day's loss from the higher of its starting balance and equity.
    rules: cfd100k({ profitTarget: "8000", dayStartsAt: "17:00", dayZone: "America/New_York", minTradingDays: 3, dailyLossFrom: "higher_of_balance_and_equity", minDayProfitPct: 0.5 }),
    fees: { evaluation: null, evaluationPer: "once", reset: null, activation: null, profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: ["https://help.the5ers.com/what-is-the-maximum-loss-and-the-maximum-daily-loss-in-the-high-stakes-program"],
    unverified: ["profitTarget", "minTradingDays", "minDayProfitPct", "fees", "profitSplitPct"],
    notes: ["The minimum is 3 profitable days, each at least 0.5% of the start (minDayProfitPct)."],
  },
  {
    id: "alpha-capital-swing-100k",
    firm: "Alpha Capital Group",
    name: "Alpha Swing 100K (phase 1)",
    phase: "evaluation",
    currency: "USD",
    // "00:00 GMT+2 broker time".
    rules: cfd100k({ dayZone: "Etc/GMT-2", minTradingDays: 3 }),
    fees: { evaluation: null, evaluationPer: "once", reset: null, activation: null, profitSplitPct: 80 },
    checkedOn: CHECKED,
    sources: ["https://help.alphacapitalgroup.uk/en/articles/9789907", "https://help.alphacapitalgroup.uk/en/articles/6934210"],
    unverified: ["fees", "profitSplitPct"],
    notes: [],
  },
];

/** The presets as the API answers them: amounts in its decimal form ("50000.00"). */
export function presetsView(): PropPreset[] {
  const dec = (v: string | null | undefined) => (v === null || v === undefined ? null : formatDecimal(v));
  return PROP_PRESETS.map((p) => ({
    ...p,
    rules: {
      ...p.rules,
      startingBalance: formatDecimal(p.rules.startingBalance),
      profitTarget: dec(p.rules.profitTarget),
      maxDrawdown: formatDecimal(p.rules.maxDrawdown),
      dailyLossLimit: dec(p.rules.dailyLossLimit),
      floorLocksAt: dec(p.rules.floorLocksAt),
    },
  }));
}
