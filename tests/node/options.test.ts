// Option strategies' pure parts (lib/options): each kind classified from hand-written legs (and the near misses
// that must not be), max profit, max loss and breakevens at expiry against hand-computed values, and Black-Scholes
// prices, Greeks and implied volatility against textbook values (Hull, "Options, Futures, and Other Derivatives").
import { describe, expect, it } from "vitest";
import { greeks, impliedVolatility, normalCdf, price } from "../../lib/options/black-scholes.ts";
import { classify, isCredit, payoffAtExpiry, payoffLine, type Leg } from "../../lib/options/strategy-shape.ts";

const EXP = "2026-01-16";
const LATER = "2026-02-20";
const call = (side: "long" | "short", strike: string, premium: string, quantity = "1", expiry = EXP): Leg => ({ right: "call", strike, expiry, side, quantity, multiplier: "100", price: premium });
const put = (side: "long" | "short", strike: string, premium: string, quantity = "1", expiry = EXP): Leg => ({ right: "put", strike, expiry, side, quantity, multiplier: "100", price: premium });
const shares = (quantity: string, at: string): Leg => ({ right: null, side: "long", quantity, multiplier: "1", price: at });

describe("a strategy's kind, from its legs", () => {
  it("classifies each kind", () => {
    expect(classify([call("long", "100", "3")])).toBe("single");
    expect(classify([put("short", "100", "3"), put("long", "95", "1")])).toBe("vertical");
    expect(classify([call("long", "100", "3"), put("long", "100", "2.5")])).toBe("straddle");
    expect(classify([call("short", "105", "2"), put("short", "95", "2")])).toBe("strangle");
    expect(classify([put("long", "90", "0.5"), put("short", "95", "1.5"), call("short", "105", "1.4"), call("long", "110", "0.4")])).toBe("iron_condor");
    expect(classify([put("long", "95", "0.5"), put("short", "100", "2"), call("short", "100", "2"), call("long", "105", "0.5")])).toBe("iron_butterfly");
    expect(classify([call("long", "95", "6"), call("short", "100", "3", "2"), call("long", "105", "1")])).toBe("butterfly");
    expect(classify([call("short", "100", "2"), call("long", "100", "3.5", "1", LATER)])).toBe("calendar");
    expect(classify([call("short", "105", "1"), call("long", "100", "4", "1", LATER)])).toBe("diagonal");
    expect(classify([shares("100", "50"), call("short", "55", "1")])).toBe("covered_call");
    expect(classify([shares("100", "50"), put("long", "45", "1")])).toBe("protective_put");
    expect(classify([shares("200", "50"), put("long", "45", "1", "2"), call("short", "55", "1", "2")])).toBe("collar");
  });

  it("a near miss is custom, never the shape it almost is", () => {
    // An iron butterfly with wings of 5 and 10.
    expect(classify([put("long", "95", "0.5"), put("short", "100", "2"), call("short", "100", "2"), call("long", "110", "0.3")])).toBe("custom");
    // A vertical's two strikes on two expiries is a diagonal, not a vertical; the same strike and expiry twice is nothing.
    expect(classify([put("short", "100", "3"), put("long", "95", "1", "1", LATER)])).toBe("diagonal");
    expect(classify([put("short", "100", "3"), put("long", "100", "3")])).toBe("custom");
    // A butterfly with a lopsided body, and one with wings of 5 and 10.
    expect(classify([call("long", "95", "6"), call("short", "100", "3", "3"), call("long", "105", "1")])).toBe("custom");
    expect(classify([call("long", "95", "6"), call("short", "100", "3", "2"), call("long", "110", "1")])).toBe("custom");
    // Unequal sizes; a covered call short of shares; a straddle over two expiries.
    expect(classify([put("short", "100", "3", "2"), put("long", "95", "1")])).toBe("custom");
    expect(classify([shares("50", "50"), call("short", "55", "1")])).toBe("custom");
    expect(classify([call("long", "100", "3"), put("long", "100", "2.5", "1", LATER)])).toBe("custom");
  });

  it("credit: the short premium is more than the long", () => {
    expect(isCredit([put("short", "100", "3"), put("long", "95", "1")])).toBe(true);
    expect(isCredit([call("long", "100", "4"), call("short", "105", "1.5")])).toBe(false);
  });
});

describe("the payoff at expiry, as opened (fees excluded)", () => {
  it("a credit vertical: a bull put of 100/95 for 2.00", () => {
    expect(payoffAtExpiry([put("short", "100", "3"), put("long", "95", "1")])).toEqual({ maxProfit: "200.00", maxLoss: "300.00", breakevens: ["98.00"] });
  });
  it("a debit vertical: a bull call of 100/105 for 2.50", () => {
    expect(payoffAtExpiry([call("long", "100", "4"), call("short", "105", "1.5")])).toEqual({ maxProfit: "250.00", maxLoss: "250.00", breakevens: ["102.50"] });
  });
  it("an iron condor of 90/95/105/110 for 2.00", () => {
    expect(payoffAtExpiry([put("long", "90", "0.5"), put("short", "95", "1.5"), call("short", "105", "1.4"), call("long", "110", "0.4")])).toEqual({
      maxProfit: "200.00",
      maxLoss: "300.00",
      breakevens: ["93.00", "107.00"],
    });
  });
  it("a long straddle at 100 for 5.50: the profit unbounded", () => {
    expect(payoffAtExpiry([call("long", "100", "3"), put("long", "100", "2.5")])).toEqual({ maxProfit: null, maxLoss: "550.00", breakevens: ["94.50", "105.50"] });
  });
  it("a short call: the loss unbounded; a covered call: bounded both ways, two contracts", () => {
    expect(payoffAtExpiry([call("short", "105", "2")])).toEqual({ maxProfit: "200.00", maxLoss: null, breakevens: ["107.00"] });
    expect(payoffAtExpiry([shares("200", "50"), call("short", "55", "1", "2")])).toEqual({ maxProfit: "1200.00", maxLoss: "9800.00", breakevens: ["49.00"] });
  });
  it("a calendar has no single expiry to read it at", () => {
    expect(payoffAtExpiry([call("short", "100", "2"), call("long", "100", "3.5", "1", LATER)])).toEqual({ maxProfit: null, maxLoss: null, breakevens: [] });
  });
  it("the line drawn: the ends and every strike between (where it bends), none for a calendar", () => {
    const condor = [put("long", "90", "0.5"), put("short", "95", "1.5"), call("short", "105", "1.4"), call("long", "110", "0.4")];
    expect(payoffLine(condor, "85", "107")).toEqual([
      { price: "85.00", profit: "-300.00" },
      { price: "90.00", profit: "-300.00" },
      { price: "95.00", profit: "200.00" },
      { price: "105.00", profit: "200.00" },
      { price: "107.00", profit: "0.00" },
    ]);
    expect(payoffLine([shares("100", "50"), call("short", "55", "1")], "40", "60")).toEqual([
      { price: "40.00", profit: "-900.00" },
      { price: "55.00", profit: "600.00" },
      { price: "60.00", profit: "600.00" },
    ]);
    expect(payoffLine([call("short", "100", "2"), call("long", "100", "3.5", "1", LATER)], "90", "110")).toEqual([]);
  });
});

describe("Black-Scholes, against the textbook", () => {
  it("the normal distribution function", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 12);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 12);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 12);
  });

  it("prices: Hull's example 15.6 (S 42, K 40, r 10%, vol 20%, 6 months): call 4.76, put 0.81", () => {
    const base = { spot: 42, strike: 40, years: 0.5, rate: 0.1, volatility: 0.2 };
    expect(price({ ...base, right: "call" })).toBeCloseTo(4.76, 2);
    expect(price({ ...base, right: "put" })).toBeCloseTo(0.81, 2);
  });

  it("prices: Hull's problems (S 52, K 50, r 12%, vol 30%, 3 months: call 5.06; S 69, K 70, r 5%, vol 35%, 6 months: put 6.40)", () => {
    expect(price({ right: "call", spot: 52, strike: 50, years: 0.25, rate: 0.12, volatility: 0.3 })).toBeCloseTo(5.06, 2);
    expect(price({ right: "put", spot: 69, strike: 70, years: 0.5, rate: 0.05, volatility: 0.35 })).toBeCloseTo(6.4, 2);
  });

  it("Greeks: Hull's chapter 19 example (S 49, K 50, r 5%, vol 20%, 20 weeks): delta 0.522, gamma 0.066, theta -4.31 a year, vega 12.1 a unit of vol", () => {
    const g = greeks({ right: "call", spot: 49, strike: 50, years: 20 / 52, rate: 0.05, volatility: 0.2 });
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.theta * 365).toBeCloseTo(-4.31, 2);
    expect(g.vega * 100).toBeCloseTo(12.1, 1);
    // A put's delta is the call's less one.
    expect(greeks({ right: "put", spot: 49, strike: 50, years: 20 / 52, rate: 0.05, volatility: 0.2 }).delta).toBeCloseTo(0.522 - 1, 3);
  });

  it("implied volatility: the volatility that prices the premium back; none for a premium no volatility gives", () => {
    const inputs = { right: "call" as const, spot: 49, strike: 50, years: 20 / 52, rate: 0.05 };
    const premium = price({ ...inputs, volatility: 0.2 });
    expect(premium).toBeCloseTo(2.4, 2);
    expect(impliedVolatility(premium, inputs)).toBeCloseTo(0.2, 8);
    expect(impliedVolatility(price({ ...inputs, right: "put", volatility: 0.85 }), { ...inputs, right: "put" })).toBeCloseTo(0.85, 8);
    expect(impliedVolatility(0.5, { ...inputs, spot: 60 })).toBeNull(); // below the intrinsic 10
    expect(impliedVolatility(50, inputs)).toBeNull(); // at or above the spot
  });
});
