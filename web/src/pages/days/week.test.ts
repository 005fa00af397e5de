import { describe, expect, it } from "vitest";
import { isDay, weekDays, weekStartOf } from "./week.ts";

describe("the journal's week", () => {
  it("starts on the instance's first weekday, across a month and a DST change", () => {
    // 2026-11-01 is a Sunday (and the day New York leaves DST).
    expect(weekStartOf("2026-11-04", 1)).toBe("2026-11-02");
    expect(weekStartOf("2026-11-04", 0)).toBe("2026-11-01");
    expect(weekStartOf("2026-11-01", 1)).toBe("2026-10-26");
    expect(weekStartOf("2026-11-02", 1)).toBe("2026-11-02");
    expect(weekDays("2026-12-28")).toEqual(["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02", "2027-01-03"]);
  });

  it("reads a day from the address only when it is one", () => {
    expect(isDay("2026-11-24")).toBe(true);
    expect(isDay("2026-13-01")).toBe(false);
    expect(isDay("yesterday")).toBe(false);
    expect(isDay(null)).toBe(false);
  });
});
