import { describe, expect, it } from "vitest";
import { groupFilter } from "./breakdown.tsx";

describe("a breakdown group's trades", () => {
  it("become the trades list's filter for each way of grouping", () => {
    expect(groupFilter("symbol", "AAPL  261016C00230000")).toEqual({ symbol: "AAPL  261016C00230000" });
    expect(groupFilter("direction", "Short")).toEqual({ direction: "short" });
    expect(groupFilter("tag", "FOMO")).toEqual({ tag: "FOMO" });
    expect(groupFilter("setup", "Breakout")).toEqual({ setup: "Breakout" });
    expect(groupFilter("setup", "No setup")).toEqual({ noSetup: "1" });
    expect(groupFilter("weekday", "Monday")).toEqual({ entryWeekday: "1" });
    expect(groupFilter("weekday", "Sunday")).toEqual({ entryWeekday: "7" });
    expect(groupFilter("hour", "9")).toEqual({ entryHour: "9" });
    expect(groupFilter("rules", "Broke a rule")).toEqual({ rules: "broke" });
    expect(groupFilter("rules", "Kept every rule")).toEqual({ rules: "kept" });
    expect(groupFilter("weekday", "Someday")).toBeNull();
  });
});
