// The advisor's tools over the trader's own journal (DESIGN.md section 9, "Grounding"): each a thin call into
// the domain functions the API itself uses (statistics, trades, ledger, accounts), with zod-described
// arguments. Results are compact (capped in size, ids included) so an answer can cite trades, and each comes
// with a one-line summary the web app shows as the tool's activity ("Read 12 trades").
import * as z from "zod/mini";
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { getAccount, listAccounts } from "../accounts/accounts.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { ledgerPageSql } from "../ledger/ledger.ts";
import { breakdown, calendar, summary, type BreakdownBy } from "../stats/stats.ts";
import { getTrade, listTrades, type Trade } from "../trades/trades.ts";
import { findings } from "../insights/findings.ts";
import { playbookReport } from "../stats/playbook-report.ts";
import { complianceReport } from "../rules/compliance.ts";
import { evaluationRules, replayEvaluation } from "../prop/evaluations.ts";
import { PROP_PRESETS } from "../prop/presets.ts";
import { ReplaySchema } from "../prop/schema.ts";
import { tagReport } from "../stats/tag-report.ts";
import { MonteCarloSchema, runMonteCarlo } from "../simulations/simulations.ts";
import { whatIf, WhatIfQuerySchema } from "../simulations/what-if.ts";
import { listDays } from "../days/days.ts";
import { DayListQuerySchema } from "../days/schema.ts";
import { listStrategies } from "../options/strategies.ts";
import { STRATEGY_KINDS, type StrategyKind } from "../options/strategy-shape.ts";
import { providerKeyOf } from "../keys/keys.ts";
import { baseUrlOf, MARKET_DATA } from "../providers/providers.ts";
import type { ToolOutput } from "../ports/model.ts";

/** What a tool hands back: data for the model, a line for the trader. */
export type { ToolOutput };

export type AdvisorTool = {
  description: string;
  inputSchema: z.ZodMiniType;
  execute(input: never): Promise<ToolOutput>;
};

/** A tool result larger than this (as JSON) is cut down: lists lose their tail, with a note saying so. */
export const MAX_RESULT_CHARS = 8000;

/** Paths of the advisor's Monte Carlo: 20,000 put a 1 % probability within about 0.15 % of the simulation's own limit. */
export const ADVISOR_PATHS = 20_000;

const date = () => z.optional(z.iso.datetime({ offset: true }).check(z.describe("ISO-8601 date-time with Z or an offset")));
const accountId = () => z.optional(z.uuid().check(z.describe("One account's id; omit for all accounts")));
/** Statistics never add up amounts of different currencies unconverted: one account, all accounts of one currency, or all converted to the base. */
const currency = () =>
  z.optional(
    z.string().check(
      z.regex(/^([A-Za-z]{3}|base)$/),
      z.describe(
        'All accounts in this currency (ISO code such as USD), instead of accountId; needed when the accounts use different currencies. "base": every account converted to the user\'s base currency, when they set one (summary, breakdown, calendar, the tag and playbook reports)',
      ),
    ),
  );
const range = { accountId: accountId(), from: date(), to: date() };
const statsRange = { ...range, currency: currency() };

/** A trade as the model sees it: what it needs to reason and to cite, nothing more. */
function compactTrade(t: Trade) {
  return {
    id: t.id,
    accountId: t.accountId,
    currency: t.currency,
    symbol: t.symbol,
    direction: t.direction,
    status: t.status,
    openedAt: t.openedAt,
    closedAt: t.closedAt,
    quantity: t.maxQuantity,
    averageEntryPrice: t.averageEntryPrice,
    averageExitPrice: t.averageExitPrice,
    netPnl: t.netPnl,
    fees: t.fees,
    ...(t.tags.length ? { tags: t.tags } : {}),
    ...(t.setup ? { setup: t.setup } : {}),
    ...(t.rating ? { rating: t.rating } : {}),
    // The plan and the result in R, when the trade has a 1R (DESIGN.md section 10).
    ...(t.risk.oneR ? { oneR: t.risk.oneR, rMultiple: t.risk.rMultiple } : {}),
    ...(t.risk.stopPrice ? { stopPrice: t.risk.stopPrice } : {}),
    ...(t.risk.targetPrice ? { targetPrice: t.risk.targetPrice, plannedRR: t.risk.plannedRR } : {}),
    // How far it went against and for the trader while open, when bars cover it (docs/charts.md).
    ...(t.excursions
      ? { excursions: { mae: t.excursions.positionMae, mfe: t.excursions.positionMfe, maeR: t.excursions.maeR, mfeR: t.excursions.mfeR, bestExitPnl: t.excursions.bestExitPnl, efficiency: t.excursions.efficiency } }
      : {}),
  };
}

/** Cuts a list so the result stays under MAX_RESULT_CHARS, saying how many items were left out. */
function capped<T>(items: T[], wrap: (kept: T[]) => Record<string, unknown>): Record<string, unknown> {
  let kept = items;
  while (kept.length > 1 && JSON.stringify(wrap(kept)).length > MAX_RESULT_CHARS) kept = kept.slice(0, Math.ceil(kept.length / 2));
  return kept.length < items.length ? { ...wrap(kept), omitted: items.length - kept.length } : wrap(items);
}

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const span = (q: { from?: string | undefined; to?: string | undefined }) =>
  q.from || q.to ? ` from ${q.from?.slice(0, 10) ?? "the start"} to ${q.to?.slice(0, 10) ?? "now"}` : "";

/** The tools for one user's turn. `quotes` adds the quote tool (the user has a market-data key). */
export function journalTools(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log" | "defer">, user: AuthUser, options: { quotes: boolean }) {
  const tools: Record<string, AdvisorTool> = {
    performance_summary: {
      description:
        "Performance figures for a period: net and gross P&L and fees realised in it, and over the trades closed in it the count, wins, losses, win rate, profit factor, expectancy, average and largest win and loss, and max drawdown; `r` gives the same trades in R (multiples of their planned risk) over those that have one (withRisk of them). countBy \"strategy\" counts each option strategy (a spread, a condor) as one trade won or lost by its legs together: use it for an options trader's real win rate.",
      inputSchema: z.object({ ...statsRange, countBy: z.optional(z.enum(["trade", "strategy"]).check(z.describe("Count each trade (default) or each option strategy once"))) }),
      async execute(q: { accountId?: string; currency?: string; from?: string; to?: string; countBy?: "trade" | "strategy" }) {
        const s = await summary(deps, user, q);
        return { summary: `Read the performance summary${span(q)}: ${plural(s.trades, "closed trade")}, net P&L ${s.netPnl}${s.currency ? ` ${s.currency}` : ""}`, data: { ...q, ...s } };
      },
    },
    breakdown: {
      description:
        "Realised net P&L grouped by symbol, tag, setup, weekday of entry or hour of entry (in the account's time zone), with the number and win rate of closed trades per group, and their total in R (rTotal) over the withRisk of them that have a planned risk. By strategy: the option strategies closed in the period by kind (credit and debit spreads apart, condors, singles), each counted once.",
      inputSchema: z.object({ ...statsRange, by: z.enum(["symbol", "tag", "setup", "weekday", "hour", "strategy"]).check(z.describe("How to group")) }),
      async execute(q: { by: BreakdownBy; accountId?: string; currency?: string; from?: string; to?: string }) {
        const b = await breakdown(deps, user, q);
        return { summary: `Read the breakdown by ${q.by}${span(q)}: ${plural(b.groups.length, "group")}`, data: { ...q, currency: b.currency, ...capped(b.groups, (groups) => ({ groups })) } };
      },
    },
    list_trades: {
      description:
        "Trades (positions from flat to flat) with filters, newest opened first, at most 50: ids, symbol, direction, status, times, quantity, average prices, net P&L, tags, setup, the plan (stop, target) with 1R and the result in R, and the excursions (MAE, MFE, in money and R, best exit, exit efficiency) when the trade has them.",
      inputSchema: z.object({
        ...range,
        symbol: z.optional(z.string().check(z.maxLength(40), z.describe("Symbol, such as AAPL or ESZ26"))),
        tag: z.optional(z.string().check(z.maxLength(50), z.describe("Only trades with this tag"))),
        status: z.optional(z.enum(["open", "closed"])),
        limit: z.optional(z.int().check(z.minimum(1), z.maximum(50), z.describe("How many, 1 to 50 (default 20)"))),
      }),
      async execute(q: { accountId?: string; from?: string; to?: string; symbol?: string; tag?: string; status?: "open" | "closed"; limit?: number }) {
        const { limit, ...filters } = q;
        const page = await listTrades(deps, user, { ...filters, page: 1, pageSize: limit ?? 20 });
        const trades = page.trades.map(compactTrade);
        return { summary: `Read ${plural(trades.length, "trade")}${q.symbol ? ` of ${q.symbol.toUpperCase()}` : ""}${span(q)}`, data: capped(trades, (kept) => ({ trades: kept, more: page.hasMore })) };
      },
    },
    get_trade: {
      description: "One trade with its fills (times, sides, quantities, prices, fees), its journal notes, tags, setup and rating, and its excursions (MAE, MFE, best exit, exit efficiency) when bars cover it.",
      inputSchema: z.object({ tradeId: z.uuid().check(z.describe("The trade's id")) }),
      async execute(q: { tradeId: string }) {
        const { trade, fills } = await getTrade(deps, user, q.tradeId);
        const data = {
          ...compactTrade(trade),
          notes: trade.notes,
          fills: fills.map((f) => ({ executedAt: f.executedAt, side: f.side, quantity: f.quantityInTrade, price: f.price, fees: f.feesInTrade, role: f.role })),
        };
        return { summary: `Read the ${trade.symbol} trade opened ${trade.openedAt.slice(0, 10)}`, data: capped(data.fills, (kept) => ({ ...data, fills: kept })) };
      },
    },
    option_strategies: {
      description:
        "The trader's option strategies (the option trades of one order, or opened within a minute, taken as one: verticals, condors, straddles, calendars, covered calls...), newest opened first, at most 50: kind, opened for a credit or a debit (premium: positive received), net P&L, max profit and loss and breakevens at expiry, R, the Greeks and implied volatility at entry (delta in shares' worth, theta a day, vega a volatility point), the roll it came from or went into with the campaign's P&L, and each leg (the trade's id to cite, its contract, side, size, price and entry IV and delta).",
      inputSchema: z.object({
        accountId: accountId(),
        underlying: z.optional(z.string().check(z.regex(/^[A-Za-z0-9.]{1,12}$/), z.describe("Underlying, such as SPY"))),
        status: z.optional(z.enum(["open", "closed"])),
        kind: z.optional(z.enum(STRATEGY_KINDS).check(z.describe("Only strategies of this kind"))),
        limit: z.optional(z.int().check(z.minimum(1), z.maximum(50), z.describe("How many, 1 to 50 (default 20)"))),
      }),
      async execute(q: { accountId?: string; underlying?: string; status?: "open" | "closed"; kind?: StrategyKind; limit?: number }) {
        const page = await listStrategies(deps, user, { ...q, limit: q.limit ?? 20 });
        const strategies = page.strategies.map((x) => ({
          id: x.id,
          accountId: x.accountId,
          currency: x.currency,
          underlying: x.underlying,
          kind: x.kind,
          credit: x.credit,
          premium: x.premium,
          status: x.status,
          openedAt: x.openedAt,
          closedAt: x.closedAt,
          netPnl: x.netPnl,
          maxProfit: x.maxProfit,
          maxLoss: x.maxLoss,
          breakevens: x.breakevens,
          rMultiple: x.rMultiple,
          greeks: x.greeks,
          ...(x.rollOfId || x.rolledIntoId ? { rollOfId: x.rollOfId, rolledIntoId: x.rolledIntoId, campaignNetPnl: x.campaignNetPnl } : {}),
          ...(x.setup ? { setup: x.setup } : {}),
          ...(x.tags.length ? { tags: x.tags } : {}),
          legs: x.legs.map((l) => ({ tradeId: l.tradeId, symbol: l.symbol, side: l.side, quantity: l.quantity, price: l.price, netPnl: l.netPnl, ...(l.entry ? { iv: l.entry.iv, delta: l.entry.delta } : {}) })),
        }));
        return {
          summary: `Read ${plural(strategies.length, "option strategy", "option strategies")}${q.underlying ? ` on ${q.underlying.toUpperCase()}` : ""}`,
          data: capped(strategies, (kept) => ({ strategies: kept, more: page.nextCursor !== null })),
        };
      },
    },
    ledger: {
      description: "An account's cash: its current balance and its newest ledger entries (deposits, withdrawals, fills' cash, the opening balance).",
      inputSchema: z.object({
        accountId: z.uuid().check(z.describe("The account's id")),
        limit: z.optional(z.int().check(z.minimum(1), z.maximum(100), z.describe("How many entries, 1 to 100 (default 20)"))),
      }),
      async execute(q: { accountId: string; limit?: number }) {
        const account = await getAccount(deps, user, q.accountId);
        const [row] = rowsOf<{ body: string }>(await deps.db.execute(ledgerPageSql(user.id, q.accountId, { page: 1, pageSize: q.limit ?? 20 })));
        const page = JSON.parse(row!.body) as { entries: unknown[] };
        return {
          summary: `Read the ${account.name} ledger: balance ${account.balance} ${account.currency}`,
          data: capped(page.entries, (entries) => ({ accountId: account.id, currency: account.currency, balance: account.balance, entries })),
        };
      },
    },
    open_positions: {
      description: "The positions open now (trades not yet flat): symbol, direction, open quantity, average entry, and P&L realised so far.",
      inputSchema: z.object({ accountId: accountId() }),
      async execute(q: { accountId?: string }) {
        const page = await listTrades(deps, user, { ...q, status: "open", page: 1, pageSize: 50 });
        const positions = page.trades.map((t) => ({ ...compactTrade(t), openQuantity: t.openQuantity, realizedSoFar: t.netPnl }));
        return { summary: `Read ${plural(positions.length, "open position")}`, data: capped(positions, (kept) => ({ positions: kept })) };
      },
    },
    pnl_calendar: {
      description: "Realised net P&L per trading day (in each account's time zone) and the trades closed each day.",
      inputSchema: z.object(statsRange),
      async execute(q: { accountId?: string; currency?: string; from?: string; to?: string }) {
        const c = await calendar(deps, user, q);
        return { summary: `Read the P&L calendar${span(q)}: ${plural(c.days.length, "day")}`, data: capped(c.days, (days) => ({ ...q, currency: c.currency, days })) };
      },
    },
    behaviour_findings: {
      description:
        "Behaviour findings over the trader's own record, each with whether it was found, a sentence with their figures, how many trades and what they made, and the trades it cites (ids): revenge trades (opened within revengeMinutes, default 30, after a loss, larger than it), overtrading (days past their own 90th percentile of trades a day), size-up after a loss (the next trade 1.5x the loss's size or more), losers held longer than winners. Use it for \"what am I doing wrong?\".",
      inputSchema: z.object({ ...statsRange, revengeMinutes: z.optional(z.int().check(z.minimum(1), z.maximum(240), z.describe("The revenge window in minutes (default 30)"))) }),
      async execute(q: { accountId?: string; currency?: string; from?: string; to?: string; revengeMinutes?: number }) {
        const f = await findings(deps, user, q);
        const found = f.findings.filter((x) => x.found);
        return {
          summary: `Checked 4 behaviour patterns${span(q)}: ${found.length ? found.map((x) => x.title.toLowerCase()).join(", ") : "none found"}`,
          data: capped(
            f.findings.map((x) => ({ ...x, trades: x.trades.slice(0, 10), citedOf: x.count })),
            (kept) => ({ ...q, currency: f.currency, findings: kept }),
          ),
        };
      },
    },
    rules_compliance: {
      description:
        "How an account's trades kept the trader's own trading rules (max daily loss, max loss per trade, max trades a day, trading hours...): each rule in words with the trades and days that broke it and what those trades made, the trades that kept every rule against the others (count, win rate, net P&L, expectancy), the period's score out of 100 and the streak of clean days. Days YYYY-MM-DD on the account's clock.",
      inputSchema: z.object({
        accountId: z.uuid().check(z.describe("The account's id")),
        from: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("First day, YYYY-MM-DD"))),
        to: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("Last day, YYYY-MM-DD"))),
        currency: z.optional(z.literal("base").check(z.describe("The money figures in the user's base currency, when they set one (the rules stay in the account's)"))),
      }),
      async execute(q: { accountId: string; from?: string; to?: string; currency?: "base" }) {
        const r = await complianceReport(deps, user, q.accountId, q);
        const { days, ...rest } = r;
        return {
          summary: `Read the compliance with ${plural(r.rules.length, "rule")}${r.score === null ? "" : `: score ${r.score} / 100`}`,
          data: { ...rest, rules: r.rules.map(({ id, label, weight, brokenTrades, brokenDays, brokenNetPnl }) => ({ id, label, weight, brokenTrades, brokenDays, brokenNetPnl })), brokenDays: days.filter((d) => d.broken.length).slice(-30) },
        };
      },
    },
    prop_replay: {
      description:
        "How an account's own trades of a period would have fared under a prop firm's rules: a built-in preset named by id, or the account's own evaluation's rules when no preset is named. Day by day (trading days YYYY-MM-DD, at most 1,100): the day it would have passed, the day and rule it would have breached, each day's balance and floor.",
      inputSchema: z.object({
        accountId: z.uuid().check(z.describe("The account's id")),
        preset: z.optional(z.enum(PROP_PRESETS.map((p) => p.id) as [string, ...string[]]).check(z.describe("A built-in preset's id"))),
        from: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("First trading day, YYYY-MM-DD")),
        to: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("Last trading day, YYYY-MM-DD")),
      }),
      async execute(q: { accountId: string; preset?: string; from: string; to: string }) {
        const preset = PROP_PRESETS.find((p) => p.id === q.preset);
        const rules = preset?.rules ?? (await evaluationRules(deps, user, q.accountId));
        const parsed = ReplaySchema.safeParse({ accountId: q.accountId, rules: { ...rules, floorLocksAt: rules.floorLocksAt ?? null }, from: q.from, to: q.to });
        if (!parsed.success) throw new AppError("VALIDATION_ERROR", "Give real trading days, from before to, at most 1,100 days apart.");
        const r = await replayEvaluation(deps, user, parsed.data);
        const under = preset ? `${preset.firm} ${preset.name}` : "the account's own evaluation rules";
        return {
          summary: `Replayed ${plural(r.days.length, "trading day")} under ${under}: ${r.passedOn ? `passed on ${r.passedOn}` : r.breachedOn ? `breached (${r.breachRule}) on ${r.breachedOn}` : "neither passed nor breached"}`,
          data: { ...r, days: r.days.slice(-60) },
        };
      },
    },
    monte_carlo: {
      description:
        "A Monte Carlo of the trader's own R multiples (closed trades with a 1R in the period), resampled in blocks of consecutive trades: percentiles of final equity and max drawdown after `trades` trades risking `riskPerTrade` each, the probability of ruin (equity at or below ruinAt) and of reaching targetAt with Wilson 95% intervals, and the sweep of risk per trade (the risk that maximises the median, the largest that keeps ruin within 1%). Seeded: cite the seed with the figures.",
      inputSchema: z.object({
        ...statsRange,
        trades: z.int().check(z.gte(1), z.lte(5000), z.describe("Trades per path")),
        riskPerTrade: z.string().check(z.describe("Money risked on each trade, a decimal string")),
        startingBalance: z.string().check(z.describe("The equity each path starts from, a decimal string")),
        ruinAt: z.optional(z.string().check(z.describe("Ruin at or below this equity (default 0)"))),
        targetAt: z.optional(z.string().check(z.describe("A target equity"))),
        seed: z.optional(z.int().check(z.describe("A seed, to repeat an earlier run"))),
      }),
      async execute(q: Record<string, unknown>) {
        const parsed = MonteCarloSchema.safeParse({ ...q, paths: ADVISOR_PATHS });
        if (!parsed.success) throw new AppError("VALIDATION_ERROR", `Check the simulation's figures: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}.`);
        const { fan: _fan, samplePaths: _paths, histograms: _h, assumptions: _a, ...r } = await runMonteCarlo(deps, user, parsed.data);
        return {
          summary: `Simulated ${plural(r.paths, "path")} of ${plural(r.trades, "trade")} from ${plural(r.sampled, "trade")} with a 1R (seed ${r.seed}): median final ${r.final.p50}, ruin ${(Number(r.ruinProbability) * 100).toFixed(2)}%`,
          data: r,
        };
      },
    },
    what_if: {
      description:
        "The period's closed trades as they were and as they would have been: without the trades named in `exclude` (broke-rules with an accountId, revenge, overtrading, weekday:N with 1 = Monday, hour:H on the account's clock, tag:NAME, setup:NAME; several with commas) and with `exit` replacing their exits (stop or target where the bars reached them, best = the best exit the bars allowed). Both summaries side by side, with how many trades were removed or changed and up to 20 of them.",
      inputSchema: z.object({
        ...statsRange,
        exclude: z.optional(z.string().check(z.describe("What to leave out, comma-separated"))),
        exit: z.optional(z.enum(["actual", "stop", "target", "best"]).check(z.describe("How exits are replaced (default actual)"))),
      }),
      async execute(q: Record<string, unknown>) {
        const parsed = WhatIfQuerySchema.safeParse(q);
        if (!parsed.success) throw new AppError("VALIDATION_ERROR", `Check the what-if: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}.`);
        const { curves: _c, trades, ...r } = await whatIf(deps, user, parsed.data);
        return {
          summary: `What-if${r.exclude.length ? ` without ${r.exclude.join(", ")}` : ""}${r.exit === "actual" ? "" : `, exits at ${r.exit}`}: ${r.actual.netPnl} became ${r.whatIf.netPnl} (${plural(r.removed, "trade")} removed, ${r.changed} changed)`,
          data: { ...r, trades: trades.slice(0, 20) },
        };
      },
    },
    daily_journal: {
      description:
        "The trader's daily journal entries from one day to another (both included, YYYY-MM-DD on the account's clock, at most 400 days): each day's plan (before the open), review (after the close), mood 1-5 and day tags.",
      inputSchema: z.object({
        accountId: accountId(),
        from: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("First day, YYYY-MM-DD")),
        to: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("Last day, YYYY-MM-DD")),
      }),
      async execute(q: { accountId?: string; from: string; to: string }) {
        const parsed = DayListQuerySchema.safeParse(q);
        if (!parsed.success) throw new AppError("VALIDATION_ERROR", "Give real days, from before to, at most 400 days apart.");
        const { days } = await listDays(deps, user, parsed.data);
        return {
          summary: `Read ${days.length} daily journal ${days.length === 1 ? "entry" : "entries"} from ${q.from} to ${q.to}`,
          data: capped(days.map(({ createdAt: _c, updatedAt: _u, ...d }) => d), (kept) => ({ ...q, days: kept })),
        };
      },
    },
    tag_costs: {
      description:
        "Per tag the trader uses, of one kind they gave it (mistake, setup or emotion; omit for every tag), the closed trades of the period carrying it, costliest first: count, net P&L (for a mistake: what it cost), win rate, expectancy.",
      inputSchema: z.object({ ...statsRange, kind: z.optional(z.enum(["setup", "mistake", "emotion"]).check(z.describe("Only tags of this kind"))) }),
      async execute(q: { accountId?: string; currency?: string; from?: string; to?: string; kind?: "setup" | "mistake" | "emotion" }) {
        const r = await tagReport(deps, user, q);
        return { summary: `Read what ${plural(r.tags.length, q.kind ? `${q.kind} tag` : "tag")} cost${span(q)}`, data: capped(r.tags, (tags) => ({ ...q, currency: r.currency, tags })) };
      },
    },
    playbook_report: {
      description:
        "Per playbook (the trader's written setups): the closed trades taken from it in the period, net P&L, win rate, expectancy in money and R; per checklist item, the trades that followed it against those that broke it; and the trades from no playbook.",
      inputSchema: z.object(statsRange),
      async execute(q: { accountId?: string; currency?: string; from?: string; to?: string }) {
        const r = await playbookReport(deps, user, q);
        return { summary: `Read the playbook report${span(q)}: ${plural(r.playbooks.length, "playbook")}`, data: capped(r.playbooks, (playbooks) => ({ ...q, currency: r.currency, playbooks, none: r.none })) };
      },
    },
  };
  if (options.quotes) {
    tools.quote = {
      description: "The latest price of a stock symbol, from the trader's market-data provider (may be delayed).",
      inputSchema: z.object({ symbol: z.string().check(z.regex(/^[A-Za-z0-9.\-]{1,12}$/), z.describe("Stock ticker, such as AAPL")) }),
      async execute(q: { symbol: string }) {
        const key = await providerKeyOf(deps, user.id, MARKET_DATA);
        if (!key) throw new AppError("NOT_FOUND", "No market-data key is stored.");
        const symbol = q.symbol.toUpperCase();
        const res = await deps.fetch(`${baseUrlOf(deps.config, MARKET_DATA)}/quote?symbol=${encodeURIComponent(symbol)}`, {
          headers: { "X-Finnhub-Token": key, Accept: "application/json" },
          signal: AbortSignal.timeout(5000),
        });
        if (!res.ok) throw new Error(`the market-data provider answered ${res.status}`);
        const body = (await res.json()) as { c?: number; d?: number; dp?: number; t?: number };
        if (typeof body.c !== "number" || body.c === 0) return { summary: `No quote for ${symbol}`, data: { symbol, price: null } };
        return {
          summary: `Looked up ${symbol}: ${body.c}`,
          data: { symbol, price: String(body.c), change: body.d ?? null, changePercent: body.dp ?? null, asOf: body.t ? new Date(body.t * 1000).toISOString() : null },
        };
      },
    };
  }
  return tools;
}

/** The accounts the system prompt names (ids, currencies, time zones). */
export async function accountsForPrompt(deps: Pick<Deps, "db">, user: AuthUser) {
  return (await listAccounts(deps, user)).map((a) => ({ id: a.id, name: a.name, currency: a.currency, timezone: a.timezone }));
}

/** Whether the user has a market-data key (the quote tool). */
export async function hasQuotes(deps: Pick<Deps, "db">, userId: string): Promise<boolean> {
  return rowsOf(await deps.db.execute(sql`select 1 from stored_keys where user_id = ${userId} and provider = ${MARKET_DATA}`)).length > 0;
}
