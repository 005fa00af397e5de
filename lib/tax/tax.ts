// The tax routes (DESIGN.md section 11, "Tax"; docs/tax.md): the user's fills read once (every account but the
// exempt ones, in one currency), the lots and wash sales computed (engine.ts), and the year's answer as lots,
// Form 8949 rows (CSV and TXF), Schedule D totals, Form 6781 totals and the wash watch.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { fromUnits, toUnits } from "../money.ts";
import { FUTURES } from "../trades/futures.ts";
import { resolveInstrument } from "../trades/instruments.ts";
import { computeLots, possibleKey, type Disposition, type TaxFill, type YearEndMark } from "./engine.ts";

/** Broad-based index options, Section 1256 contracts (IRC 1256(g)(6); docs/tax.md): their roots. */
export const INDEX_OPTION_ROOTS = new Set(["SPX", "SPXW", "NDX", "NDXP", "RUT", "RUTW", "VIX", "VIXW", "XSP", "DJX", "OEX", "XEO", "MXEA", "MXEF"]);

const yearSchema = () =>
  z.pipe(z.string("must be a year such as 2026").check(z.regex(/^\d{4}$/, "must be a year such as 2026")), z.pipe(z.transform(Number), z.number().check(z.gte(1990, "must be 1990 or later"), z.lte(2100, "must be 2100 or earlier"))));

export const TaxQuerySchema = z.object({
  year: yearSchema(),
  accountId: z.optional(z.uuid("must be a uuid")),
  /** The currency of the accounts counted, when they use several. */
  currency: z.optional(z.string().check(z.regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code"))),
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
  currency: z.optional(z.string().check(z.regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code"))),
});
export type WashDecision = z.infer<typeof WashDecisionSchema>;

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
export async function decideWashSale(deps: Pick<Deps, "db">, user: AuthUser, body: WashDecision) {
  const currency = await currencyOf(deps, user, { currency: body.currency });
  const year = Number(body.lossSoldAt.slice(0, 4));
  const listed = currency === null ? [] : (await compute(deps, user, year, currency)).possibleWashSales;
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

export const WashWatchQuerySchema = z.object({ currency: z.optional(z.string().check(z.regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code"))) });

/** The first instant of `year + 1` in New York: US trade dates end there. */
const yearEnd = (year: number) => Date.parse(`${year + 1}-01-01T05:00:00Z`);

type FillRow = {
  id: string;
  account_id: string;
  tax_status: "taxable" | "ira";
  symbol: string;
  asset_class: "stock" | "option" | "future";
  multiplier: string;
  side: "buy" | "sell";
  quantity: string;
  price: string;
  fees: string;
  at: number | string;
  day: string;
  generated: string | null;
};

/** The currency counted: the account's, the one asked for, or the one all the counted accounts share. */
async function currencyOf(deps: Pick<Deps, "db">, user: AuthUser, q: { accountId?: string | undefined; currency?: string | undefined }): Promise<string | null> {
  if (q.accountId) return (await requireOwnAccount(deps, user, q.accountId)).currency;
  if (q.currency) return q.currency.toUpperCase();
  const list = rowsOf<{ currency: string }>(await deps.db.execute(sql`select distinct currency from accounts where user_id = ${user.id}::uuid and tax_status <> 'exempt' order by 1`)).map((r) => r.currency);
  if (list.length > 1) {
    throw new AppError("VALIDATION_ERROR", `Your accounts are in ${list.join(", ")}: lots match within one currency. Choose one (currency=${list[0]}).`, {
      fields: [{ path: "currency", message: `is required: your accounts are in ${list.join(", ")}` }],
    });
  }
  return list[0] ?? null;
}

const instrumentOf = new Map<string, { underlying: string; option?: TaxFill["option"]; section1256: boolean }>();
/** A symbol's underlying, an option's right and strike, and whether it is a Section 1256 contract. */
function describe(symbol: string, assetClass: FillRow["asset_class"]) {
  const key = `${assetClass}:${symbol}`;
  let known = instrumentOf.get(key);
  if (!known) {
    if (assetClass === "future") known = { underlying: symbol, section1256: true };
    else if (assetClass === "option") {
      try {
        const o = resolveInstrument({ symbol, assetClass }).option!;
        known = { underlying: o.root, option: { right: o.right, strike: toUnits(o.strike) }, section1256: INDEX_OPTION_ROOTS.has(o.root) || FUTURES.has(o.root) };
      } catch {
        known = { underlying: symbol, section1256: false };
      }
    } else known = { underlying: symbol, section1256: false };
    instrumentOf.set(key, known);
  }
  return known;
}

/** The user's lots and wash sales through `year` (the fills to 31 days after it, for its December losses' replacements). */
async function compute(deps: Pick<Deps, "db">, user: AuthUser, year: number, currency: string) {
  const until = new Date(yearEnd(year) + 31 * 86_400_000).toISOString();
  const [fillRows, splitRows, barRows, decisions] = await Promise.all([
    deps.db.execute(sql`select f.id::text as id, f.account_id::text as account_id, a.tax_status, f.symbol, f.asset_class, f.multiplier::text as multiplier,
        f.side, f.quantity::text as quantity, f.price::text as price, f.fees::text as fees, (extract(epoch from f.executed_at) * 1000)::float8 as at,
        (f.executed_at at time zone a.timezone)::date::text as day, f.generated
      from fills f join accounts a on a.id = f.account_id
      where a.user_id = ${user.id}::uuid and a.tax_status <> 'exempt' and a.currency = ${currency} and f.executed_at < ${until}::timestamptz
      order by f.executed_at, f.id`),
    deps.db.execute(sql`select symbol, (extract(epoch from effective_at) * 1000)::float8 as at, new_shares::text as new_shares, old_shares::text as old_shares
      from splits where user_id = ${user.id}::uuid`),
    // Each Section 1256 symbol's last daily close of each year (docs/charts.md's bars): the year-end mark.
    deps.db.execute(sql`select distinct on (b.symbol, extract(year from b.t)) b.symbol, extract(year from b.t)::int as year, b.close::text as close
      from bars b where b.user_id = ${user.id}::uuid and b.resolution = '1d'
        and b.symbol in (select distinct f.symbol from fills f join accounts a on a.id = f.account_id where a.user_id = ${user.id}::uuid and f.asset_class <> 'stock')
      order by b.symbol, extract(year from b.t), b.t desc`),
    decisionsOf(deps, user.id),
  ]);
  const fills: TaxFill[] = rowsOf<FillRow>(fillRows).map((r) => {
    const d = describe(r.symbol, r.asset_class);
    return {
      id: r.id,
      accountId: r.account_id,
      status: r.tax_status,
      symbol: r.symbol,
      underlying: d.underlying,
      assetClass: r.asset_class,
      ...(d.option ? { option: d.option } : {}),
      section1256: d.section1256,
      side: r.side,
      quantity: toUnits(r.quantity),
      price: toUnits(r.price),
      fees: toUnits(r.fees),
      multiplier: toUnits(r.multiplier),
      at: Number(r.at),
      day: r.day,
      expiry: r.generated === "expiry",
    };
  });
  // Marks: the bars' last close of the year, else the symbol's last fill price that year.
  const marks: YearEndMark[] = rowsOf<{ symbol: string; year: number; close: string }>(barRows).map((b) => ({ symbol: b.symbol, year: Number(b.year), price: toUnits(b.close), source: "bars" }));
  const marked = new Set(marks.map((m) => `${m.symbol}:${m.year}`));
  for (const f of fills) {
    if (!f.section1256) continue;
    const y = new Date(f.at - 5 * 3_600_000).getUTCFullYear();
    if (marked.has(`${f.symbol}:${y}`)) continue;
    const i = marks.findIndex((m) => m.symbol === f.symbol && m.year === y && m.source === "last fill");
    const mark: YearEndMark = { symbol: f.symbol, year: y, price: f.price, source: "last fill" };
    if (i >= 0) marks[i] = mark;
    else marks.push(mark);
  }
  const splits = rowsOf<{ symbol: string; at: number | string; new_shares: string; old_shares: string }>(splitRows).map((s) => ({ symbol: s.symbol, at: Number(s.at), newShares: toUnits(s.new_shares), oldShares: toUnits(s.old_shares) }));
  const washDecisions = new Set([...decisions].filter(([, d]) => d === "wash").map(([k]) => k));
  return { ...computeLots({ fills, splits, marks, through: year, yearEnd, washDecisions }), decisions };
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

/** The year's dispositions of the scope, and what else the year's answer carries. */
export async function yearOf(deps: Pick<Deps, "db">, user: AuthUser, query: TaxQuery) {
  const currency = await currencyOf(deps, user, query);
  if (currency === null) return { currency: null, rows: [], possible: [], deferred: [], unknown: [], decisions: new Map<string, "wash" | "not_wash">() };
  const result = await compute(deps, user, query.year, currency);
  const mine = (accountId: string) => !query.accountId || accountId === query.accountId;
  return {
    currency,
    rows: result.dispositions.filter((d) => inYear(d, query.year) && mine(d.accountId)),
    possible: result.possibleWashSales.filter((p) => p.lossSoldAt.startsWith(`${query.year}-`)),
    deferred: result.deferred(query.year).filter((d) => mine(d.accountId)),
    unknown: result.basisUnknown(query.year).filter((u) => mine(u.accountId)),
    decisions: result.decisions,
  };
}

/** GET /api/tax/lots. */
export async function taxLots(deps: Pick<Deps, "db">, user: AuthUser, query: TaxQuery) {
  const y = await yearOf(deps, user, query);
  return {
    year: query.year,
    method: query.method,
    currency: y.currency,
    lots: y.rows.map(lotView),
    possibleWashSales: y.possible.map((p) => ({
      symbol: p.symbol,
      lossSoldAt: p.lossSoldAt,
      replacementSymbol: p.replacementSymbol,
      replacementAt: p.replacementAt,
      loss: money(p.loss),
      decision: y.decisions.get(possibleKey(p)) ?? null,
    })),
    deferredLosses: y.deferred.map((d) => ({ symbol: d.symbol, lossSoldAt: d.lossSoldAt, disallowed: money(d.disallowed), replacementLotOpenedAt: d.replacementLotOpenedAt })),
    basisUnknown: y.unknown.map((u) => ({ symbol: u.symbol, accountId: u.accountId, soldAt: u.soldAt, quantity: money(u.quantity), proceeds: money(u.proceeds) })),
  };
}

/** Cents, rounded half away from zero (the forms' figures; each total sums its rows' rounded figures). */
const CENT = 10n ** 8n;
const cents = (v: bigint) => (v < 0n ? -((-v + CENT / 2n) / CENT) : (v + CENT / 2n) / CENT);
export const fromCents = (c: bigint) => fromUnits(c * CENT);

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

async function accountNames(deps: Pick<Deps, "db">, user: AuthUser) {
  return new Map(rowsOf<{ id: string; name: string }>(await deps.db.execute(sql`select id::text as id, name from accounts where user_id = ${user.id}::uuid`)).map((a) => [a.id, a.name]));
}

/** GET /api/tax/6781. */
export async function form6781(deps: Pick<Deps, "db">, user: AuthUser, query: TaxQuery) {
  const y = await yearOf(deps, user, query);
  const { net: _n, shortPart: _s, ...form } = form6781Of(y.rows, await accountNames(deps, user));
  return { year: query.year, currency: y.currency, ...form };
}

/** GET /api/tax/schedule-d: the lines Form 8949 (boxes C and F, not reported on a 1099-B) and Form 6781 feed. */
export async function scheduleD(deps: Pick<Deps, "db">, user: AuthUser, query: TaxQuery) {
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
  };
}

/**
 * GET /api/tax/txf: the Form 8949 rows as TXF version 042 (Intuit's spec): a header, then one record per row,
 * refnum 712 (short-term, box C) or 714 (long-term, box F), cost before proceeds, the disallowed wash-sale loss
 * as the sixth line (format 5) when there is one; `^` ends the header and each record; CRLF lines.
 */
export async function txf(deps: Pick<Deps, "db">, user: AuthUser, query: TaxQuery, today: Date): Promise<string> {
  const y = await yearOf(deps, user, query);
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
export async function washWatch(deps: Pick<Deps, "db">, user: AuthUser, query: { currency?: string | undefined }, now: Date) {
  const currency = await currencyOf(deps, user, query);
  if (currency === null) return { currency: null, today: now.toISOString().slice(0, 10), losses: [] };
  const today = now.toISOString().slice(0, 10);
  const year = now.getUTCFullYear();
  const from = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  // Early in January the window reaches back into December: last year's losses are watched too.
  const years = Number(from.slice(0, 4)) < year ? [year - 1, year] : [year];
  const dispositions = (await Promise.all(years.map(async (y) => (await compute(deps, user, y, currency)).dispositions.filter((d) => d.soldAt.startsWith(`${y}-`))))).flat();
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
  return { currency, today, losses };
}
