// The trade chart's data at each replay position: candles up to the bar, the fills that have happened by its
// end (each on its bar), the average cost and the running P&L so far; the path through the fills without bars.
import { describe, expect, it } from "vitest";
import { barIndexAt, fillsAt, pnlOf, replayStart, seconds, seriesUpTo, type ChartData } from "./chart-data.ts";

const minute = (i: number, s = 0) => new Date(Date.parse("2026-03-02T14:30:00Z") + i * 60_000 + s * 1000).toISOString();
const bar = (i: number) => ({ t: minute(i), open: "100", high: "101", low: "99", close: "100.5", volume: "10" });
const DATA: ChartData = {
  bars: [0, 1, 2, 3, 4, 5].map(bar),
  fills: [
    { id: "a", t: minute(1, 30), side: "buy", quantity: "100.00", price: "100.05", role: "open" },
    { id: "b", t: minute(3, 10), side: "buy", quantity: "100.00", price: "100.15", role: "add" },
    { id: "c", t: minute(4, 0), side: "sell", quantity: "200.00", price: "100.25", role: "close" },
  ],
  averageCost: [
    { t: minute(1, 30), price: "100.05" },
    { t: minute(3, 10), price: "100.10" },
    { t: minute(4, 0), price: null },
  ],
  direction: "long",
  multiplier: "1.00",
  closedAt: minute(4),
};

describe("the chart's data", () => {
  it("the running P&L after each fill and at each bar's close, with the position held at the bar's start", () => {
    expect(pnlOf(DATA).map((p) => [p.t, p.pnl])).toEqual([
      [minute(1, 30), "0.00"], // the opening fill
      [minute(2), "45.00"], // 100 from 100.05, closing at 100.50
      [minute(3), "45.00"],
      [minute(3, 10), "10.00"], // 200 at 100.10 marked at 100.15
      [minute(4), "30.00"], // closed at the start of minute 4 (that bar starts flat): 200 x 0.15
    ]);
  });

  it("puts each fill on the bar it happened in", () => {
    expect(barIndexAt(DATA.bars, minute(1, 30))).toBe(1);
    expect(barIndexAt(DATA.bars, minute(4))).toBe(4);
    expect(barIndexAt(DATA.bars, "2026-03-02T14:29:00Z")).toBe(-1);
    const all = seriesUpTo(DATA);
    expect(all.markers.map((m) => [m.time, m.text, m.position])).toEqual([
      [seconds(minute(1)), "B 100", "belowBar"],
      [seconds(minute(3)), "B 100", "belowBar"],
      [seconds(minute(4)), "S 200", "aboveBar"],
    ]);
    expect(fillsAt(DATA, seconds(minute(3))).map((f) => f.id)).toEqual(["b"]);
    expect(all.finished).toBe(true);
  });

  it("a replay shows only what had happened by the end of its bar", () => {
    expect(replayStart(DATA)).toBe(0);
    const before = seriesUpTo(DATA, 0);
    expect([before.candles.length, before.fills.length, before.lastPnl, before.finished]).toEqual([1, 0, null, false]);
    const first = seriesUpTo(DATA, 1);
    expect([first.candles.length, first.fills.map((f) => f.id), first.cost.map((c) => c.value), first.lastPnl]).toEqual([2, ["a"], [100.05], "0.00"]);
    const third = seriesUpTo(DATA, 3);
    expect([third.fills.map((f) => f.id), third.cost.map((c) => c.value), third.lastPnl]).toEqual([["a", "b"], [100.05, 100.1], "10.00"]);
    const end = seriesUpTo(DATA, 5);
    expect([end.fills.length, end.cost.at(-1)?.value, end.lastPnl, end.finished]).toEqual([3, null, "30.00", true]);
  });

  it("without bars, the path through the fills at their own times", () => {
    const bare = seriesUpTo({ ...DATA, bars: [] });
    expect(bare.path).toEqual([
      { time: seconds(minute(1, 30)), value: 100.05 },
      { time: seconds(minute(3, 10)), value: 100.15 },
      { time: seconds(minute(4)), value: 100.25 },
    ]);
    expect(bare.markers.map((m) => m.time)).toEqual(bare.path.map((p) => p.time));
  });
});
