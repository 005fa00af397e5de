// The tax routes (DESIGN.md section 11, "Tax"; docs/tax.md): the user's fills read once (every account but the
// exempt ones, in one currency), the lots and wash sales computed (engine.ts), and the year's answer as lots,
// Form 8949 rows (CSV and TXF), Schedule D totals, Form 6781 totals and the wash watch.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { arrayLiteral, rowsOf, type JsonText } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { baseCurrencyOf, closeRates, noBaseError, type MissingRate } from "../fx/base.ts";
import { ratesSql } from "../fx/convert.ts";
import { fromUnits, multiplyDecimals, toUnits } from "../money.ts";
import { FUTURES } from "../instruments/futures.ts";
import { resolveInstrument } from "../instruments/instruments.ts";
import { byTime, computeLots, possibleKey, type DeferredLoss, type Disposition, type PossibleWashSale, type TaxFill, type TaxResult, type UnmatchedSale, type YearEndMark } from "./engine.ts";

/** Broad-based index options, Section 1256 contracts (IRC 1256(g)(6); docs/tax.md): their roots. */
export const INDEX_OPTION_ROOTS = new Set(["SPX", "SPXW", "NDX", "NDXP", "RUT", "RUTW", "VIX", "VIXW", "XSP", "DJX", "OEX", "XEO", "MXEA", "MXEF"]);

const yearSchema = () =>
  z.pipe(z.string("must be a year such as 2026").check(z.regex(/^\d{4}$/, "must be a year such as 2026")), z.pipe(z.transform(Number), z.number().check(z.gte(1990, "must be 1990 or later"), z.lte(2100, "must be 2100 or earlier"))));

/** A currency: a 3-letter code (the accounts in it), or `base` (every account, converted to the user's base). */
const countedSchema = () => z.optional(z.string().check(z.regex(/^([A-Za-z]{3}|base)$/, "must be a 3-letter currency code, or base")));

export const TaxQuerySchema = z.object({
  year: yearSchema(),
  accountId: z.optional(z.uuid("must be a uuid")),
  /** The currency of the accounts counted, when they use several; `base`: all of them in the user's base currency. */
  currency: countedSchema(),
  method: z._default(z.literal("fifo", { error: "must be fifo (the only method so far)" }), "fifo"),
});
export type TaxQuery = z.infer<typeof TaxQuerySchema>;

const daySchema = () => z.string("must be a date YYYY-MM-DD").check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD"));

/** PUT /api/tax/possible-wash-sales: the trader's decision on one possible wash sale through an option. */
export const WashDecisionSchema = z.strictObject({
  symbol: z.string("must be the stock's symbol").check(z.minLength(1, "is required"), z.maxLength(64, "must be at most 64 characters")),
  lossSoldAt: daySchema(),
  replacementSymbol: z.string("must be the option's symbol").check(z.minLength(1, "is required"), z.maxLength(64, "must be at most 64 characters")),
  replacementAt: daySchema(),
  /** wash: the loss goes into the option lot; not_wash: it stands; null: undecided again. */
  decision: z.nullable(z.enum(["wash", "not_wash"], { error: "must be wash, not_wash or null" })),
  currency: countedSchema(),
});
export type WashDecision = z.infer<typeof WashDecisionSchema>;

/** What a computation may need: the rates service and its clock, for one in the base currency. */
type FxDeps = Pick<Deps, "db" | "config" | "fetch" | "now" | "log">;

async function decisionsOf(deps: Pick<Deps, "db">, userId: string) {
  const rows = rowsOf<{ symbol: string; loss_sold_at: string; replacement_symbol: string; replacement_at: string; decision: "wash" | "not_wash" }>(
    await deps.db.execute(sql`select symbol, to_char(loss_sold_at, 'YYYY-MM-DD') as loss_sold_at, replacement_symbol, to_char(replacement_at, 'YYYY-MM-DD') as replacement_at, decision
      from tax_wash_decisions where user_id = ${userId}::uuid`),
  );
  return new Map(rows.map((r) => [possibleKey({ symbol: r.symbol, lossSoldAt: r.loss_sold_at, replacementSymbol: r.replacement_symbol, replacementAt: r.replacement_at }), r.decision]));
}

/**
 * PUT /api/tax/possible-wash-sales: decides one of the year's possible wash sales (as GET /api/tax/lots lists
 * it); one the lots do not list is 404. The lots, the forms and the wash watch apply it from then on.
 */
export async function decideWashSale(deps: FxDeps, user: AuthUser, body: WashDecision) {
  const listed = (await yearOf(deps, user, { year: Number(body.lossSoldAt.slice(0, 4)), currency: body.currency, method: "fifo" })).possible;
  const key = possibleKey(body);
  if (!listed.some((p) => possibleKey(p) === key)) throw new AppError("NOT_FOUND", "No such possible wash sale in your lots.");
  if (body.decision === null) {
    await deps.db.execute(sql`delete from tax_wash_decisions where user_id = ${user.id}::uuid and symbol = ${body.symbol} and loss_sold_at = ${body.lossSoldAt}::date
      and replacement_symbol = ${body.replacementSymbol} and replacement_at = ${body.replacementAt}::date`);
  } else {
    await deps.db.execute(sql`insert into tax_wash_decisions (user_id, symbol, loss_sold_at, replacement_symbol, replacement_at, decision)
      values (${user.id}::uuid, ${body.symbol}, ${body.lossSoldAt}::date, ${body.replacementSymbol}, ${body.replacementAt}::date, ${body.decision})
      on conflict (user_id, symbol, loss_sold_at, replacement_symbol, replacement_at) do update set decision = excluded.decision, decided_at = now()`);
  }
  const { symbol, lossSoldAt, replacementSymbol, replacementAt, decision } = body;
  return { decision: { symbol, lossSoldAt, replacementSymbol, replacementAt, decision } };
}

export const WashWatchQuerySchema = z.object({ currency: countedSchema() });

/** The first instant of `year + 1` in New York: US trade dates end there. */
const yearEnd = (year: number) => Date.parse(`${year + 1}-01-01T05:00:00Z`);

type FillRow = {
  id: string;
  symbol: string;
  asset_class: "stock" | "option" | "future";
  /** Null for 1 (most fills): one decimal fewer to read. */
  multiplier: string | null;
  side: "buy" | "sell";
  /** Units (10^-10) as integer text: Postgres moves the point, so each is one BigInt parse. Null: no rate to the base. */
  quantity: string;
  price: string | null;
  fees: string | null;
  at: number | string;
  day: string;
  generated: string | null;
};

type Scope = { id: string; status: TaxFill["status"]; timezone: string; currency: string };

/**
 * What is counted: the accounts of one currency (the account's, the one asked for, or the one all the counted
 * accounts share), or with `currency=base` every counted account, each fill converted to the user's base at its
 * trade date's rate (docs/tax.md, "In the base currency").
 */
type Counted = { currency: string; base: boolean };

async function countedOf(deps: FxDeps, user: AuthUser, q: { accountId?: string | undefined; currency?: string | undefined }): Promise<Counted | null> {
  if (q.currency === "base") {
    const base = await baseCurrencyOf(deps, user.id);
    if (!base) throw noBaseError();
    if (q.accountId) await requireOwnAccount(deps, user, q.accountId);
    return { currency: base, base: true };
  }
  if (q.accountId) return { currency: (await requireOwnAccount(deps, user, q.accountId)).currency, base: false };
  if (q.currency) return { currency: q.currency.toUpperCase(), base: false };
  const list = rowsOf<{ currency: string }>(await deps.db.execute(sql`select distinct currency from accounts where user_id = ${user.id}::uuid and tax_status <> 'exempt' order by 1`)).map((r) => r.currency);
  if (list.length > 1) {
    throw new AppError("VALIDATION_ERROR", `Your accounts are in ${list.join(", ")}: lots match within one currency. Choose one (currency=${list[0]}), or your base currency (currency=base).`, {
      fields: [{ path: "currency", message: `is required: your accounts are in ${list.join(", ")}` }],
    });
  }
  return list[0] ? { currency: list[0], base: false } : null;
}

type Instrument = { symbol: string; assetClass: FillRow["asset_class"]; underlying: string; option?: TaxFill["option"]; section1256: boolean };
const instruments = new Map<string, Instrument>();
/**
 * A symbol's underlying, an option's right and strike, and whether it is a Section 1256 contract; `symbol` is one
 * string for all of a symbol's fills (a year holds 200,000 copies otherwise). Bounded: cleared past 10,000.
 */
function describe(symbol: string, assetClass: FillRow["asset_class"]): Instrument {
  let known = instruments.get(symbol);
  if (known?.assetClass !== assetClass) {
    if (assetClass === "future") known = { symbol, assetClass, underlying: symbol, section1256: true };
    else if (assetClass === "option") {
      try {
        const o = resolveInstrument({ symbol, assetClass }).option!;
        known = { symbol, assetClass, underlying: o.root, option: { right: o.right, strike: toUnits(o.strike) }, section1256: INDEX_OPTION_ROOTS.has(o.root) || FUTURES.has(o.root) };
      } catch {
        known = { symbol, assetClass, underlying: symbol, section1256: false };
      }
    } else known = { symbol, assetClass, underlying: symbol, section1256: false };
    if (instruments.size > 10_000) instruments.clear();
    instruments.set(symbol, known);
  }
  return known;
}

/**
 * Fills are read a batch of whole underlyings at a time (a stock with its options; about this many fills), each
 * batch computed alone: lots, wash sales and assignments never cross underlyings, so memory holds one batch's
 * rows, and the next batch is read while this one is computed (docs/tax.md, "Performance"). Larger batches are
 * faster (fewer reads), smaller ones hold less: the 8949 CSV, which streams, reads smaller ones.
 */
export const BATCH_FILLS = { fast: 12_000, small: 4_000 };

const ONE = toUnits("1");

/**
 * A batch's fills, read without an order (the engine sorts them): one account's clock each, Postgres's zones. In
 * the base (`rates`: the user's and whether they have rates of their own), price and fees are converted at the
 * rate of the fill's trade date (null without one: the fill is unpriced).
 */
async function readFills(deps: Pick<Deps, "db">, accounts: Scope[], symbols: string[], until: string, rates: Rates | null): Promise<TaxFill[]> {
  const parts = await Promise.all(
    accounts.map(async (a) => {
      const [price, fees, join] = rates
        ? [
            sql`(round(f.price * r.k, 10) * 1e10)::numeric(38)::text`,
            sql`(round(f.fees * r.k, 10) * 1e10)::numeric(38)::text`,
            sql`left join (${ratesSql(rates.userId, rates.base, sql`select distinct ${a.currency}::text as currency, ${a.id}::uuid as account_id, (f.executed_at at time zone ${a.timezone})::date as day
                from fills f where f.account_id = ${a.id}::uuid and f.symbol = any(${arrayLiteral(symbols)}::text[]) and f.executed_at < ${until}::timestamptz`, rates.own)}) r
                on r.day = (f.executed_at at time zone ${a.timezone})::date`,
          ]
        : [sql`(f.price * 1e10)::numeric(38)::text`, sql`(f.fees * 1e10)::numeric(38)::text`, sql``];
      const rows = rowsOf<FillRow>(
        await deps.db.execute(sql`select f.id::text as id, f.symbol, f.asset_class, nullif(f.multiplier, 1)::text as multiplier, f.side,
            (f.quantity * 1e10)::numeric(38)::text as quantity, ${price} as price, ${fees} as fees, (extract(epoch from f.executed_at) * 1000)::float8 as at,
            (f.executed_at at time zone ${a.timezone})::date::text as day, f.generated
          from fills f ${join} where f.account_id = ${a.id}::uuid and f.symbol = any(${arrayLiteral(symbols)}::text[]) and f.executed_at < ${until}::timestamptz`),
      );
      return toTaxFills(a, rows);
    }),
  );
  return parts.flat();
}

function toTaxFills(a: Scope, rows: FillRow[]): TaxFill[] {
  return rows.map((r) => {
    const d = describe(r.symbol, r.asset_class);
    return {
      id: r.id,
      accountId: a.id,
      status: a.status,
      symbol: d.symbol,
      underlying: d.underlying,
      assetClass: r.asset_class,
      option: d.option,
      section1256: d.section1256,
      side: r.side,
      quantity: BigInt(r.quantity),
      price: r.price === null ? 0n : BigInt(r.price),
      fees: r.fees === null ? 0n : BigInt(r.fees),
      multiplier: r.multiplier === null ? ONE : toUnits(r.multiplier),
      at: Number(r.at),
      day: r.day,
      expiry: r.generated === "expiry",
      unpriced: r.price === null,
    };
  });
}

/** The symbols' fill counts packed into batches of whole underlyings (in their alphabetical order), about `size` fills each. */
function batchesOf(counts: Array<{ symbol: string; asset_class: FillRow["asset_class"]; n: number }>, size: number): string[][] {
  const byUnderlying = new Map<string, { symbols: Set<string>; n: number }>();
  for (const c of counts) {
    const u = describe(c.symbol, c.asset_class).underlying;
    const g = byUnderlying.get(u) ?? { symbols: new Set<string>(), n: 0 };
    g.symbols.add(c.symbol);
    g.n += c.n;
    byUnderlying.set(u, g);
  }
  const batches: string[][] = [];
  let batch: string[] = [];
  let filled = 0;
  for (const [, g] of [...byUnderlying].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (filled > 0 && filled + g.n > size) {
      batches.push(batch);
      batch = [];
      filled = 0;
    }
    batch.push(...g.symbols);
    filled += g.n;
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/** The user's rates to their base, for a computation in it: asked first, what is missing listed. */
type Rates = { userId: string; base: string; own: boolean; missing: MissingRate[]; yearEnds: Map<string, string | null> };

/**
 * The rates a computation in the base needs (every fill's trade date in its account's zone, and each year's
 * Dec 31 for the accounts holding Section 1256 contracts, their marks), asked of the rate service first where
 * never asked (lib/fx/base.ts, closeRates): the year ends' factors, and what is missing.
 */
async function ratesFor(deps: FxDeps, user: AuthUser, base: string, accounts: Scope[], until: string, year: number): Promise<Rates> {
  const ids = arrayLiteral(accounts.map((a) => a.id));
  const yearEnds = sql`select a.currency, a.id as account_id, make_date(y, 12, 31) as day
    from (select f.account_id, min(extract(year from f.executed_at))::int as first from fills f
          where f.account_id = any(${ids}::uuid[]) and f.asset_class <> 'stock' and f.executed_at < ${until}::timestamptz group by 1) h
    join accounts a on a.id = h.account_id cross join generate_series(h.first, ${year}) y`;
  const { own, missing } = await closeRates(
    deps,
    user.id,
    base,
    sql`select distinct a.currency, a.id as account_id, (f.executed_at at time zone a.timezone)::date as day
      from fills f join accounts a on a.id = f.account_id where a.id = any(${ids}::uuid[]) and f.executed_at < ${until}::timestamptz
      union ${yearEnds}`,
  );
  const ends = rowsOf<{ account_id: string; year: number; k: string | null }>(
    await deps.db.execute(sql`select r.account_id::text as account_id, extract(year from r.day)::int as year, r.k::text as k from (${ratesSql(user.id, base, yearEnds, own)}) r`),
  );
  return { userId: user.id, base, own, missing, yearEnds: new Map(ends.map((e) => [`${e.account_id}:${e.year}`, e.k])) };
}

/**
 * The user's lots and wash sales through `year` (the fills to 31 days after it, for its December losses'
 * replacements), one answer per batch of underlyings, the next batch read while this one is computed. In the
 * base, `onRates` hears the rates before the first batch.
 */
async function* batchResults(deps: FxDeps, user: AuthUser, year: number, counted: Counted, decisions: Decisions, size: number, onRates: (r: Rates) => void): AsyncGenerator<TaxResult> {
  const until = new Date(yearEnd(year) + 31 * 86_400_000).toISOString();
  const scope = counted.base ? sql`` : sql`and a.currency = ${counted.currency}`;
  const [accountRows, countRows, splitRows, barRows] = await Promise.all([
    deps.db.execute(sql`select id::text as id, tax_status as status, timezone, currency from accounts a where user_id = ${user.id}::uuid and tax_status <> 'exempt' ${scope} order by created_at, id`),
    deps.db.execute(sql`select f.symbol, f.asset_class, count(*)::int as n from fills f join accounts a on a.id = f.account_id
      where a.user_id = ${user.id}::uuid and a.tax_status <> 'exempt' ${scope} and f.executed_at < ${until}::timestamptz
      group by 1, 2 order by 1, 2`),
    deps.db.execute(sql`select symbol, (extract(epoch from effective_at) * 1000)::float8 as at, new_shares::text as new_shares, old_shares::text as old_shares
      from splits where user_id = ${user.id}::uuid`),
    // Each Section 1256 symbol's last daily close of each year (docs/charts.md's bars): the year-end mark.
    deps.db.execute(sql`select distinct on (b.symbol, extract(year from b.t)) b.symbol, extract(year from b.t)::int as year, b.close::text as close
      from bars b where b.user_id = ${user.id}::uuid and b.resolution = '1d'
        and b.symbol in (select distinct f.symbol from fills f join accounts a on a.id = f.account_id where a.user_id = ${user.id}::uuid and f.asset_class <> 'stock')
      order by b.symbol, extract(year from b.t), b.t desc`),
  ]);
  const accounts = rowsOf<Scope>(accountRows);
  const rates = counted.base ? await ratesFor(deps, user, counted.currency, accounts, until, year) : null;
  if (rates) onRates(rates);
  const splits = rowsOf<{ symbol: string; at: number | string; new_shares: string; old_shares: string }>(splitRows).map((s) => ({ symbol: s.symbol, at: Number(s.at), newShares: toUnits(s.new_shares), oldShares: toUnits(s.old_shares) }));
  const barMarks = rowsOf<{ symbol: string; year: number; close: string }>(barRows).map((b) => ({ symbol: b.symbol, year: Number(b.year), close: b.close }));
  const washDecisions = new Set([...decisions].filter(([, d]) => d === "wash").map(([k]) => k));
  const batches = batchesOf(rowsOf<{ symbol: string; asset_class: FillRow["asset_class"]; n: number }>(countRows), size);
  let next = batches.length ? readFills(deps, accounts, batches[0]!, until, rates) : null;
  for (let i = 0; i < batches.length; i++) {
    const fills = await next!;
    next = i + 1 < batches.length ? readFills(deps, accounts, batches[i + 1]!, until, rates) : null;
    // A batch given up half way (the CSV's reader gone) leaves no read unanswered.
    next?.catch(() => {});
    const symbols = new Set(batches[i]);
    yield computeLots({ fills, splits: splits.filter((sp) => symbols.has(sp.symbol)), marks: marksOf(fills, barMarks, rates), through: year, yearEnd, washDecisions });
  }
}

/**
 * Marks: the bars' last close of the year, else the symbol's last fill price that year. In the base, a bar's close
 * is converted at Dec 31's rate of each account holding the symbol (so each such account has its own mark), and
 * a last fill's price is the fill's own, converted at its trade date's rate.
 */
function marksOf(fills: TaxFill[], barMarks: Array<{ symbol: string; year: number; close: string }>, rates: Rates | null): YearEndMark[] {
  const marks = new Map<string, YearEndMark>();
  const holders = new Map<string, Set<string>>();
  for (const f of fills) if (f.section1256) holders.set(f.symbol, (holders.get(f.symbol) ?? new Set()).add(f.accountId));
  for (const b of barMarks) {
    if (!rates) marks.set(`${b.symbol}:${b.year}`, { symbol: b.symbol, year: b.year, price: toUnits(b.close), source: "bars" });
    else {
      for (const accountId of holders.get(b.symbol) ?? []) {
        const k = rates.yearEnds.get(`${accountId}:${b.year}`) ?? null;
        const price = k === null ? 0n : toUnits(multiplyDecimals(b.close, k, 10));
        marks.set(`${b.symbol}:${b.year}:${accountId}`, { symbol: b.symbol, year: b.year, price, source: "bars", accountId, unpriced: k === null });
      }
    }
  }
  const last = new Map<string, TaxFill>();
  for (const f of fills) {
    if (!f.section1256) continue;
    const y = new Date(f.at - 5 * 3_600_000).getUTCFullYear();
    const key = rates ? `${f.symbol}:${y}:${f.accountId}` : `${f.symbol}:${y}`;
    const before = last.get(key);
    if (marks.get(key)?.source === "bars" || (before && byTime(before, f) > 0)) continue;
    last.set(key, f);
    marks.set(key, { symbol: f.symbol, year: y, price: f.price, source: "last fill", ...(rates ? { accountId: f.accountId, unpriced: f.unpriced === true } : {}) });
  }
  return [...marks.values()];
}

const money = (v: bigint) => fromUnits(v);
const inYear = (d: Disposition, year: number) => d.soldAt.startsWith(`${year}-`);

function lotView(d: Disposition) {
  return {
    symbol: d.symbol,
    accountId: d.accountId,
    quantity: money(d.quantity),
    acquiredAt: d.acquiredAt,
    soldAt: d.soldAt,
    proceeds: money(d.proceeds),
    costBasis: money(d.costBasis),
    adjustment: money(d.adjustment),
    gain: money(d.gain),
    term: d.term,
    washSale: d.washSale ? { code: d.washSale.code, disallowed: money(d.washSale.disallowed), replacementLotOpenedAt: d.washSale.replacementLotOpenedAt, permanent: d.washSale.permanent } : null,
    section1256: d.section1256,
    short: d.short,
    markedToMarket: d.markedToMarket,
    markSource: d.markSource,
  };
}

type Decisions = Map<string, "wash" | "not_wash">;

/** A batch's rows by underlying, then symbol (a stock before its options), each symbol's in the order of sale. */
function byUnderlying(rows: Disposition[]): Disposition[] {
  const key = (d: Disposition) => `${instruments.get(d.symbol)?.underlying ?? d.symbol}\u0000${d.symbol}`;
  if (rows.every((d) => d.symbol === rows[0]!.symbol)) return rows;
  const keyed = rows.map((d, i) => ({ d, i, k: key(d) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i));
  return keyed.map((x) => x.d);
}
/** One batch's part of the year's answer, in the scope asked for. */
type YearBatch = { rows: Disposition[]; possible: PossibleWashSale[]; deferred: DeferredLoss[]; unknown: UnmatchedSale[] };

/**
 * The year's answer in the scope (an account, or every counted one) a batch of underlyings at a time: the rows
 * by underlying (alphabetical), then symbol, then in the order of sale. The currency is settled (or refused) before it returns;
 * what streams (the 8949 CSV, the lots) holds one batch at a time.
 */
export async function yearInBatches(
  deps: FxDeps,
  user: AuthUser,
  query: TaxQuery,
  batchFills = BATCH_FILLS.fast,
): Promise<{ currency: string | null; decisions: Decisions; batches: AsyncGenerator<YearBatch>; missingRates: () => MissingRate[] }> {
  const counted = await countedOf(deps, user, query);
  const decisions: Decisions = counted === null ? new Map() : await decisionsOf(deps, user.id);
  const mine = (accountId: string) => !query.accountId || accountId === query.accountId;
  let missing: MissingRate[] = [];
  const results = counted === null ? null : batchResults(deps, user, query.year, counted, decisions, batchFills, (rates) => (missing = rates.missing));
  // The first batch is computed before this returns, so what it needed (the rates, the currency) is settled first.
  const first = await results?.next();
  const batches = (async function* () {
    if (!results || !first || first.done) return;
    for (let r: IteratorResult<TaxResult> = first; !r.done; r = await results.next()) {
      // A row computed without a rate it needed is left out; the answer names the rates (missingRates).
      const b = r.value;
      yield {
        rows: byUnderlying(b.dispositions.filter((d) => inYear(d, query.year) && mine(d.accountId) && !d.unpriced)),
        possible: b.possibleWashSales.filter((p) => p.lossSoldAt.startsWith(`${query.year}-`)),
        deferred: b.deferred(query.year).filter((d) => mine(d.accountId)),
        unknown: b.basisUnknown(query.year).filter((u) => mine(u.accountId) && !u.unpriced),
      };
    }
  })();
  return { currency: counted?.currency ?? null, decisions, batches, missingRates: () => missing };
}

/** The year's answer whole. */
export async function yearOf(deps: FxDeps, user: AuthUser, query: TaxQuery) {
  const { currency, decisions, batches, missingRates } = await yearInBatches(deps, user, query);
  const year = { currency, decisions, rows: [] as Disposition[], possible: [] as PossibleWashSale[], deferred: [] as DeferredLoss[], unknown: [] as UnmatchedSale[], missingRates: missingRates() };
  for await (const b of batches) {
    for (const d of b.rows) year.rows.push(d);
    year.possible.push(...b.possible);
    year.deferred.push(...b.deferred);
    year.unknown.push(...b.unknown);
  }
  return year;
}

/** GET /api/tax/lots's answer (lib/tax/responses.ts, TaxLotsSchema, documents it). */
export type TaxLots = {
  year: number;
  method: "fifo";
  currency: string | null;
  lots: Array<ReturnType<typeof lotView>>;
  possibleWashSales: Array<{ symbol: string; lossSoldAt: string; replacementSymbol: string; replacementAt: string; loss: string; decision: "wash" | "not_wash" | null }>;
  deferredLosses: Array<{ symbol: string; lossSoldAt: string; disallowed: string; replacementLotOpenedAt: string }>;
  basisUnknown: Array<{ symbol: string; accountId: string; soldAt: string; quantity: string; proceeds: string }>;
  /** In the base currency: the (currency, date) rates missing; the rows that needed one are left out. */
  missingRates: MissingRate[];
};

/**
 * GET /api/tax/lots, as JSON text: each batch's lots written as it is computed, so a year of 100,000 lots never
 * holds them all as objects (docs/tax.md, "Performance").
 */
export async function taxLots(deps: FxDeps, user: AuthUser, query: TaxQuery): Promise<JsonText<TaxLots>> {
  const { currency, decisions, batches, missingRates } = await yearInBatches(deps, user, query);
  const lots: string[] = [];
  const rest: Omit<TaxLots, "year" | "method" | "currency" | "lots"> = { possibleWashSales: [], deferredLosses: [], basisUnknown: [], missingRates: missingRates() };
  for await (const b of batches) {
    if (b.rows.length) lots.push(JSON.stringify(b.rows.map(lotView)).slice(1, -1));
    for (const p of b.possible) rest.possibleWashSales.push({ symbol: p.symbol, lossSoldAt: p.lossSoldAt, replacementSymbol: p.replacementSymbol, replacementAt: p.replacementAt, loss: money(p.loss), decision: decisions.get(possibleKey(p)) ?? null });
    for (const d of b.deferred) rest.deferredLosses.push({ symbol: d.symbol, lossSoldAt: d.lossSoldAt, disallowed: money(d.disallowed), replacementLotOpenedAt: d.replacementLotOpenedAt });
    for (const u of b.unknown) rest.basisUnknown.push({ symbol: u.symbol, accountId: u.accountId, soldAt: u.soldAt, quantity: money(u.quantity), proceeds: money(u.proceeds) });
  }
  const head = JSON.stringify({ year: query.year, method: query.method, currency });
  return `${head.slice(0, -1)},"lots":[${lots.join(",")}],${JSON.stringify(rest).slice(1)}`;
}

/** Cents, rounded half away from zero (the forms' figures; each total sums its rows' rounded figures). */
const CENT = 10n ** 8n;
const cents = (v: bigint) => (v < 0n ? -((-v + CENT / 2n) / CENT) : (v + CENT / 2n) / CENT);
/** Cents as "-12.34": the digits once (the 8949 CSV writes four a row). */
export const fromCents = (c: bigint) => {
  const digits = (c < 0n ? -c : c).toString().padStart(3, "0");
  return `${c < 0n ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/** The Form 8949 rows of the year: every disposition but the Section 1256 ones (Form 6781), in cents, Part I first. */
export function formRows(rows: Disposition[]) {
  return rows
    .filter((d) => !d.section1256)
    .sort((a, b) => (a.term === b.term ? 0 : a.term === "short" ? -1 : 1))
    .map((d) => {
      const [proceeds, cost, adjustment] = [cents(d.proceeds), cents(d.costBasis), cents(d.adjustment)];
      return { d, part: d.term === "long" ? ("II" as const) : ("I" as const), box: d.term === "long" ? ("F" as const) : ("C" as const), proceeds, cost, adjustment, gain: proceeds - cost + adjustment };
    });
}

/** "100 sh X", "2 X 260619C00050000": the description of column (a). */
export const description = (d: Disposition) => `${fromUnits(d.quantity).replace(/\.00$/, "")} ${/^[A-Z0-9./-]+$/.test(d.symbol) ? "sh " : ""}${d.symbol.replace(/ +/g, " ")}`;
export const usDate = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

type Totals = { proceeds: bigint; cost: bigint; adjustment: bigint; gain: bigint };
const zero = (): Totals => ({ proceeds: 0n, cost: 0n, adjustment: 0n, gain: 0n });
const totalsView = (t: Totals) => ({ proceeds: fromCents(t.proceeds), costBasis: fromCents(t.cost), adjustment: fromCents(t.adjustment), gain: fromCents(t.gain) });

/** Form 6781 Part I: per account, the Section 1256 gains and losses (marks included); 40 % short-term, 60 % long-term. */
function form6781Of(rows: Disposition[], names: Map<string, string>) {
  const perAccount = new Map<string, { loss: bigint; gain: bigint }>();
  for (const d of rows) {
    if (!d.section1256) continue;
    const a = perAccount.get(d.accountId) ?? { loss: 0n, gain: 0n };
    const g = cents(d.gain);
    if (g < 0n) a.loss += g;
    else a.gain += g;
    perAccount.set(d.accountId, a);
  }
  const line1 = [...perAccount].map(([accountId, a]) => ({ account: names.get(accountId) ?? accountId, loss: fromCents(a.loss), gain: fromCents(a.gain) }));
  const net = [...perAccount.values()].reduce((s, a) => s + a.loss + a.gain, 0n);
  // Line 8: 40 % of line 7 (to Schedule D line 4); line 9: 60 % (to line 11). The 40 % is rounded; the 60 % is the rest.
  const shortPart = (net * 40n + (net < 0n ? -50n : 50n)) / 100n;
  return { line1, line2: { loss: fromCents([...perAccount.values()].reduce((s, a) => s + a.loss, 0n)), gain: fromCents([...perAccount.values()].reduce((s, a) => s + a.gain, 0n)) }, line3: fromCents(net), line7: fromCents(net), line8: fromCents(shortPart), line9: fromCents(net - shortPart), net, shortPart };
}

async function accountNames(deps: FxDeps, user: AuthUser) {
  return new Map(rowsOf<{ id: string; name: string }>(await deps.db.execute(sql`select id::text as id, name from accounts where user_id = ${user.id}::uuid`)).map((a) => [a.id, a.name]));
}

/** GET /api/tax/6781. */
export async function form6781(deps: FxDeps, user: AuthUser, query: TaxQuery) {
  const y = await yearOf(deps, user, query);
  const { net: _n, shortPart: _s, ...form } = form6781Of(y.rows, await accountNames(deps, user));
  return { year: query.year, currency: y.currency, ...form, missingRates: y.missingRates };
}

/** GET /api/tax/schedule-d: the lines Form 8949 (boxes C and F, not reported on a 1099-B) and Form 6781 feed. */
export async function scheduleD(deps: FxDeps, user: AuthUser, query: TaxQuery) {
  const y = await yearOf(deps, user, query);
  const [shortTerm, longTerm] = [zero(), zero()];
  for (const r of formRows(y.rows)) {
    const t = r.part === "I" ? shortTerm : longTerm;
    t.proceeds += r.proceeds;
    t.cost += r.cost;
    t.adjustment += r.adjustment;
    t.gain += r.gain;
  }
  const f = form6781Of(y.rows, new Map());
  const line7 = shortTerm.gain + f.shortPart;
  const line15 = longTerm.gain + (f.net - f.shortPart);
  return {
    year: query.year,
    currency: y.currency,
    line3: totalsView(shortTerm),
    line4: fromCents(f.shortPart),
    line7: fromCents(line7),
    line10: totalsView(longTerm),
    line11: fromCents(f.net - f.shortPart),
    line15: fromCents(line15),
    line16: fromCents(line7 + line15),
    missingRates: y.missingRates,
  };
}

/**
 * A file for tax software is whole or not written: in the base, with rates missing, 409 naming them (the JSON
 * answers list them beside figures that leave those rows out).
 */
export function refuseIncomplete(base: string | null, missing: MissingRate[]) {
  if (missing.length === 0) return;
  const named = missing.slice(0, 5).map((m) => `${m.currency} on ${m.date}`).join(", ");
  throw new AppError("CONFLICT", `Rates to ${base} are missing for ${named}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}: set them in Settings, Currency (an override of the date), or export in the account's currency.`);
}

/**
 * GET /api/tax/txf: the Form 8949 rows as TXF version 042 (Intuit's spec): a header, then one record per row,
 * refnum 712 (short-term, box C) or 714 (long-term, box F), cost before proceeds, the disallowed wash-sale loss
 * as the sixth line (format 5) when there is one; `^` ends the header and each record; CRLF lines.
 */
export async function txf(deps: FxDeps, user: AuthUser, query: TaxQuery, today: Date): Promise<string> {
  const y = await yearOf(deps, user, query);
  refuseIncomplete(y.currency, y.missingRates);
  const lines = ["V042", "ATrading Journal", `D${usDate(today.toISOString().slice(0, 10))}`, "^"];
  for (const r of formRows(y.rows)) {
    lines.push("TD", r.part === "I" ? "N712" : "N714", "C1", "L1", `P${description(r.d)}`, `D${usDate(r.d.acquiredAt)}`, `D${usDate(r.d.soldAt)}`, `$${fromCents(r.cost)}`, `$${fromCents(r.proceeds)}`);
    if (r.adjustment !== 0n) lines.push(`$${fromCents(r.adjustment)}`);
    lines.push("^");
  }
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * GET /api/tax/wash-watch: the losses realised in the last 30 days (taxable accounts, not Section 1256) whose
 * window is still open: buying the same symbol on or before `washableUntil` would wash what is not washed yet.
 */
export async function washWatch(deps: FxDeps, user: AuthUser, query: { currency?: string | undefined }, now: Date) {
  const counted = await countedOf(deps, user, query);
  if (counted === null) return { currency: null, today: now.toISOString().slice(0, 10), losses: [] };
  const currency = counted.base ? "base" : counted.currency;
  const today = now.toISOString().slice(0, 10);
  const year = now.getUTCFullYear();
  const from = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  // Early in January the window reaches back into December: last year's losses are watched too.
  const years = Number(from.slice(0, 4)) < year ? [year - 1, year] : [year];
  const dispositions = (await Promise.all(years.map(async (y) => (await yearOf(deps, user, { year: y, currency, method: "fifo" })).rows))).flat();
  const losses = dispositions
    .filter((d) => !d.section1256 && d.soldAt >= from && d.soldAt <= today && d.gain < 0n)
    .map((d) => ({
      symbol: d.symbol,
      accountId: d.accountId,
      soldAt: d.soldAt,
      quantity: money(d.quantity),
      loss: money(-d.gain),
      washableUntil: new Date(Date.parse(`${d.soldAt}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10),
    }));
  return { currency: counted.currency, today, losses };
}
