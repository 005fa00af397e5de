import { describe, expect, it } from "vitest";
import { isoToWall, nextDay, wallToIso, zoneLabel } from "./zoned-input.ts";

describe("times typed in the account's zone", () => {
  it("reads a wall time in the zone, whatever the browser's zone", () => {
    expect(wallToIso("2026-03-02T09:35", "America/New_York")).toBe("2026-03-02T14:35:00.000Z");
    expect(wallToIso("2026-07-01T09:35:20", "America/New_York")).toBe("2026-07-01T13:35:20.000Z");
    expect(wallToIso("2026-03-02T09:35", "Europe/London")).toBe("2026-03-02T09:35:00.000Z");
    expect(wallToIso("2026-03-02", "Asia/Tokyo")).toBe("2026-03-01T15:00:00.000Z");
  });
  it("refuses what is not a time", () => {
    expect(wallToIso("", "America/New_York")).toBeUndefined();
    expect(wallToIso("2026-13-02T09:35", "America/New_York")).toBeUndefined();
    expect(wallToIso("yesterday", "America/New_York")).toBeUndefined();
  });
  it("fills a field on the zone's clock, round trip included", () => {
    expect(isoToWall("2026-03-02T14:35:00Z", "America/New_York")).toBe("2026-03-02T09:35");
    expect(isoToWall("2026-03-02T14:35:07Z", "America/New_York")).toBe("2026-03-02T09:35:07");
    expect(wallToIso(isoToWall("2026-11-01T05:30:00Z", "America/New_York"), "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
  });
  it("names the zone and steps a day", () => {
    expect(zoneLabel("America/New_York")).toBe("New York time (America/New_York)");
    expect(zoneLabel("Etc/UTC")).toBe("UTC");
    expect(nextDay("2026-03-31")).toBe("2026-04-01");
  });
});
