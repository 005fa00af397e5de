// The payoff diagram's data and a strategy's name: the range drawn around the strikes, breakevens and the
// underlying (at entry and now), the line's points at its bends, nothing for legs of two expiries or an unreadable
// leg; names as the screens give them.
import { describe, expect, it } from "vitest";
import { payoffData, type ApiLeg } from "./payoff.ts";
import { payoffFigure, strategyName } from "./kinds.ts";

const put = (side: "long" | "short", strike: string, price: string, expiry = "2027-01-15"): ApiLeg => ({
  assetClass: "option", right: "put", strike, expiry, side, quantity: "1", multiplier: "100", price, entry: null,
});

describe("the payoff diagram's data", () => {
  it("a bull put spread: 10 % around its strikes and breakeven, the profit at each end and at each strike", () => {
    const legs = [put("short", "100", "3"), put("long", "95", "1")];
    const data = payoffData(legs, ["98.00"])!;
    expect(data.low).toBeCloseTo(85.5);
    expect(data.high).toBeCloseTo(110);
    expect(data.points).toEqual([
      { price: 85.5, profit: -300 },
      { price: 95, profit: -300 },
      { price: 100, profit: 200 },
      { price: 110, profit: 200 },
    ]);
  });

  it("the underlying now widens the range; two expiries or a leg that does not read give nothing to draw", () => {
    const legs = [put("short", "100", "3"), put("long", "95", "1")];
    expect(payoffData(legs, ["98.00"], "130")!.high).toBeCloseTo(143);
    expect(payoffData([put("short", "100", "3"), put("long", "100", "4", "2027-02-19")], [])).toBeNull();
    expect(payoffData([{ ...put("long", "100", "3"), right: null, strike: null, expiry: null }], [])).toBeNull();
  });
});

describe("a strategy's name and limits", () => {
  it("a single by side and right, a spread by kind and how it opened, shares-held kinds plainly", () => {
    expect(strategyName({ kind: "single", credit: true, legs: [{ side: "short", right: "put" }] })).toBe("Short put");
    expect(strategyName({ kind: "iron_condor", credit: true, legs: [] })).toBe("Iron condor (credit)");
    expect(strategyName({ kind: "vertical", credit: false, legs: [] })).toBe("Vertical spread (debit)");
    expect(strategyName({ kind: "covered_call", credit: true, legs: [] })).toBe("Covered call");
  });

  it("an unbounded figure says No limit; one without a single expiry, a dash", () => {
    const money = (v: string) => `$${v}`;
    const one = { currency: "USD", legs: [{ assetClass: "option" as const, right: "call" as const, expiry: "2027-01-15" }] };
    expect(payoffFigure("120.00", one, money)).toBe("$120.00");
    expect(payoffFigure(null, one, money)).toBe("No limit");
    expect(payoffFigure(null, { ...one, legs: [...one.legs, { assetClass: "option", right: "call", expiry: "2027-02-19" }] }, money)).toBe("—");
  });
});
