import { describe, expect, it } from "vitest";
import { formatFactor, formatRate } from "./format.ts";

describe("dashboard figures", () => {
  it("rates and factors", () => {
    expect(formatRate("0.5833", "en-US")).toBe("58.3%");
    expect(formatRate(null, "en-US")).toBe("—");
    expect(formatFactor("2.5000", "en-US")).toBe("2.50");
    expect(formatFactor(null, "en-US")).toBe("—");
  });
});
