// Option strategies (DESIGN.md section 11, "Option strategies"; docs/options.md): the option trades of one account
// and underlying taken as one trade. The grouping is kept in Postgres (strategies, strategy_legs) and brought up to
// date by strategies_settle before every read: opening fills within 60 seconds of the first make one strategy, a
// strategy opened within a minute of another's close is its roll, and what the trader grouped by hand stays so.
// What a strategy is (its kind, credit, max profit and loss, breakevens, R) is computed here from its legs as read
// (lib/options/strategy-shape.ts): derived, never stored, so it cannot go stale.
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { decodeCursor, encodeCursor } from "../db/cursor.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal, fromUnits, toUnits } from "../money.ts";
import { canonicalTags } from "../tags/tags.ts";
import { resolveInstrument } from "../trades/instruments.ts";
import type { NewStrategy, StrategyJournal, StrategyListQuery } from "./schema.ts";
import { zonedTimeToUtc } from "../time/zoned.ts";
import { settleStrategies } from "./settle.ts";
import { greeks as blackScholesGreeks, impliedVolatility } from "./black-scholes.ts";
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
  opened_at: string | null;
  closed_at: string | null;
  campaign_net: string | null;
  legs: LegRow[] | string;
};

const parsed = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);


/**
 * The strategies matching `where` (over `s` and its account `a`), each with its live legs and the net P&L of its roll
 * chain up to and including it. Strategies whose legs are all gone (detached) are left out.
 */
function strategyRows(userId: string, where: ReturnType<typeof sql>, tail: ReturnType<typeof sql> = sql``) {
  return sql`with recursive picked as (
      select s.* from strategies s join accounts a on a.id = s.account_id where a.user_id = ${userId}::uuid and ${where}
    ), legs as (
      select l.strategy_id, json_agg(json_build_object('tradeId', p.id, 'symbol', p.symbol, 'assetClass', p.asset_class,
          'multiplier', p.multiplier::text, 'direction', p.direction, 'maxQuantity', p.max_quantity::text,
          'entryPrice', (p.entry_value / nullif(p.entry_quantity, 0))::text, 'netPnl', p.net_pnl::text,
          'openedAt', ${sql.raw(isoUtc("p.opened_at"))}, 'closedAt', ${sql.raw(isoUtc("p.closed_at"))},
          'openFillAt', ${sql.raw(isoUtc("f.executed_at"))}, 'openFillPrice', f.price::text,
          'underlyingPrice', case when p.asset_class = 'option' then coalesce(
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
      s.notes, array_to_json(s.tags)::text as tags, s.setup, s.rating::int as rating, s.planned_risk::text as planned_risk,
      ${sql.raw(isoUtc("s.opened_at"))} as opened_at, ${sql.raw(isoUtc("s.closed_at"))} as closed_at,
      cp.net::text as campaign_net, lg.legs::text as legs
    from picked s join accounts a on a.id = s.account_id join legs lg on lg.strategy_id = s.id
    left join campaign cp on cp.start_id = s.id
    ${tail}`;
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

function toStrategy(r: StrategyRow, rate: number) {
  const legRows = parsed(r.legs);
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
    return leg && leg.right !== null ? entryOf(row, leg, rate) : null;
  });
  // The strategy's Greeks: each leg's per unit x contracts x multiplier x its side (shares: a delta of 1 each);
  // null when a leg's are unknown.
  const known = shaped.every((leg, i) => leg !== null && (leg.right === null || entries[i] !== null));
  const total = { delta: 0, gamma: 0, theta: 0, vega: 0 };
  if (known) {
    shaped.forEach((leg, i) => {
      const size = (leg!.side === "long" ? 1 : -1) * Number(leg!.quantity) * Number(leg!.multiplier);
      const g = entries[i]?.raw ?? { delta: 1, gamma: 0, theta: 0, vega: 0 };
      for (const k of ["delta", "gamma", "theta", "vega"] as const) total[k] += size * g[k];
    });
  }
  return {
    id: r.id,
    accountId: r.account_id,
    currency: r.currency,
    underlying: r.underlying,
    kind,
    credit: legs && legs.some((l) => l.right !== null) ? isCredit(legs) : null,
    source: r.source,
    status: closed ? ("closed" as const) : ("open" as const),
    openedAt: r.opened_at ?? legRows[0]!.openedAt,
    closedAt: closed ? (r.closed_at ?? legRows.map((l) => l.closedAt!).sort().at(-1)!) : null,
    legs: legRows.map((l, i) => {
      const leg = shaped[i];
      return {
        tradeId: l.tradeId,
        symbol: l.symbol,
        right: leg && leg.right !== null ? leg.right : null,
        strike: leg && leg.right !== null ? formatDecimal(leg.strike) : null,
        expiry: leg && leg.right !== null ? leg.expiry : null,
        side: l.direction,
        quantity: formatDecimal(l.maxQuantity),
        multiplier: formatDecimal(l.multiplier),
        /** The average price of its opening fills: what the payoff at expiry reads. */
        price: l.entryPrice === null ? null : formatDecimal(l.entryPrice),
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
    greeks: known ? { delta: total.delta.toFixed(2), gamma: total.gamma.toFixed(4), theta: total.theta.toFixed(2), vega: total.vega.toFixed(2) } : null,
    notes: r.notes,
    tags: parsed(r.tags),
    setup: r.setup,
    rating: r.rating,
    plannedRisk: r.planned_risk === null ? null : formatDecimal(r.planned_risk),
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

/** GET /api/strategies: newest opened first, a page at a time (`cursor`); filtered by account, underlying, status and kind. */
export async function listStrategies(deps: Pick<Deps, "db" | "config">, user: AuthUser, query: StrategyListQuery) {
  await settleStrategies(deps, user.id);
  const limit = query.limit ?? 50;
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const where = sql`true
    ${query.accountId ? sql`and s.account_id = ${query.accountId}::uuid` : sql``}
    ${query.underlying ? sql`and s.underlying = ${query.underlying.toUpperCase()}` : sql``}
    ${query.status === "open" ? sql`and s.closed_at is null` : query.status === "closed" ? sql`and s.closed_at is not null` : sql``}
    ${after ? sql`and (s.opened_at, s.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}`;
  // Without a kind the page is cut in SQL; a kind is known only once the legs are read, so then every match is read.
  const order = sql`order by s.opened_at desc, s.id desc`;
  const rows = rowsOf<StrategyRow>(await deps.db.execute(strategyRows(user.id, where, query.kind ? order : sql`${order} limit ${limit + 1}`)));
  const rate = Number(deps.config.RISK_FREE_RATE);
  const all = rows.map((row) => toStrategy(row, rate)).filter((s) => !query.kind || s.kind === query.kind);
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

/** GET /api/strategies/:id. */
export async function getStrategy(deps: Pick<Deps, "db" | "config">, user: AuthUser, id: string) {
  await requireOwnStrategy(deps, user, id);
  await settleStrategies(deps, user.id);
  const [row] = rowsOf<StrategyRow>(await deps.db.execute(strategyRows(user.id, sql`s.id = ${id}::uuid`)));
  if (!row) throw notFound();
  return { strategy: toStrategy(row, Number(deps.config.RISK_FREE_RATE)) };
}

/**
 * POST /api/strategies: the trades grouped by hand into one strategy (`manual`: no settle regroups it). Trades of
 * two accounts or two underlyings, or a future, are 400 naming tradeIds; one that is not the user's is 404.
 */
export async function groupStrategy(deps: Pick<Deps, "db" | "config">, user: AuthUser, input: NewStrategy) {
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
export async function journalStrategy(deps: Pick<Deps, "db" | "config">, user: AuthUser, id: string, patch: StrategyJournal) {
  const tags = patch.tags === undefined ? undefined : await canonicalTags(deps, user.id, patch.tags);
  const set = (name: string, value: unknown, cast = "") => (value === undefined ? sql`` : sql`, ${sql.raw(name)} = ${value}${sql.raw(cast)}`);
  const updated = rowsOf(
    await deps.db.execute(sql`update strategies s set updated_at = now()
        ${set("notes", patch.notes)} ${tags === undefined ? sql`` : sql`, tags = array(select jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb))`}
        ${set("setup", patch.setup)} ${set("rating", patch.rating)} ${set("planned_risk", patch.plannedRisk, "::numeric")}
      from accounts a where a.id = s.account_id and a.user_id = ${user.id}::uuid and s.id = ${id}::uuid returning s.id`),
  );
  if (!updated.length) throw notFound();
  return getStrategy(deps, user, id);
}
