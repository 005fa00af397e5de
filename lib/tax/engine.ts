// Tax lots and US wash sales (DESIGN.md section 11, "Tax"; docs/tax.md): pure arithmetic over a user's fills,
// in integers of 10^-10 (lib/money.ts). What the rules are and where they come from is in docs/tax.md.
//
// 1. Each fill is cut into what it closes and what it opens, per account and symbol (a sell with no shares
//    held opens a short; a buy while short covers first). Every opening becomes a lot.
// 2. Events in time order (fills, splits, year ends): a closing consumes its account's lots of the symbol
//    first in, first out; each lot consumed is one disposition (a Form 8949 row).
// 3. A loss in a taxable account (not a Section 1256 contract) is washed by lots of the same symbol and the same
//    side opened within 30 days before or after the sale, in any account of the user, in the order they were
//    opened, each unit replacing once: the loss is disallowed for the replaced quantity; the disallowed loss
//    is added to the replacement lot's basis (a short lot's proceeds are reduced by it) and its holding period
//    starts earlier by the days the sold lot was held. A replacement in an IRA disallows the loss for good.
// 4. Section 1256 contracts are marked to market at each year end (the mark becomes the lot's basis) and split
//    60 % long / 40 % short whatever the holding time.
// 5. An option closed at 0 beside a stock fill of its underlying at its strike (same account, within 60 s,
//    quantity x multiplier shares) was assigned or exercised: its premium folds into the stock's basis or
//    proceeds, and the option leaves no row of its own.
import { divideUnits, multiplyUnits } from "../money.ts";

export type TaxStatus = "taxable" | "ira" | "exempt";

export type TaxFill = {
  id: string;
  accountId: string;
  status: Exclude<TaxStatus, "exempt">;
  symbol: string;
  /** The stock an option is on (its root); the symbol itself otherwise. */
  underlying: string;
  assetClass: "stock" | "option" | "future";
  /** An option's right and strike (units), for assignment. */
  option?: { right: "call" | "put"; strike: bigint };
  section1256: boolean;
  side: "buy" | "sell";
  /** Units (10^-10). */
  quantity: bigint;
  price: bigint;
  fees: bigint;
  multiplier: bigint;
  /** Epoch ms. */
  at: number;
  /** The trade date on the account's clock, YYYY-MM-DD. */
  day: string;
  /** The journal closed an expired option at 0 (not an assignment). */
  expiry: boolean;
  /**
   * Its price and fees have no rate to the base currency (a computation in the base, docs/tax.md): the lot it
   * opens and the rows it closes are unpriced, matched all the same, and left out of the answer.
   */
  unpriced?: boolean;
};

export type TaxSplit = { symbol: string; at: number; newShares: bigint; oldShares: bigint };

/** A Section 1256 symbol's price at a year end, and where it came from. */
/** In the base currency a mark is one account's (its currency's rate of Dec 31); `unpriced` when that rate is missing. */
export type YearEndMark = { symbol: string; year: number; price: bigint; source: "bars" | "last fill"; accountId?: string; unpriced?: boolean };

export type WashSale = { code: "W"; disallowed: bigint; replacementLotOpenedAt: string; permanent: boolean };

export type Disposition = {
  symbol: string;
  accountId: string;
  quantity: bigint;
  acquiredAt: string;
  soldAt: string;
  proceeds: bigint;
  costBasis: bigint;
  /** Form 8949 column (g): the loss disallowed, as a positive amount. */
  adjustment: bigint;
  /** Column (h): proceeds - cost basis + adjustment. */
  gain: bigint;
  term: "short" | "long";
  washSale: WashSale | null;
  section1256: boolean;
  /** A Section 1256 position still open at a year end, marked to market. */
  markedToMarket: boolean;
  markSource: "bars" | "last fill" | null;
  short: boolean;
  /** Computed in the base currency without a rate it needed (its lot's or its sale's): left out of the answer. */
  unpriced: boolean;
};

export type PossibleWashSale = { symbol: string; lossSoldAt: string; replacementSymbol: string; replacementAt: string; loss: bigint };

/** The key of a possible wash sale, as the trader's decision names it. */
export const possibleKey = (p: Pick<PossibleWashSale, "symbol" | "lossSoldAt" | "replacementSymbol" | "replacementAt">) =>
  `${p.symbol}\u0000${p.lossSoldAt}\u0000${p.replacementSymbol}\u0000${p.replacementAt}`;

/** A loss disallowed into a lot still open at the end of `year`: it counts when that lot is sold. */
export type DeferredLoss = { symbol: string; lossSoldAt: string; disallowed: bigint; replacementLotOpenedAt: string; accountId: string };

type Slice = { qty: bigint; basis: bigint; holdingFrom: string; replaced: boolean; unpriced: boolean };
type Lot = {
  id: string;
  accountId: string;
  status: TaxFill["status"];
  symbol: string;
  long: boolean;
  openedAt: number;
  openedDay: string;
  section1256: boolean;
  /** A stock (not an option or a future): a stock sale the journal holds no purchase for is "basis unknown". */
  stock: boolean;
  multiplier: bigint;
  /** For a long lot the cost of each slice, for a short lot its proceeds. */
  slices: Slice[];
  /** Units still held (or not yet bought) that have not replaced a loss: 0 skips the lot in a wash-sale search. */
  free: bigint;
};

const DAY = 86_400_000;
const shifted = new Map<string, string>();
/** `day` moved by `n` days (memoised: a year of trades asks for the same few hundred days again and again). */
const addDays = (day: string, n: number) => {
  const key = `${day}${n}`;
  let out = shifted.get(key);
  if (out === undefined) {
    out = new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
    if (shifted.size > 100_000) shifted.clear();
    shifted.set(key, out);
  }
  return out;
};
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

/**
 * Long-term when held more than one year (IRS Publication 550, "Holding Period"): the count starts the day after
 * acquisition and includes the day of sale, so a lot acquired 2024-01-02 is long-term when sold on 2025-01-03 or
 * later, and one acquired 2015-02-28 from 2016-03-01 (the leap day 2016-02-29 is still the first year).
 */
export function isLongTerm(acquired: string, sold: string): boolean {
  return sold >= longFrom(acquired);
}

const longFroms = new Map<string, string>();
/** The first day a lot acquired on `acquired` is long-term: a year after the count's first day. */
function longFrom(acquired: string): string {
  let out = longFroms.get(acquired);
  if (out === undefined) {
    const [y, m, d] = addDays(acquired, 1).split("-").map(Number) as [number, number, number];
    // Date rolls Feb 29 of a year without one over to Mar 1.
    out = new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10);
    if (longFroms.size > 100_000) longFroms.clear();
    longFroms.set(acquired, out);
  }
  return out;
}

/** `total` x part / whole, exact to the unit (the last part of a lot takes what is left). */
const share = (total: bigint, part: bigint, whole: bigint) => (part === whole ? total : (total * part) / whole);

export type TaxInput = {
  fills: TaxFill[];
  splits: TaxSplit[];
  marks: YearEndMark[];
  /** The last year to run through (its year-end marks included). */
  through: number;
  /** Each trade date's year-end instant, to place marks between fills: the first instant of Jan 1 of year + 1. */
  yearEnd: (year: number) => number;
  /**
   * The possible wash sales through options that the trader decided are wash sales (their possibleKey): the loss
   * goes into the option lot as into a stock replacement, for the shares its contracts cover.
   */
  washDecisions?: ReadonlySet<string>;
};

/**
 * A stock sale the journal holds no purchase for, still open as a short sale after every fill read: its basis
 * is unknown (shares bought before the journal's first fill, or moved in from elsewhere), or it is a short sale
 * not yet covered (taxed when it is). Listed, never given an invented basis.
 */
export type UnmatchedSale = { symbol: string; accountId: string; soldAt: string; quantity: bigint; proceeds: bigint; unpriced: boolean };

export type TaxResult = { dispositions: Disposition[]; possibleWashSales: PossibleWashSale[]; deferred: (year: number) => DeferredLoss[]; basisUnknown: (year: number) => UnmatchedSale[] };

export function computeLots(input: TaxInput): TaxResult {
  const fills = [...input.fills].sort(byTime);
  const assignments = foldAssignments(fills);

  // 1. What each fill closes and opens, per account and symbol (quantities only; splits scale what is held).
  const held = new Map<string, bigint>();
  // One key string per position (account and symbol), made once: a year's fills look their position up twice each.
  const keys = new Map<string, Map<string, string>>();
  const positionKey = (f: TaxFill) => {
    let bySymbol = keys.get(f.accountId);
    if (!bySymbol) keys.set(f.accountId, (bySymbol = new Map()));
    let key = bySymbol.get(f.symbol);
    if (key === undefined) bySymbol.set(f.symbol, (key = `${f.accountId}\u0000${f.symbol}`));
    return key;
  };
  const splitEvents = [...input.splits].sort((a, b) => a.at - b.at);
  /** A fill's closing and opening parts, its position's key (account and symbol) and the lot its opening part is. */
  type Cut = { fill: TaxFill; key: string; closes: bigint; opens: bigint; lot: Lot | null };
  const cuts: Cut[] = [];
  {
    let s = 0;
    for (const f of fills) {
      while (s < splitEvents.length && splitEvents[s]!.at <= f.at) {
        const sp = splitEvents[s++]!;
        for (const [key, q] of held) if (key.endsWith(`\u0000${sp.symbol}`)) held.set(key, (q * sp.newShares) / sp.oldShares);
      }
      const key = positionKey(f);
      const q = held.get(key) ?? 0n;
      const signed = f.side === "buy" ? f.quantity : -f.quantity;
      const against = (q > 0n && signed < 0n) || (q < 0n && signed > 0n);
      const closes = against ? (f.quantity < (q < 0n ? -q : q) ? f.quantity : q < 0n ? -q : q) : 0n;
      cuts.push({ fill: f, key, closes, opens: f.quantity - closes, lot: null });
      held.set(key, q + signed);
    }
  }

  // Every lot, opened by its fill's opening part (known up front: a loss looks ahead 30 days for replacements).
  const lots: Lot[] = [];
  for (const cut of cuts) {
    const { fill: f, opens } = cut;
    if (opens === 0n) continue;
    const money = multiplyUnits(multiplyUnits(opens, f.price), f.multiplier);
    const fees = share(f.fees, opens, f.quantity);
    const fold = assignments.get(f.id);
    const long = f.side === "buy";
    // A long lot's basis is what it cost; a short lot's, what the short sale brought in.
    let value = long ? money + fees : money - fees;
    if (fold !== undefined) value += long ? -fold : fold;
    const lot: Lot = { id: f.id, accountId: f.accountId, status: f.status, symbol: f.symbol, long, openedAt: f.at, openedDay: f.day, section1256: f.section1256, stock: f.assetClass === "stock", multiplier: f.multiplier, slices: [{ qty: opens, basis: value, holdingFrom: f.day, replaced: false, unpriced: f.unpriced === true }], free: opens };
    lots.push(lot);
    cut.lot = lot;
  }
  // Each symbol's lots in the order they open (the fills' order): a wash sale's window is a run of them.
  const bySymbol = new Map<string, Lot[]>();
  for (const lot of lots) {
    const list = bySymbol.get(lot.symbol);
    if (list) list.push(lot);
    else bySymbol.set(lot.symbol, [lot]);
  }
  const openLots = new Map<string, Lot[]>();

  const dispositions: Disposition[] = [];
  const possible: PossibleWashSale[] = [];
  const washed: Array<{ lot: Lot; slice: Slice; amount: bigint; lossSoldAt: string }> = [];
  const deferredBy = new Map<number, DeferredLoss[]>();
  const optionBuys = cuts.filter(({ fill: f }) => f.assetClass === "option" && f.side === "buy" && f.status === "taxable");

  // 2. In time order: splits, year ends, fills (the fills already are; at one instant, splits first, fills last).
  type Event = { at: number; order: number; run: () => void };
  const events: Event[] = [];
  for (const sp of splitEvents) {
    events.push({
      at: sp.at,
      order: 0,
      run: () => {
        for (const [key, list] of openLots) {
          if (!key.endsWith(`\u0000${sp.symbol}`)) continue;
          for (const lot of list) for (const slice of lot.slices) slice.qty = (slice.qty * sp.newShares) / sp.oldShares;
        }
      },
    });
  }
  const firstYear = fills.length ? new Date(fills[0]!.at).getUTCFullYear() : input.through;
  for (let year = firstYear; year <= input.through; year++) {
    const at = input.yearEnd(year);
    events.push({ at, order: 1, run: () => markYearEnd(year) });
  }
  events.sort((a, b) => a.at - b.at || a.order - b.order);

  function markYearEnd(year: number) {
    const day = `${year}-12-31`;
    // Losses of the year disallowed into replacements still held (or not yet bought): they count when those are sold.
    deferredBy.set(
      year,
      washed
        .filter((w) => w.lossSoldAt.startsWith(`${year}-`) && w.slice.qty > 0n)
        .map((w) => ({ symbol: w.lot.symbol, lossSoldAt: w.lossSoldAt, disallowed: w.amount, replacementLotOpenedAt: w.lot.openedDay, accountId: w.lot.accountId })),
    );
    for (const [, list] of openLots) {
      for (const lot of list) {
        if (!lot.section1256 || lot.status !== "taxable") continue;
        const mark = input.marks.find((m) => m.symbol === lot.symbol && m.year === year && (m.accountId === undefined || m.accountId === lot.accountId));
        if (!mark) continue;
        for (const slice of lot.slices) {
          if (slice.qty === 0n) continue;
          const value = multiplyUnits(multiplyUnits(slice.qty, mark.price), lot.multiplier);
          const [proceeds, cost] = lot.long ? [value, slice.basis] : [slice.basis, value];
          const d = row(lot, slice.qty, slice.holdingFrom, day, proceeds, cost, slice.unpriced || mark.unpriced === true);
          d.markedToMarket = true;
          d.markSource = mark.source;
          dispositions.push(d);
          slice.basis = value;
          slice.holdingFrom = day;
          slice.unpriced = mark.unpriced === true;
        }
      }
    }
  }

  function row(lot: Lot, qty: bigint, holdingFrom: string, soldAt: string, proceeds: bigint, costBasis: bigint, unpriced: boolean): Disposition {
    return {
      symbol: lot.symbol,
      accountId: lot.accountId,
      quantity: qty,
      acquiredAt: holdingFrom,
      soldAt,
      proceeds,
      costBasis,
      adjustment: 0n,
      gain: proceeds - costBasis,
      term: !lot.long ? "short" : isLongTerm(holdingFrom, soldAt) ? "long" : "short",
      washSale: null,
      section1256: lot.section1256,
      markedToMarket: false,
      markSource: null,
      short: !lot.long,
      unpriced,
    };
  }

  function fillEvent({ fill: f, key, closes, lot: opened }: Cut) {
    // Close what the fill closes, first in, first out.
    if (closes > 0n) {
      const list = openLots.get(key) ?? [];
      const money = multiplyUnits(multiplyUnits(closes, f.price), f.multiplier);
      const fees = share(f.fees, closes, f.quantity);
      const fold = assignments.get(f.id) ?? 0n;
      // A sale's proceeds less its fees; a cover's cost with them.
      let value = f.side === "sell" ? money - fees + fold : money + fees - fold;
      let left = closes;
      const rows: Array<{ lot: Lot; d: Disposition }> = [];
      while (left > 0n && list.length) {
        const lot = list[0]!;
        const slice = lot.slices.find((s) => s.qty > 0n)!;
        const take = slice.qty < left ? slice.qty : left;
        const part = share(value, take, left);
        value -= part;
        const basis = share(slice.basis, take, slice.qty);
        slice.basis -= basis;
        slice.qty -= take;
        if (!slice.replaced) lot.free -= take;
        left -= take;
        if (lot.slices.every((s) => s.qty === 0n)) list.shift();
        if (f.status === "taxable" && !assignments.has(`option:${f.id}`)) {
          const unpriced = slice.unpriced || f.unpriced === true;
          const d = lot.long ? row(lot, take, slice.holdingFrom, f.day, part, basis, unpriced) : row(lot, take, f.day, f.day, basis, part, unpriced);
          rows.push({ lot, d });
        }
      }
      for (const { lot, d } of rows) {
        dispositions.push(d);
        // An unpriced row's gain is not known in the base, so neither is whether it is a loss to wash.
        if (d.gain < 0n && !d.section1256 && !d.unpriced) {
          washSale(d, lot);
          d.gain += d.adjustment;
        }
      }
    }
    if (opened) {
      const list = openLots.get(key);
      if (list) list.push(opened);
      else openLots.set(key, [opened]);
    }
  }

  /**
   * `take` units of the lot's slice `i` replace `shares` of the sold shares of `d`: the slice is split off, and
   * that share of the loss goes into it (a long lot's cost rises, a short lot's proceeds fall) with the days the
   * sold shares were held, or, in an IRA, is lost for good.
   */
  function replaceBy(d: Disposition, loss: bigint, lot: Lot, i: number, take: bigint, shares: bigint) {
    const slice = lot.slices[i]!;
    if (take < slice.qty) {
      const kept = share(slice.basis, take, slice.qty);
      lot.slices.splice(i + 1, 0, { qty: slice.qty - take, basis: slice.basis - kept, holdingFrom: slice.holdingFrom, replaced: false, unpriced: slice.unpriced });
      slice.qty = take;
      slice.basis = kept;
    }
    slice.replaced = true;
    lot.free -= take;
    const disallowed = share(loss, shares, d.quantity);
    const permanent = lot.status === "ira";
    if (!permanent) {
      slice.basis += lot.long ? disallowed : -disallowed;
      slice.holdingFrom = addDays(slice.holdingFrom, -daysBetween(d.acquiredAt, d.soldAt));
      washed.push({ lot, slice, amount: disallowed, lossSoldAt: d.soldAt });
    }
    d.adjustment += disallowed;
    d.washSale = {
      code: "W",
      disallowed: d.adjustment,
      replacementLotOpenedAt: d.washSale?.replacementLotOpenedAt ?? lot.openedDay,
      permanent: (d.washSale?.permanent ?? false) || permanent,
    };
  }

  /** The wash-sale rule on one losing disposition `d` of `sold` (IRS Publication 550, "Wash Sales"). */
  function washSale(d: Disposition, sold: Lot) {
    const from = addDays(d.soldAt, -30);
    const to = addDays(d.soldAt, 30);
    let need = d.quantity;
    const loss = -d.gain;
    const candidates = bySymbol.get(sold.symbol) ?? [];
    // Lots are in the order they opened; their days are each account's, so the run is found by instant with a
    // margin of two days either side (no zone is further from UTC), then checked by day.
    const first = Date.parse(`${from}T00:00:00Z`) - 2 * DAY;
    const last = Date.parse(`${to}T00:00:00Z`) + 3 * DAY;
    let lo = 0;
    let hi = candidates.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (candidates[mid]!.openedAt < first) lo = mid + 1;
      else hi = mid;
    }
    for (let c = lo; c < candidates.length && need > 0n; c++) {
      const lot = candidates[c]!;
      if (lot.openedAt > last) break;
      if (lot.long !== sold.long || lot.free === 0n || lot === sold || lot.openedDay < from || lot.openedDay > to) continue;
      // Opened before the sale: only the part still held can carry the loss; each unit replaces once.
      for (let i = 0; i < lot.slices.length && need > 0n; i++) {
        const slice = lot.slices[i]!;
        if (slice.replaced || slice.qty === 0n) continue;
        const take = slice.qty < need ? slice.qty : need;
        replaceBy(d, loss, lot, i, take, take);
        need -= take;
      }
    }
    // Options on the stock bought in the window: listed for the trader to decide (Pub. 550: options to acquire
    // substantially identical stock may wash). One the trader decided is a wash sale replaces like stock, for the
    // shares its contracts cover (a contract's multiplier), with what the stock left of the loss.
    if (sold.long && !sold.section1256) {
      for (const { fill: o, lot } of optionBuys) {
        if (o.underlying !== sold.symbol || o.day < from || o.day > to) continue;
        const p = { symbol: sold.symbol, lossSoldAt: d.soldAt, replacementSymbol: o.symbol, replacementAt: o.day, loss };
        possible.push(p);
        if (need <= 0n || !lot || !input.washDecisions?.has(possibleKey(p))) continue;
        for (let i = 0; i < lot.slices.length && need > 0n; i++) {
          const slice = lot.slices[i]!;
          if (slice.replaced || slice.qty === 0n) continue;
          const covers = multiplyUnits(slice.qty, lot.multiplier);
          const shares = covers < need ? covers : need;
          replaceBy(d, loss, lot, i, shares === covers ? slice.qty : divideUnits(shares, lot.multiplier), shares);
          need -= shares;
        }
      }
    }
  }

  let e = 0;
  for (const cut of cuts) {
    while (e < events.length && events[e]!.at <= cut.fill.at) events[e++]!.run();
    fillEvent(cut);
  }
  while (e < events.length) events[e++]!.run();
  const basisUnknown = (year: number): UnmatchedSale[] =>
    [...openLots.values()].flatMap((list) =>
      list
        .filter((lot) => !lot.long && lot.stock && lot.status === "taxable" && lot.openedDay.startsWith(`${year}-`))
        .map((lot) => {
          const open = lot.slices.filter((s) => s.qty > 0n);
          return { symbol: lot.symbol, accountId: lot.accountId, soldAt: lot.openedDay, quantity: open.reduce((n, s) => n + s.qty, 0n), proceeds: open.reduce((n, s) => n + s.basis, 0n), unpriced: open.some((s) => s.unpriced) };
        })
        .filter((u) => u.quantity > 0n),
    );
  return { dispositions, possibleWashSales: possible, deferred: (year) => deferredBy.get(year) ?? [], basisUnknown };
}

/** Fills in time order, then by id (as Postgres orders uuids: their lowercase text). */
export const byTime = (a: Pick<TaxFill, "at" | "id">, b: Pick<TaxFill, "at" | "id">) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Assignments and exercises: an option fill closing at 0 (not the journal's expiry) with a stock fill of its
 * underlying in the same account within 60 s, at the strike, for quantity x multiplier shares. Returns the stock
 * fill's premium (`id` -> the option's net premium: received positive, paid negative) and marks the option
 * fill (`option:id`) so it leaves no row.
 */
function foldAssignments(fills: TaxFill[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  // The option's premium is the cash of its opening fills; with FIFO lots of one contract, its average.
  const opened = new Map<string, { qty: bigint; cash: bigint }>();
  for (const f of fills) {
    if (f.assetClass !== "option") continue;
    const key = `${f.accountId}\u0000${f.symbol}`;
    const o = opened.get(key) ?? { qty: 0n, cash: 0n };
    const cash = multiplyUnits(multiplyUnits(f.quantity, f.price), f.multiplier);
    if (f.price === 0n && !f.expiry && f.option) {
      const shares = multiplyUnits(f.quantity, f.multiplier);
      const stock = fills.find(
        (s) => s.assetClass === "stock" && s.accountId === f.accountId && s.symbol === f.underlying && Math.abs(s.at - f.at) <= 60_000 && s.quantity === shares && s.price === f.option!.strike && !out.has(s.id),
      );
      if (stock && o.qty !== 0n) {
        // The premium of the contracts closed, at the average of what opened them (signed: received > 0).
        const premium = (o.cash * f.quantity) / (o.qty < 0n ? -o.qty : o.qty);
        out.set(stock.id, premium);
        out.set(`option:${f.id}`, 0n);
      }
    }
    // Open cash: a sell to open brings premium in (+), a buy to open pays it (-).
    if ((f.side === "sell" && o.qty <= 0n) || (f.side === "buy" && o.qty >= 0n)) {
      o.cash += f.side === "sell" ? cash - f.fees : -(cash + f.fees);
      o.qty += f.side === "sell" ? -f.quantity : f.quantity;
    } else {
      const closing = f.quantity;
      const whole = o.qty < 0n ? -o.qty : o.qty;
      o.cash -= share(o.cash, closing < whole ? closing : whole, whole);
      o.qty += f.side === "buy" ? closing : -closing;
    }
    opened.set(key, o);
  }
  return out;
}
