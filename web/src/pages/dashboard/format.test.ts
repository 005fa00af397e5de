import { describe, expect, it } from "vitest";
import { formatFactor, formatWinRate } from "./format.ts";

describe("dashboard figures", () => {
  it("rates and factors", () => {
    expect(formatWinRate(7, 12, "en-US")).toBe("58.3%");
    // Rounded once: 6 of 11 is 54.54...%, not the 54.6% that rounding "0.5455" again gives.
    expect(formatWinRate(6, 11, "en-US")).toBe("54.5%");
    expect(formatWinRate(0, 0, "en-US")).toBe("—");
    expect(formatFactor("2.5000", "en-US")).toBe("2.50");
    expect(formatFactor(null, "en-US")).toBe("—");
  });
});
