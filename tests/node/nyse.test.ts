// The exchange calendar the demo data trades on (lib/time/nyse.ts), against the NYSE's published holidays.
import { describe, expect, it } from "vitest";
import { isNyseTradingDay, nyseHolidays } from "../../lib/time/nyse.ts";

describe("NYSE holidays", () => {
  it("are the exchange's published full-day closures, with weekend holidays moved as it moves them", () => {
    expect([...nyseHolidays(2025)].sort()).toEqual([
      "2025-01-01", "2025-01-20", "2025-02-17", "2025-04-18", "2025-05-26", "2025-06-19", "2025-07-04", "2025-09-01", "2025-11-27", "2025-12-25",
    ]);
    // Independence Day on a Saturday: closed the Friday before.
    expect([...nyseHolidays(2026)].sort()).toEqual([
      "2026-01-01", "2026-01-19", "2026-02-16", "2026-04-03", "2026-05-25", "2026-06-19", "2026-07-03", "2026-09-07", "2026-11-26", "2026-12-25",
    ]);
    // Juneteenth and Christmas on a Saturday (Friday), Independence Day on a Sunday (Monday).
    expect([...nyseHolidays(2027)].sort()).toEqual([
      "2027-01-01", "2027-01-18", "2027-02-15", "2027-03-26", "2027-05-31", "2027-06-18", "2027-07-05", "2027-09-06", "2027-11-25", "2027-12-24",
    ]);
    // New Year's Day on a Saturday is not moved to the year's last trading day; Sunday holidays move to Monday.
    expect([...nyseHolidays(2022)].sort()).toEqual([
      "2022-01-17", "2022-02-21", "2022-04-15", "2022-05-30", "2022-06-20", "2022-07-04", "2022-09-05", "2022-11-24", "2022-12-26",
    ]);
    // Before 2022 there was no Juneteenth.
    expect([...nyseHolidays(2021)]).not.toContain("2021-06-18");
  });

  it("trading days are weekdays that are not holidays", () => {
    expect(isNyseTradingDay("2026-11-26")).toBe(false); // Thanksgiving
    expect(isNyseTradingDay("2026-11-27")).toBe(true); // the day after (an early close, still a trading day)
    expect(isNyseTradingDay("2026-11-28")).toBe(false); // Saturday
    expect(isNyseTradingDay("2021-12-31")).toBe(true);
  });
});
