import { describe, expect, it } from "vitest";
import { monthQuery, periodDays, rangeQuery, todayIn } from "./range.ts";

describe("dashboard periods", () => {
  it("turns whole days in the account's zone into an exclusive instant range (DST-aware)", () => {
    expect(rangeQuery({ from: "2024-03-10", to: "2024-03-10" }, "America/New_York")).toEqual({
      from: "2024-03-10T05:00:00.000Z",
      to: "2024-03-11T04:00:00.000Z", // the day after the spring-forward is at UTC-4
    });
    expect(rangeQuery({ from: "2024-01-01", to: "" }, "Asia/Tokyo")).toEqual({ from: "2023-12-31T15:00:00.000Z" });
    expect(rangeQuery(null, "Etc/UTC")).toEqual({});
  });

  it("names the days of each period from today", () => {
    const custom = { from: "2024-01-05", to: "2024-01-09" };
    expect(periodDays("all", "2024-03-15", custom)).toBeNull();
    expect(periodDays("month", "2024-03-15", custom)).toEqual({ from: "2024-03-01", to: "2024-03-15" });
    expect(periodDays("30d", "2024-03-15", custom)).toEqual({ from: "2024-02-15", to: "2024-03-15" });
    expect(periodDays("ytd", "2024-03-15", custom)).toEqual({ from: "2024-01-01", to: "2024-03-15" });
    expect(periodDays("custom", "2024-03-15", custom)).toEqual(custom);
  });

  it("today is the zone's date, not the browser's", () => {
    const now = new Date("2024-01-19T23:30:00Z");
    expect(todayIn("Asia/Tokyo", now)).toBe("2024-01-20");
    expect(todayIn("America/New_York", now)).toBe("2024-01-19");
  });

  it("a calendar month's query covers that month in every zone", () => {
    expect(monthQuery({ year: 2024, month: 12 })).toEqual({ from: "2024-11-30T10:00:00.000Z", to: "2025-01-01T12:00:00.000Z" });
  });
});
