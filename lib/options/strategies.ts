// Option strategies (DESIGN.md section 11, "Option strategies"; docs/options.md): the option trades of one account
// and underlying taken as one trade. The grouping is kept in Postgres (strategies, strategy_legs) and brought up to
// date by strategies_settle before every read: the legs of one broker order, or opening fills within 60 seconds of
// the first, make one strategy; a strategy opened within a minute of another's close (or by the order that closed
// it) is its roll, and what the trader grouped by hand stays so.
// What a strategy is (its kind, credit, max profit and loss, breakevens, R) is computed here from its legs as read
// (lib/options/strategy-shape.ts): derived, never stored, so it cannot go stale.
import { sql, type SQL } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { decodeCursor, encodeCursor } from "../db/cursor.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { getQuote } from "../market/quotes.ts";
import { formatDecimal, fromUnits, multiplyDecimals, multiplyUnits, roundDecimal10, toUnits } from "../money.ts";
import { closeRates } from "../fx/base.ts";
import { ratesSql } from "../fx/convert.ts";
import { canonicalTags } from "../tags/tags.ts";
import { resolveInstrument } from "../instruments/instruments.ts";
import type { NewStrategy, StrategyJournal, StrategyListQuery } from "./schema.ts";
import { zonedTimeToUtc } from "../time/zoned.ts";
import { settleStrategies } from "./settle.ts";
import { greeks as blackScholesGreeks, impliedVolatility } from "./black-scholes.ts";
import { kindLabel } from "./kinds.ts";
import { classify, isCredit, payoffAtExpiry, type Leg, type OptionLeg, type StrategyKind } from "./strategy-shape.ts";

type LegRow = {
  tradeId: string;
  symbol: string;
  assetClass: "stock" | "option" | "future";
  multiplier: string;
  direction: "long" | "short";
  maxQuantity: string;
  entryPrice: string | null;
  netPnl: string;
  openedAt: string;
  closedAt: string | null;
  /** The opening fill: its time and price, and the underlying's price then (a 1-minute bar, else a stock fill within a minute). */
  openFillAt: string;
  openFillPrice: string;
  underlyingPrice: string | null;
};

type StrategyRow = {
  id: string;
  account_id: string;
  currency: string;
  underlying: string;
  source: "auto" | "manual";
  roll_of_id: string | null;
  rolled_into_id: string | null;
  notes: string | null;
  tags: string[] | string;
  setup: string | null;
  rating: number | null;
  planned_risk: string | null;
  playbook_id: string | null;
  opened_at: string | null;
  closed_at: string | null;
  campaign_net: string | null;
  legs: LegRow[] | string;
};

const parsed = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);


/**
 * The strategies matching `where` (over `s` and its account `a`), newest opened first, each with its live legs and the
 * net P&L of its roll chain up to and including it. Strategies whose legs are all gone (detached) are left out.
 * `limit` picks the first ones before their legs are read (a page reads a page); `underlying: false` leaves out the
 * underlying's price at each leg's opening (the Greeks' input: a lookup per leg).
 */
function strategyRows(userId: string, where: ReturnType<typeof sql>, { limit, underlying = true }: { limit?: number; underlying?: boolean } = {}) {
  // A strategy without a live leg is not shown: it is not counted towards a page either.
  return sql`with recursive picked as (
      select s.* from strategies s join accounts a on a.id = s.account_id where a.user_id = ${userId}::uuid and ${where}
        and exists (select 1 from strategy_legs l join positions p on p.open_fill_id = l.fill_id where l.strategy_id = s.id)
      order by s.opened_at desc, s.id desc ${limit === undefined ? sql`` : sql`limit ${limit}`}
    ), legs as (
      select l.strategy_id, json_agg(json_build_object('tradeId', p.id, 'symbol', p.symbol, 'assetClass', p.asset_class,
          'multiplier', p.multiplier::text, 'direction', p.direction, 'maxQuantity', p.max_quantity::text,
          'entryPrice', (p.entry_value / nullif(p.entry_quantity, 0))::text, 'netPnl', p.net_pnl::text,
          'openedAt', ${sql.raw(isoUtc("p.opened_at"))}, 'closedAt', ${sql.raw(isoUtc("p.closed_at"))},
          'openFillAt', ${sql.raw(isoUtc("f.executed_at"))}, 'openFillPrice', f.price::text,
          'underlyingPrice', case when ${sql.raw(String(underlying))} and p.asset_class = 'option' then coalesce(
            (select b.close::text from bars b where b.user_id = ${userId}::uuid and b.symbol = rtrim(left(p.symbol, 6)) and b.resolution = '1m'
              and b.t <= f.executed_at and b.t > f.executed_at - interval '1 minute' order by b.t desc limit 1),
            (select sf.price::text from fills sf where sf.account_id = p.account_id and sf.symbol = rtrim(left(p.symbol, 6))
              and sf.executed_at between f.executed_at - interval '1 minute' and f.executed_at + interval '1 minute'
              order by abs(extract(epoch from sf.executed_at - f.executed_at)), sf.id limit 1)) end) order by p.opened_at, p.id) as legs,
        sum(p.net_pnl) as net
      from strategy_legs l join positions p on p.open_fill_id = l.fill_id join fills f on f.id = l.fill_id
      where l.strategy_id in (select id from picked)
      group by l.strategy_id
    ), chain (start_id, id) as (
      select id, id from picked
      union all
      select c.start_id, r.roll_of_id from chain c join strategies r on r.id = c.id where r.roll_of_id is not null
    ), campaign as (
      select c.start_id, sum(x.net) as net from chain c join (
        select l.strategy_id, sum(p.net_pnl) as net from strategy_legs l join positions p on p.open_fill_id = l.fill_id
        where l.strategy_id in (select id from chain) group by l.strategy_id
      ) x on x.strategy_id = c.id group by c.start_id
    )
    select s.id::text, s.account_id::text, a.currency, s.underlying, s.source, s.roll_of_id::text,
      (select r.id::text from strategies r where r.roll_of_id = s.id order by r.opened_at limit 1) as rolled_into_id,
      s.notes, array_to_json(s.tags)::text as tags, s.setup, s.rating::int as rating, s.planned_risk::text as planned_risk, s.playbook_id::text as playbook_id,
      ${sql.raw(isoUtc("s.opened_at"))} as opened_at, ${sql.raw(isoUtc("s.closed_at"))} as closed_at,
      cp.net::text as campaign_net, lg.legs::text as legs
    from picked s join accounts a on a.id = s.account_id join legs lg on lg.strategy_id = s.id
    left join campaign cp on cp.start_id = s.id
    order by s.opened_at desc, s.id desc`;
}

/** A leg as the shapes read it (strategy-shape.ts), from its trade as opened; an option symbol that does not parse is none. */
function shapeLeg(l: LegRow): Leg | null {
  const side = l.direction;
  const price = l.entryPrice ?? "0";
  if (l.assetClass === "stock") return { right: null, side, quantity: l.maxQuantity, multiplier: "1", price };
  if (l.assetClass !== "option") return null;
  try {
    const option = resolveInstrument({ symbol: l.symbol, assetClass: "option" }).option!;
    return { right: option.right, strike: option.strike, expiry: option.expiry, side, quantity: l.maxQuantity, multiplier: l.multiplier, price };
  } catch {
    return null;
  }
}

/** Shares before options; a leg that does not parse last. */
const legOrder = (l: Leg | null) => (l === null ? 2 : l.right === null ? 0 : 1);
function compareLegs(a: Leg, b: Leg): number {
  if (a.right === null || b.right === null) return 0;
  if (a.expiry !== b.expiry) return a.expiry < b.expiry ? -1 : 1;
  const [ka, kb] = [toUnits(a.strike), toUnits(b.strike)];
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.right === b.right ? 0 : a.right === "put" ? -1 : 1;
}

const YEAR_MS = 365 * 86_400_000;

/** An option leg's figures at entry, as text: the underlying's price then, the implied volatility and the Greeks per contract unit. */
type Entry = { underlyingPrice: string; iv: string; delta: string; gamma: string; theta: string; vega: string };

/**
 * The Greeks a leg was opened with (DESIGN.md section 11): Black-Scholes on the underlying's price at the opening
 * fill, that fill's price, the time to expiry (16:00 New York on the expiry day) and the risk-free rate, at the
 * volatility the price implies. Null without the underlying's price, or when no volatility gives the price paid.
 */
function entryOf(row: LegRow, leg: OptionLeg, rate: number): { entry: Entry; raw: { delta: number; gamma: number; theta: number; vega: number } } | null {
  if (row.underlyingPrice === null) return null;
  const [y, m, d] = leg.expiry.split("-").map(Number) as [number, number, number];
  const expiresAt = zonedTimeToUtc({ year: y, month: m, day: d, hour: 16, minute: 0, second: 0, millisecond: 0 }, "America/New_York");
  const years = (expiresAt.getTime() - Date.parse(row.openFillAt)) / YEAR_MS;
  const inputs = { right: leg.right, spot: Number(row.underlyingPrice), strike: Number(leg.strike), years, rate };
  const iv = impliedVolatility(Number(row.openFillPrice), inputs);
  if (iv === null) return null;
  const g = blackScholesGreeks({ ...inputs, volatility: iv });
  return {
    entry: { underlyingPrice: formatDecimal(row.underlyingPrice), iv: iv.toFixed(4), delta: g.delta.toFixed(4), gamma: g.gamma.toFixed(4), theta: g.theta.toFixed(4), vega: g.vega.toFixed(4) },
    raw: g,
  };
}

export type Strategy = ReturnType<typeof toStrategy>;

/** A strategy as the API gives it; `greeks: false` leaves its legs' entry figures (and its Greeks) unknown: null. */
function toStrategy(r: StrategyRow, rate: number, { greeks = true } = {}) {
  // Legs as a trader reads a spread: shares first, then by expiry, strike and right (puts before calls).
  const legRows = parsed(r.legs)
    .map((row) => ({ row, leg: shapeLeg(row) }))
    .sort((a, b) => legOrder(a.leg) - legOrder(b.leg) || (a.leg && b.leg ? compareLegs(a.leg, b.leg) : 0))
    .map((x) => x.row);
  const shaped = legRows.map(shapeLeg);
  const legs = shaped.every((l): l is Leg => l !== null) ? shaped : null;
  // A leg whose option symbol does not parse leaves the strategy a single (one leg) or custom, and its payoff unknown.
  const kind: StrategyKind = legs ? classify(legs) : legRows.length === 1 ? "single" : "custom";
  const payoff = legs ? payoffAtExpiry(legs) : { maxProfit: null, maxLoss: null, breakevens: [] };
  const net = legRows.reduce((s, l) => s + toUnits(l.netPnl), 0n);
  const closed = legRows.every((l) => l.closedAt !== null);
  const risk = r.planned_risk ?? (payoff.maxLoss !== null && toUnits(payoff.maxLoss) > 0n ? payoff.maxLoss : null);
  const entries = legRows.map((row, i) => {
    const leg = shaped[i];
    return greeks && leg && leg.right !== null ? entryOf(row, leg, rate) : null;
  });
  // The strategy's Greeks: each leg's per unit x contracts x multiplier x its side (shares: a delta of 1 each);
  // null when a leg's are unknown.
  const known = greeks && shaped.every((leg, i) => leg !== null && (leg.right === null || entries[i] !== null));
  const total = { delta: 0, gamma: 0, theta: 0, vega: 0 };
  // The strategy's implied volatility: its option legs', each weighted by the size of its vega (the leg whose price
  // moves most with volatility says most).
  let ivWeighted = 0;
  let vegaSize = 0;
  if (known) {
    shaped.forEach((leg, i) => {
      const size = (leg!.side === "long" ? 1 : -1) * Number(leg!.quantity) * Number(leg!.multiplier);
      const g = entries[i]?.raw ?? { delta: 1, gamma: 0, theta: 0, vega: 0 };
      for (const k of ["delta", "gamma", "theta", "vega"] as const) total[k] += size * g[k];
      const e = entries[i];
      if (e) {
        const w = Math.abs(size * e.raw.vega);
        ivWeighted += w * Number(e.entry.iv);
        vegaSize += w;
      }
    });
  }
  // The premium it opened for: the short option legs' minus the long ones' (a credit positive, a debit negative).
  const premium = legs ? legs.reduce((sum, l) => (l.right === null ? sum : sum + (l.side === "short" ? 1n : -1n) * multiplyUnits(multiplyUnits(toUnits(l.quantity), toUnits(l.multiplier)), toUnits(l.price))), 0n) : null;
  return {
    id: r.id,
    accountId: r.account_id,
    currency: r.currency,
    underlying: r.underlying,
    kind,
    credit: legs && legs.some((l) => l.right !== null) ? isCredit(legs) : null,
    premium: premium === null ? null : fromUnits(premium),
    source: r.source,
    status: closed ? ("closed" as const) : ("open" as const),
    openedAt: r.opened_at ?? legRows[0]!.openedAt,
    closedAt: closed ? (r.closed_at ?? legRows.map((l) => l.closedAt!).sort().at(-1)!) : null,
    legs: legRows.map((l, i) => {
      const leg = shaped[i];
      return {
        tradeId: l.tradeId,
        symbol: l.symbol,
        assetClass: l.assetClass === "stock" ? ("stock" as const) : ("option" as const),
        right: leg && leg.right !== null ? leg.right : null,
        strike: leg && leg.right !== null ? formatDecimal(leg.strike) : null,
        expiry: leg && leg.right !== null ? leg.expiry : null,
        side: l.direction,
        quantity: formatDecimal(l.maxQuantity),
        multiplier: formatDecimal(l.multiplier),
        /** The average price of its opening fills: what the payoff at expiry reads. */
        price: l.entryPrice === null ? null : formatDecimal(l.entryPrice),
        netPnl: formatDecimal(l.netPnl),
        entry: entries[i]?.entry ?? null,
      };
    }),
    netPnl: fromUnits(net),
    maxProfit: payoff.maxProfit,
    maxLoss: payoff.maxLoss,
    breakevens: payoff.breakevens,
    rollOfId: r.roll_of_id,
    rolledIntoId: r.rolled_into_id,
    campaignNetPnl: r.campaign_net === null ? fromUnits(net) : formatDecimal(r.campaign_net),
    greeks: known
      ? { delta: total.delta.toFixed(2), gamma: total.gamma.toFixed(4), theta: total.theta.toFixed(2), vega: total.vega.toFixed(2), iv: vegaSize > 0 ? (ivWeighted / vegaSize).toFixed(4) : null }
      : null,
    notes: r.notes,
    tags: parsed(r.tags),
    setup: r.setup,
    rating: r.rating,
    plannedRisk: r.planned_risk === null ? null : formatDecimal(r.planned_risk),
    playbookId: r.playbook_id,
    rMultiple: risk === null ? null : roundTo2(net, toUnits(risk)),
  };
}

/** a / b to 2 decimals, half away from zero, as text. */
function roundTo2(a: bigint, b: bigint): string {
  const hundredths = (a * 1000n) / b;
  const rounded = (hundredths + (hundredths < 0n ? -5n : 5n)) / 10n;
  const abs = rounded < 0n ? -rounded : rounded;
  return `${rounded < 0n ? "-" : ""}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
}

/**
 * GET /api/strategies: newest opened first, a page at a time (`cursor`); filtered by account, underlying, status and
 * trade (the one it is a leg of) in SQL, and by kind, entry IV and entry delta once read (a kind and the Greeks are
 * computed from the legs). With those, every match is read light (no underlying prices, unless the Greeks filter)
 * and only the page is read whole.
 */
export async function listStrategies(deps: Pick<Deps, "db" | "config">, user: AuthUser, query: StrategyListQuery) {
  // The cursor first: a request refused for it writes nothing (not even a settle).
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  await settleStrategies(deps, user.id);
  const limit = query.limit ?? 50;
  const where = sql`true
    ${query.accountId ? sql`and s.account_id = ${query.accountId}::uuid` : sql``}
    ${query.underlying ? sql`and s.underlying = ${query.underlying.toUpperCase()}` : sql``}
    ${query.tradeId ? sql`and exists (select 1 from strategy_legs l join positions p on p.open_fill_id = l.fill_id where l.strategy_id = s.id and p.id = ${query.tradeId}::uuid)` : sql``}
    ${query.status === "open" ? sql`and s.closed_at is null` : query.status === "closed" ? sql`and s.closed_at is not null` : sql``}
    ${after ? sql`and (s.opened_at, s.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}`;
  const rate = Number(deps.config.RISK_FREE_RATE);
  const byGreeks = query.minIv !== undefined || query.maxIv !== undefined || query.minDelta !== undefined || query.maxDelta !== undefined;
  const read = async (w: ReturnType<typeof sql>, greeks: boolean, limit?: number) =>
    rowsOf<StrategyRow>(await deps.db.execute(strategyRows(user.id, w, { underlying: greeks, ...(limit === undefined ? {} : { limit }) }))).map((row) => toStrategy(row, rate, { greeks }));
  let all: Strategy[];
  if (!query.kind && !byGreeks) all = await read(where, true, limit + 1);
  else {
    const within = (v: string | null | undefined, min: number | undefined, max: number | undefined) =>
      (min === undefined && max === undefined) || (v != null && (min === undefined || Number(v) >= min) && (max === undefined || Number(v) <= max));
    const matching = (await read(where, byGreeks))
      .filter((s) => !query.kind || s.kind === query.kind)
      .filter((s) => within(s.greeks?.iv, query.minIv, query.maxIv) && within(s.greeks?.delta, query.minDelta, query.maxDelta))
      .slice(0, limit + 1);
    all = byGreeks || matching.length === 0 ? matching : await read(sql`s.id in (select jsonb_array_elements_text(${JSON.stringify(matching.map((m) => m.id))}::jsonb)::uuid)`, true);
  }
  const page = all.slice(0, limit);
  const last = page.at(-1);
  return { strategies: page, nextCursor: all.length > limit && last ? encodeCursor({ at: last.openedAt, id: last.id }) : null };
}

const notFound = () => new AppError("NOT_FOUND", "No such strategy.");

/** Throws 404 unless the strategy is the user's: asked first, so a refusal writes nothing (not even a settle). */
async function requireOwnStrategy(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<void> {
  const mine = rowsOf(await deps.db.execute(sql`select 1 from strategies s join accounts a on a.id = s.account_id where s.id = ${id}::uuid and a.user_id = ${user.id}::uuid`));
  if (!mine.length) throw notFound();
}

type FullDeps = Pick<Deps, "db" | "config" | "fetch" | "log" | "now">;

/**
 * A roll chain (DESIGN.md section 11, "Rolls"): each strategy from the first to the last roll with what it opened for
 * and made, the chain's net P&L and its days in trade (from the first opening to the last close, or to now while
 * open). Null for a strategy never rolled.
 */
async function campaignOf(deps: FullDeps, user: AuthUser, s: Strategy) {
  if (!s.rollOfId && !s.rolledIntoId) return null;
  const chain = rowsOf<{ id: string }>(
    await deps.db.execute(sql`with recursive up (id, depth) as (
        select ${s.id}::uuid, 0
        union all select r.roll_of_id, u.depth - 1 from up u join strategies r on r.id = u.id where r.roll_of_id is not null and u.depth > -500
      ), down (id, depth) as (
        select ${s.id}::uuid, 0
        union all select r.id, d.depth + 1 from down d join strategies r on r.roll_of_id = d.id where d.depth < 500
      )
      select id::text from (select * from up union select * from down) c order by depth`),
  ).map((r) => r.id);
  const rows = rowsOf<StrategyRow>(await deps.db.execute(strategyRows(user.id, sql`s.id in (select jsonb_array_elements_text(${JSON.stringify(chain)}::jsonb)::uuid)`, { underlying: false })));
  const byId = new Map(rows.map((row) => [row.id, toStrategy(row, 0, { greeks: false })]));
  const links = chain.flatMap((id) => {
    const x = byId.get(id);
    return x ? [{ id: x.id, kind: x.kind, credit: x.credit, premium: x.premium, openedAt: x.openedAt, closedAt: x.closedAt, netPnl: x.netPnl }] : [];
  });
  const first = Date.parse(links[0]!.openedAt);
  const last = links.every((l) => l.closedAt) ? Math.max(...links.map((l) => Date.parse(l.closedAt!))) : deps.now().getTime();
  return {
    strategies: links,
    netPnl: fromUnits(links.reduce((sum, l) => sum + toUnits(l.netPnl), 0n)),
    days: Math.max(1, Math.ceil((last - first) / 86_400_000)),
  };
}

/** The underlying's delayed quote for an open strategy, when the instance has a quote provider; null otherwise or on any failure. */
async function underlyingQuote(deps: FullDeps, s: Strategy) {
  if (s.status !== "open" || !deps.config.features.quotes) return null;
  try {
    const q = await getQuote(deps, s.underlying);
    return q.currency === s.currency ? { price: q.price, asOf: q.asOf, stale: q.stale } : null;
  } catch {
    return null;
  }
}

/** GET /api/strategies/:id: the strategy, its campaign (a roll chain) and, open, its underlying's quote. */
export async function getStrategy(deps: FullDeps, user: AuthUser, id: string) {
  await requireOwnStrategy(deps, user, id);
  await settleStrategies(deps, user.id);
  const [row] = rowsOf<StrategyRow>(await deps.db.execute(strategyRows(user.id, sql`s.id = ${id}::uuid`)));
  if (!row) throw notFound();
  const strategy = toStrategy(row, Number(deps.config.RISK_FREE_RATE));
  const [campaign, quote] = await Promise.all([campaignOf(deps, user, strategy), underlyingQuote(deps, strategy)]);
  return { strategy, campaign, underlyingQuote: quote };
}

/**
 * POST /api/strategies: the trades grouped by hand into one strategy (`manual`: no settle regroups it). Trades of
 * two accounts or two underlyings, or a future, are 400 naming tradeIds; one that is not the user's is 404.
 */
export async function groupStrategy(deps: FullDeps, user: AuthUser, input: NewStrategy) {
  const ids = [...new Set(input.tradeIds)];
  const trades = rowsOf<{ id: string; account_id: string; symbol: string; asset_class: "stock" | "option" | "future" }>(
    await deps.db.execute(sql`select p.id::text, p.account_id::text, p.symbol, p.asset_class from positions p join accounts a on a.id = p.account_id
      where a.user_id = ${user.id}::uuid and p.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`),
  );
  if (trades.length !== ids.length) throw new AppError("NOT_FOUND", "No such trade.");
  const invalid = (message: string) => new AppError("VALIDATION_ERROR", message, { fields: [{ path: "tradeIds", message }] });
  if (trades.some((t) => t.asset_class === "future")) throw invalid("must be option trades (and a covered call's shares), not futures");
  if (new Set(trades.map((t) => t.account_id)).size > 1) throw invalid("must be trades of one account");
  const underlyings = new Set(trades.map((t) => (t.asset_class === "option" ? t.symbol.slice(0, 6).trimEnd() : t.symbol)));
  if (underlyings.size > 1) throw invalid("must be trades of one underlying");
  if (!trades.some((t) => t.asset_class === "option")) throw invalid("must include an option trade");
  // Up to date first, so each trade leaves the strategy it is really in.
  await settleStrategies(deps, user.id);
  const [made] = rowsOf<{ id: string }>(
    await deps.db.execute(sql`select id::text from strategy_group(${user.id}::uuid, ${`{${ids.join(",")}}`}::uuid[], ${[...underlyings][0]!}) as id`),
  );
  if (!made) throw new AppError("NOT_FOUND", "No such trade.");
  return getStrategy(deps, user, made.id);
}

/** DELETE /api/strategies/:id: one strategy per trade again (each `manual`, so no settle regroups them). */
export async function ungroupStrategy(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<void> {
  const [row] = rowsOf<{ n: number }>(await deps.db.execute(sql`select n from strategy_ungroup(${user.id}::uuid, ${id}::uuid) as n`));
  if (!row) throw notFound();
}

/** PATCH /api/strategies/:id: what is written on the strategy as a whole; the fields named are set (null clears). */
export async function journalStrategy(deps: FullDeps, user: AuthUser, id: string, patch: StrategyJournal) {
  const tags = patch.tags === undefined ? undefined : await canonicalTags(deps, user.id, patch.tags);
  if (patch.playbookId) {
    const mine = rowsOf(await deps.db.execute(sql`select 1 from playbooks where id = ${patch.playbookId}::uuid and user_id = ${user.id}::uuid`));
    if (!mine.length) throw new AppError("VALIDATION_ERROR", "No such playbook.", { fields: [{ path: "playbookId", message: "is not one of your playbooks" }] });
  }
  const set = (name: string, value: unknown, cast = "") => (value === undefined ? sql`` : sql`, ${sql.raw(name)} = ${value}${sql.raw(cast)}`);
  const updated = rowsOf(
    await deps.db.execute(sql`update strategies s set updated_at = now()
        ${set("notes", patch.notes)} ${tags === undefined ? sql`` : sql`, tags = array(select jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb))`}
        ${set("setup", patch.setup)} ${set("rating", patch.rating)} ${set("planned_risk", patch.plannedRisk, "::numeric")} ${set("playbook_id", patch.playbookId, "::uuid")}
      from accounts a where a.id = s.account_id and a.user_id = ${user.id}::uuid and s.id = ${id}::uuid returning s.id`),
  );
  if (!updated.length) throw notFound();
  return getStrategy(deps, user, id);
}

/**
 * The statistics' breakdown by strategy (GET /api/stats/breakdown?by=strategy): the option strategies closed in
 * [from, to) of one account (or every account of one currency), grouped by kind with credit and debit apart, each
 * counted once by its net P&L (its legs', fees included). R over those with a 1R, summed unrounded.
 */
export async function strategyKindGroups(
  deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">,
  userId: string,
  scope: { accountId?: string | undefined; currency: string | null; from?: string | undefined; to?: string | undefined; inBase?: boolean },
) {
  await settleStrategies(deps, userId);
  const where = sql`s.closed_at is not null
    ${scope.accountId ? sql`and s.account_id = ${scope.accountId}::uuid` : scope.currency && !scope.inBase ? sql`and a.currency = ${scope.currency}` : sql``}
    ${scope.from ? sql`and s.closed_at >= ${new Date(scope.from).toISOString()}::timestamptz` : sql``}
    ${scope.to ? sql`and s.closed_at < ${new Date(scope.to).toISOString()}::timestamptz` : sql``}`;
  const rows = rowsOf<StrategyRow>(await deps.db.execute(strategyRows(userId, where, { underlying: false })));
  // In the base (scope.currency, docs/currencies.md): each strategy's net P&L at its close date's rate in its
  // account's zone; one without a rate is left out and named; R from its own amounts.
  const factors = scope.inBase ? await closeFactors(deps, userId, scope.currency!, where) : null;
  const groups = new Map<string, { net: bigint; trades: number; wins: number; r: bigint; withRisk: number }>();
  const R_SCALE = 10n ** 10n;
  for (const row of rows) {
    const k = factors?.k.get(row.id);
    if (factors && k === undefined) continue;
    const s = toStrategy(row, 0, { greeks: false });
    const key = kindLabel(s.kind, s.credit);
    const g = groups.get(key) ?? { net: 0n, trades: 0, wins: 0, r: 0n, withRisk: 0 };
    const own = toUnits(s.netPnl);
    const net = k === undefined ? own : toUnits(roundDecimal10(multiplyDecimals(s.netPnl, k)));
    g.net += net;
    g.trades += 1;
    if (net > 0n) g.wins += 1;
    const risk = s.plannedRisk ?? (s.maxLoss !== null && toUnits(s.maxLoss) > 0n ? s.maxLoss : null);
    if (risk !== null) {
      g.r += (own * R_SCALE) / toUnits(risk);
      g.withRisk += 1;
    }
    groups.set(key, g);
  }
  const out = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, g]) => ({
      key,
      netPnl: fromUnits(g.net),
      trades: g.trades,
      wins: g.wins,
      winRate: g.trades > 0 ? (g.wins / g.trades).toFixed(4) : null,
      rTotal: g.withRisk === 0 ? null : roundTo2(g.r, R_SCALE),
      withRisk: g.withRisk,
    }));
  return { groups: out, missingRates: factors?.missing };
}

/** The closed strategies of `where` (over strategies s, accounts a): each one's factor to `base` at its close date, and the rates missing. */
async function closeFactors(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, userId: string, base: string, where: SQL) {
  const strategies = sql`strategies s join accounts a on a.id = s.account_id`;
  const theirs = sql`a.user_id = ${userId}::uuid and ${where}`;
  const pair = sql`a.currency, a.id as account_id, (s.closed_at at time zone a.timezone)::date as day`;
  const rates = await closeRates(deps, userId, base, sql`select distinct ${pair} from ${strategies} where ${theirs} and a.currency <> ${base}`);
  const rows = rowsOf<{ id: string; k: string }>(
    await deps.db.execute(sql`select s.id::text as id, fx.k::text as k from ${strategies}
      cross join lateral (${ratesSql(userId, base, sql`select ${pair}`, rates.own)}) fx
      where ${theirs} and fx.k is not null`),
  );
  return { k: new Map(rows.map((r) => [r.id, r.k])), missing: rates.missing };
}

/** Each trade of an account that is a strategy's leg: its strategy's id and kind (kindLabel), for the trades export. */
export async function strategiesOfTrades(deps: Pick<Deps, "db">, userId: string, accountId: string): Promise<Map<string, { id: string; kind: string }>> {
  await settleStrategies(deps, userId);
  const rows = rowsOf<StrategyRow>(await deps.db.execute(strategyRows(userId, sql`s.account_id = ${accountId}::uuid`, { underlying: false })));
  const out = new Map<string, { id: string; kind: string }>();
  for (const row of rows) {
    const s = toStrategy(row, 0, { greeks: false });
    for (const leg of s.legs) out.set(leg.tradeId, { id: s.id, kind: kindLabel(s.kind, s.credit) });
  }
  return out;
}
