// Tax lots and wash sales, the arithmetic (issue 58, docs/tax.md): IRS Publication 550's wash-sale examples
// reproduced, a partial wash, a chain over three trades, an IRA replacement (Rev. Rul. 2008-5), the one-year
// boundary on both sides, a short sale's wash, an assigned put's premium in the stock's basis, and a futures
// contract marked to market at the year end (Pub. 550's Section 1256 example).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { possibleKey, computeLots, isLongTerm, type TaxFill, type YearEndMark } from "../../lib/tax/engine.ts";
import { fromCents } from "../../lib/tax/tax.ts";
import { formatDecimal, fromUnits, toUnits, unitsToDecimal } from "../../lib/money.ts";

let n = 0;
/** A stock fill: `total` is the money of the fill (price x quantity), no fees. */
function fill(day: string, side: "buy" | "sell", quantity: string, total: string, over: Partial<TaxFill> = {}): TaxFill {
  const q = toUnits(quantity);
  return {
    id: `f${String(++n).padStart(4, "0")}`,
    accountId: "taxable",
    status: "taxable",
    symbol: "X",
    underlying: "X",
    assetClass: "stock",
    section1256: false,
    side,
    quantity: q,
    price: (toUnits(total) * 10n ** 10n) / q,
    fees: 0n,
    multiplier: toUnits("1"),
    at: Date.parse(`${day}T15:00:00Z`) + n,
    day,
    expiry: false,
    ...over,
  };
}

const run = (fills: TaxFill[], through = 2026, marks: YearEndMark[] = [], washDecisions?: ReadonlySet<string>) =>
  computeLots({ fills, splits: [], marks, through, yearEnd: (y) => Date.UTC(y + 1, 0, 1), ...(washDecisions ? { washDecisions } : {}) });

/** The dispositions as plain figures. */
const rows = (r: ReturnType<typeof run>) =>
  r.dispositions.map((d) => ({
    qty: fromUnits(d.quantity),
    acquired: d.acquiredAt,
    sold: d.soldAt,
    proceeds: fromUnits(d.proceeds),
    basis: fromUnits(d.costBasis),
    adjustment: fromUnits(d.adjustment),
    term: d.term,
    wash: d.washSale ? { disallowed: fromUnits(d.washSale.disallowed), permanent: d.washSale.permanent } : null,
  }));

describe("the holding period", () => {
  it("counts from the day after acquisition: long after more than one year", () => {
    expect(isLongTerm("2024-01-02", "2025-01-02")).toBe(false);
    expect(isLongTerm("2024-01-02", "2025-01-03")).toBe(true);
    // Bought 2015-02-28: the first year runs through the leap day 2016-02-29.
    expect(isLongTerm("2015-02-28", "2016-02-29")).toBe(false);
    expect(isLongTerm("2015-02-28", "2016-03-01")).toBe(true);
  });
});

describe("wash sales (IRS Publication 550)", () => {
  it("the basic example: 100 shares bought for $1,000, sold for $750, 100 bought back for $800: basis $1,050", () => {
    const r = run([fill("2026-03-02", "buy", "100", "1000"), fill("2026-06-01", "sell", "100", "750"), fill("2026-06-15", "buy", "100", "800"), fill("2026-09-01", "sell", "100", "1100")]);
    expect(rows(r)).toEqual([
      { qty: "100.00", acquired: "2026-03-02", sold: "2026-06-01", proceeds: "750.00", basis: "1000.00", adjustment: "250.00", term: "short", wash: { disallowed: "250.00", permanent: false } },
      // The replacement's basis is $800 + $250, and its holding period takes in the 91 days the first lot was held.
      { qty: "100.00", acquired: "2026-03-16", sold: "2026-09-01", proceeds: "1100.00", basis: "1050.00", adjustment: "0.00", term: "short", wash: null },
    ]);
  });

  it("fewer shares bought than sold: 75 of 100 replaced, the loss disallowed on them split by lot", () => {
    // Pub. 550's example: 100 bought 9/26 for $5,000; 50 on 12/19 for $2,750; 25 on 12/27 for $1,125; the 100 of
    // September sold 1/9 for $4,000: $750 disallowed, $250 deductible; bases $3,250 and $1,375.
    const r = run([
      fill("2025-09-26", "buy", "100", "5000"),
      fill("2025-12-19", "buy", "50", "2750"),
      fill("2025-12-27", "buy", "25", "1125"),
      fill("2026-01-09", "sell", "100", "4000"),
      fill("2026-03-02", "sell", "75", "4650"),
    ]);
    const [loss, later1, later2] = rows(r);
    expect(loss).toMatchObject({ qty: "100.00", proceeds: "4000.00", basis: "5000.00", adjustment: "750.00", wash: { disallowed: "750.00" } });
    expect(later1).toMatchObject({ qty: "50.00", basis: "3250.00" });
    expect(later2).toMatchObject({ qty: "25.00", basis: "1375.00" });
    // Deductible: the loss less the adjustment.
    expect(Number(loss!.proceeds) - Number(loss!.basis) + Number(loss!.adjustment)).toBe(-250);
  });

  it("more shares bought than needed: the first replacements in the order bought take the loss", () => {
    // Pub. 550: 100 sold at a $1,000 loss, then 50 bought on each of four days: $500 to each of the first two lots.
    const r = run([
      fill("2025-09-26", "buy", "100", "5000"),
      fill("2026-02-06", "sell", "100", "4000"),
      ...["2026-02-11", "2026-02-12", "2026-02-13", "2026-02-14"].map((d) => fill(d, "buy", "50", "2000")),
      fill("2026-06-01", "sell", "200", "8000"),
    ]);
    expect(rows(r).slice(1).map((x) => x.basis)).toEqual(["2500.00", "2500.00", "2000.00", "2000.00"]);
  });

  it("a loss and gains on the same day: only the losing block is washed", () => {
    // Pub. 550: blocks at $158, $100 and $95 a share, all 300 sold at $125, 250 bought back within 30 days.
    const r = run([
      fill("2024-03-01", "buy", "100", "15800"),
      fill("2024-04-01", "buy", "100", "10000"),
      fill("2024-05-01", "buy", "100", "9500"),
      fill("2026-12-27", "sell", "300", "37500"),
      fill("2027-01-09", "buy", "250", "30000"),
    ]);
    const [first, second, third] = rows(r);
    expect(first).toMatchObject({ proceeds: "12500.00", basis: "15800.00", adjustment: "3300.00", term: "long" });
    expect(second).toMatchObject({ proceeds: "12500.00", basis: "10000.00", adjustment: "0.00", wash: null });
    expect(third).toMatchObject({ basis: "9500.00", wash: null });
    // The replacement is bought next year: the loss is deferred into it, listed at the year's end.
    expect(r.deferred(2026)).toEqual([expect.objectContaining({ symbol: "X", lossSoldAt: "2026-12-27", replacementLotOpenedAt: "2027-01-09" })]);
  });

  it("half bought back: half the loss disallowed, the rest deductible", () => {
    const r = run([fill("2026-01-05", "buy", "100", "1000"), fill("2026-02-02", "sell", "100", "800"), fill("2026-02-20", "buy", "50", "390")]);
    expect(rows(r)[0]).toMatchObject({ adjustment: "100.00", wash: { disallowed: "100.00" } });
  });

  it("a chain over three trades: each loss carried into the next replacement, the last sale realising all", () => {
    const r = run([
      fill("2026-01-05", "buy", "10", "1000"),
      fill("2026-01-20", "sell", "10", "900"), // -100, washed into the next
      fill("2026-02-01", "buy", "10", "900"), // basis 1,000
      fill("2026-02-10", "sell", "10", "850"), // -150, washed into the next
      fill("2026-02-20", "buy", "10", "850"), // basis 1,000
      fill("2026-05-01", "sell", "10", "800"), // -200, none bought back
    ]);
    expect(rows(r).map((x) => [x.proceeds, x.basis, x.adjustment])).toEqual([
      ["900.00", "1000.00", "100.00"],
      ["850.00", "1000.00", "150.00"],
      ["800.00", "1000.00", "0.00"],
    ]);
    // The last lot's holding period took in both earlier ones: 15 + 9 days before 2026-02-20.
    expect(rows(r)[2]!.acquired).toBe("2026-01-27");
  });

  it("a replacement bought in an IRA disallows the loss for good (Rev. Rul. 2008-5)", () => {
    // 100 shares with a $1,000 basis sold for $600; the IRA buys 100 the next day.
    const r = run([fill("2026-06-01", "buy", "100", "1000"), fill("2026-12-20", "sell", "100", "600"), fill("2026-12-21", "buy", "100", "610", { accountId: "ira", status: "ira" }), fill("2027-03-01", "sell", "100", "700", { accountId: "ira", status: "ira" })]);
    expect(rows(r)).toEqual([expect.objectContaining({ adjustment: "400.00", wash: { disallowed: "400.00", permanent: true } })]);
    // Nothing carried: the IRA's basis is not raised, and its sale is no taxable row.
    expect(r.deferred(2026)).toEqual([]);
  });

  it("a short sale's loss is washed by another short sale within 30 days", () => {
    const r = run([
      fill("2026-03-02", "sell", "100", "5000"), // short at 50
      fill("2026-03-10", "buy", "100", "5500"), // covered at 55: -500
      fill("2026-03-20", "sell", "100", "5200"), // short again: proceeds less the 500
      fill("2026-04-01", "buy", "100", "4800"),
    ]);
    expect(rows(r)).toEqual([
      expect.objectContaining({ proceeds: "5000.00", basis: "5500.00", adjustment: "500.00", term: "short", acquired: "2026-03-10", sold: "2026-03-10" }),
      expect.objectContaining({ proceeds: "4700.00", basis: "4800.00", adjustment: "0.00" }),
    ]);
  });

  it("lists options on the stock bought in the window as possible wash sales, without adjusting", () => {
    const option = { symbol: "X     260619C00050000", underlying: "X", assetClass: "option" as const, multiplier: toUnits("100") };
    const r = run([fill("2026-01-05", "buy", "100", "5000"), fill("2026-02-02", "sell", "100", "4000"), fill("2026-02-10", "buy", "1", "300", option)]);
    expect(rows(r)[0]!.wash).toBeNull();
    expect(r.possibleWashSales).toEqual([{ symbol: "X", lossSoldAt: "2026-02-02", replacementSymbol: option.symbol, replacementAt: "2026-02-10", loss: toUnits("1000") }]);
  });

  it("a possible wash sale the trader decided is one: the loss goes into the option lot for the shares its contracts cover", () => {
    const option = { symbol: "X     260619C00050000", underlying: "X", assetClass: "option" as const, multiplier: toUnits("100") };
    const decided = new Set([possibleKey({ symbol: "X", lossSoldAt: "2026-02-02", replacementSymbol: option.symbol, replacementAt: "2026-02-10" })]);
    // 200 shares sold at a 2,000 loss; one contract (100 shares) bought back: half the loss is disallowed into it.
    const fills = [
      fill("2026-01-05", "buy", "200", "10000"),
      fill("2026-02-02", "sell", "200", "8000"),
      fill("2026-02-10", "buy", "1", "300", option),
      fill("2026-03-02", "sell", "1", "400", option),
    ];
    const r = run(fills, 2026, [], decided);
    expect(rows(r)).toEqual([
      expect.objectContaining({ qty: "200.00", proceeds: "8000.00", basis: "10000.00", adjustment: "1000.00", sold: "2026-02-02", wash: expect.objectContaining({ disallowed: "1000.00" }) }),
      // The contract's cost (300 a share, 30,000) and the 1,000 disallowed; its holding period tacked: from 2026-01-13.
      expect.objectContaining({ qty: "1.00", proceeds: "40000.00", basis: "31000.00", adjustment: "0.00", acquired: "2026-01-13", sold: "2026-03-02", wash: null }),
    ]);
    // Undecided, nothing moves.
    expect(rows(run(fills))[0]).toMatchObject({ adjustment: "0.00", wash: null });
    expect(rows(run(fills))[1]).toMatchObject({ basis: "30000.00", acquired: "2026-02-10" });
  });
});

describe("options and Section 1256", () => {
  it("an assigned short put: its premium lowers the stock's basis, and it leaves no row of its own", () => {
    const put = { symbol: "X     260320P00050000", underlying: "X", assetClass: "option" as const, multiplier: toUnits("100"), option: { right: "put" as const, strike: toUnits("50") } };
    const r = run([
      fill("2026-02-02", "sell", "1", "2", { ...put, price: toUnits("2") }), // $200 received
      { ...fill("2026-03-20", "buy", "1", "0", { ...put, price: 0n }), at: Date.parse("2026-03-20T20:00:00Z") }, // assigned: closed at 0
      { ...fill("2026-03-20", "buy", "100", "5000"), at: Date.parse("2026-03-20T20:00:30Z") }, // 100 shares at the strike, 30 s later
      fill("2026-05-01", "sell", "100", "4900"),
    ]);
    expect(rows(r)).toEqual([expect.objectContaining({ qty: "100.00", acquired: "2026-03-20", proceeds: "4900.00", basis: "4800.00", adjustment: "0.00" })]);
  });

  it("an option bought and expired: its premium is the loss, sold on the expiry at 0", () => {
    const call = { symbol: "X     260320C00050000", underlying: "X", assetClass: "option" as const, multiplier: toUnits("100") };
    const r = run([fill("2026-02-02", "buy", "2", "3", { ...call, price: toUnits("1.5") }), fill("2026-03-20", "sell", "2", "0", { ...call, price: 0n, expiry: true })]);
    expect(rows(r)).toEqual([expect.objectContaining({ qty: "2.00", proceeds: "0.00", basis: "300.00" })]);
  });

  it("a future held over the year end is marked to market, and the mark is next year's basis (Pub. 550's example)", () => {
    // Bought 6/22 for $50,000 (one contract of multiplier 1,000 at 50); worth $57,000 at the year's last close;
    // sold 2/1 for $56,000: $7,000 gain in the first year, $1,000 loss in the second.
    const future = { symbol: "CLM7", underlying: "CLM7", assetClass: "future" as const, section1256: true, multiplier: toUnits("1000") };
    const r = run(
      [fill("2026-06-22", "buy", "1", "50", { ...future, price: toUnits("50") }), fill("2027-02-01", "sell", "1", "56", { ...future, price: toUnits("56") })],
      2027,
      [{ symbol: "CLM7", year: 2026, price: toUnits("57"), source: "bars" }],
    );
    expect(r.dispositions.map((d) => [d.soldAt, fromUnits(d.proceeds), fromUnits(d.costBasis), fromUnits(d.gain), d.markedToMarket, d.section1256])).toEqual([
      ["2026-12-31", "57000.00", "50000.00", "7000.00", true, true],
      ["2027-02-01", "56000.00", "57000.00", "-1000.00", false, true],
    ]);
    // No wash sale for a Section 1256 contract, even bought back at once.
    const again = run([fill("2026-06-22", "buy", "1", "50", { ...future, price: toUnits("50") }), fill("2026-07-01", "sell", "1", "45", { ...future, price: toUnits("45") }), fill("2026-07-02", "buy", "1", "46", { ...future, price: toUnits("46") })]);
    expect(again.dispositions[0]!.washSale).toBeNull();
  });
});

describe("the figures' format", () => {
  it("fromUnits writes any amount as formatDecimal writes it (two decimals at least, no trailing zeros past them)", () => {
    for (const v of [0n, 1n, -1n, 10n ** 10n, -(10n ** 10n), 123_4500000000n, -5n, 10n ** 27n + 7n]) expect(fromUnits(v)).toBe(formatDecimal(unitsToDecimal(v)));
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 28n), max: 10n ** 28n }), (v) => fromUnits(v) === formatDecimal(unitsToDecimal(v))), { numRuns: 2000 });
  });

  it("fromCents writes cents as fromUnits writes the same amount", () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (c) => fromCents(c) === fromUnits(c * 10n ** 8n)), { numRuns: 2000 });
  });

  it("toUnits reads a column's text (10 decimals) and any shorter decimal alike", () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 28n), max: 10n ** 28n }), (v) => toUnits(unitsToDecimal(v)) === v && toUnits(fromUnits(v)) === v), { numRuns: 2000 });
    expect([toUnits("-.5000000000"), toUnits("+1.5000000000"), toUnits("7"), toUnits("-0.25")]).toEqual([-5_000_000_000n, 15_000_000_000n, 70_000_000_000n, -2_500_000_000n]);
  });
});
