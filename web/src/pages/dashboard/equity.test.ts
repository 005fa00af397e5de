import { describe, expect, it } from "vitest";
import { labelIndexes, scaleEquity, type EquityPoint } from "./equity.ts";

const box = { width: 110, height: 120, top: 10, right: 0, bottom: 10, left: 10 };
const pt = (equity: string, i = 0): EquityPoint => ({ start: `2024-01-${String(i + 1).padStart(2, "0")}`, netPnl: "0", equity, trades: 1 });

describe("equity curve scaling", () => {
  it("spreads buckets edge to edge and maps the highest value to the top, the lowest to the bottom", () => {
    const g = scaleEquity([pt("100", 0), pt("-100", 1), pt("0", 2)], box);
    expect(g.coords.map((c) => c.x)).toEqual([10, 60, 110]);
    expect(g.coords.map((c) => c.y)).toEqual([10, 110, 60]);
    expect(g.zeroY).toBe(60);
    expect(g.line).toBe("M10 10 L60 110 L110 60");
    expect(g.area).toBe("M10 10 L60 110 L110 60 L110 60 L10 60 Z");
    expect([g.max, g.min]).toEqual(["100", "-100"]);
  });

  it("always includes zero, so an all-gain curve rises from the bottom edge", () => {
    const g = scaleEquity([pt("50", 0), pt("150", 1)], box);
    expect(g.zeroY).toBe(110);
    expect(g.coords.map((c) => c.y)).toEqual([76.67, 10]);
    expect(g.min).toBe("0");
  });

  it("picks extremes by exact decimal comparison (values that are equal as floats stay apart)", () => {
    // As floats both are 9007199254740992; as decimals the second is larger and must be the max label.
    const g = scaleEquity([pt("9007199254740992.00", 0), pt("9007199254740993.00", 1)], box);
    expect(g.max).toBe("9007199254740993.00");
  });

  it("draws one point in the middle and a flat zero curve along the middle, without dividing by zero", () => {
    expect(scaleEquity([pt("25")], box).coords[0]).toMatchObject({ x: 60, y: 10 });
    const flat = scaleEquity([pt("0", 0), pt("0", 1)], box);
    expect(flat.coords.map((c) => c.y)).toEqual([60, 60]);
    expect(scaleEquity([], box)).toMatchObject({ line: "", area: "", coords: [] });
  });

  it("spreads axis labels evenly, first and last always included", () => {
    expect(labelIndexes(3, 5)).toEqual([0, 1, 2]);
    expect(labelIndexes(10, 4)).toEqual([0, 3, 6, 9]);
    expect(labelIndexes(0, 4)).toEqual([]);
  });
});
