import { render, screen } from "@testing-library/react";
import { createElement } from "react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { BreakdownTable, groupFilter } from "./breakdown.tsx";

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

describe("the breakdown table", () => {
  it("names an option as the rest of the app does, not by its OCC code; the win rate from its counts", () => {
    render(
      createElement(
        MemoryRouter,
        null,
        createElement(BreakdownTable, {
          by: "symbol",
          unit: { kind: "money", currency: "USD" },
          groups: [{ key: "SPY   240216C00480000", netPnl: "-120", trades: 11, wins: 6, closed: 11 }],
        }),
      ),
    );
    const row = screen.getByRole("row", { name: /SPY 16 Feb 24 480 Call/ });
    expect(row.textContent).not.toContain("240216C00480000");
    expect(row.textContent).toContain("54.5%");
  });
});
