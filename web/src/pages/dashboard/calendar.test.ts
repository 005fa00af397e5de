import { describe, expect, it } from "vitest";
import { addMonths, daysInMonth, monthBounds, monthGrid, weekdayHeadings } from "./calendar.ts";

const days = (weeks: ReturnType<typeof monthGrid>) => weeks.map((w) => w.map((c) => (c ? c.day : 0)));

describe("calendar month grid", () => {
  it("puts the 1st under its weekday for a Sunday start (February 2024 starts on a Thursday, leap year)", () => {
    const grid = monthGrid({ year: 2024, month: 2 }, 0);
    expect(days(grid)).toEqual([
      [0, 0, 0, 0, 1, 2, 3],
      [4, 5, 6, 7, 8, 9, 10],
      [11, 12, 13, 14, 15, 16, 17],
      [18, 19, 20, 21, 22, 23, 24],
      [25, 26, 27, 28, 29, 0, 0],
    ]);
    expect(grid[0]![4]).toEqual({ date: "2024-02-01", day: 1 });
    expect(grid[4]![4]).toEqual({ date: "2024-02-29", day: 29 });
  });

  it("shifts by one column for a Monday start", () => {
    const grid = monthGrid({ year: 2024, month: 2 }, 1);
    expect(days(grid)[0]).toEqual([0, 0, 0, 1, 2, 3, 4]);
    expect(days(grid).at(-1)).toEqual([26, 27, 28, 29, 0, 0, 0]);
  });

  it("uses exactly the weeks the month touches: 4, 5 or 6", () => {
    expect(monthGrid({ year: 2015, month: 2 }, 0)).toHaveLength(4); // Feb 2015: 1st on a Sunday, 28 days
    expect(monthGrid({ year: 2015, month: 2 }, 1)).toHaveLength(5);
    expect(monthGrid({ year: 2024, month: 6 }, 0)).toHaveLength(6); // June 2024: 1st on a Saturday, 30 days
    expect(monthGrid({ year: 2024, month: 9 }, 1)).toHaveLength(6); // September 2024: 1st on a Sunday
    for (const week of monthGrid({ year: 2024, month: 12 }, 1)) expect(week).toHaveLength(7);
  });

  it("puts a month starting on the week's first day in the first column", () => {
    expect(monthGrid({ year: 2024, month: 1 }, 1)[0]![0]).toEqual({ date: "2024-01-01", day: 1 }); // a Monday
    expect(monthGrid({ year: 2024, month: 9 }, 0)[0]![0]).toEqual({ date: "2024-09-01", day: 1 }); // a Sunday
  });

  it("knows month lengths, steps over year ends and bounds a month", () => {
    expect([daysInMonth({ year: 2023, month: 2 }), daysInMonth({ year: 2024, month: 2 }), daysInMonth({ year: 2024, month: 12 })]).toEqual([28, 29, 31]);
    expect(addMonths({ year: 2024, month: 12 }, 1)).toEqual({ year: 2025, month: 1 });
    expect(addMonths({ year: 2024, month: 1 }, -1)).toEqual({ year: 2023, month: 12 });
    expect(addMonths({ year: 2024, month: 3 }, -15)).toEqual({ year: 2022, month: 12 });
    expect(monthBounds({ year: 2024, month: 12 })).toEqual({ first: "2024-12-01", next: "2025-01-01" });
  });

  it("heads the columns in grid order", () => {
    expect(weekdayHeadings(0, "en-US").map((h) => h.long)).toEqual(["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]);
    expect(weekdayHeadings(1, "en-US").map((h) => h.short)).toEqual(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
  });
});
