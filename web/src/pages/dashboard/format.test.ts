import { describe, expect, it } from "vitest";
import { formatAmount, formatFactor, formatPnl, formatPnlCompact, formatRate, toneOf } from "./format.ts";

describe("P&L formatting", () => {
  it("writes the sign as text and two decimals", () => {
    expect(formatPnl("1234.5", "USD", "en-US")).toBe("+$1,234.50");
    expect(formatPnl("-12", "USD", "en-US")).toBe("-$12.00");
    expect(formatPnl("0.00", "USD", "en-US")).toBe("$0.00");
    expect(formatPnl("-1000.25", "EUR", "de-DE")).toBe("-1.000,25\u00a0€");
  });

  it("formats the decimal string exactly, beyond float precision", () => {
    // As a float this would print 12,345,678,901,234,568.00.
    expect(formatPnl("12345678901234567.89", "USD", "en-US")).toBe("+$12,345,678,901,234,567.89");
    expect(formatAmount("0.005", "USD", "en-US")).toBe("$0.01"); // half away from zero, on the decimal digits
  });

  it("falls back to a plain signed number without a currency or with an unknown one", () => {
    expect(formatPnl("5", null, "en-US")).toBe("+5.00");
    expect(formatPnl("5", "NOT-A-CODE", "en-US")).toBe("+5.00 NOT-A-CODE");
  });

  it("shortens for calendar cells, keeping the sign", () => {
    expect(formatPnlCompact("1250", "USD", "en-US")).toBe("+$1.3K");
    expect(formatPnlCompact("-80", "USD", "en-US")).toBe("-$80");
  });

  it("tones follow the exact sign", () => {
    expect([toneOf("0.0000000001"), toneOf("-0.01"), toneOf("-0.00")]).toEqual(["positive", "negative", "zero"]);
  });

  it("rates and factors", () => {
    expect(formatRate("0.5833", "en-US")).toBe("58.3%");
    expect(formatRate(null, "en-US")).toBe("—");
    expect(formatFactor("2.5000", "en-US")).toBe("2.50");
    expect(formatFactor(null, "en-US")).toBe("—");
  });
});
