import { describe, expect, it } from "vitest";
import { averageDecimals, formatDuration, formatMoney, formatPnl, formatPnlCompact, formatPrice, formatQuantity, priceDecimals, quantityDecimals, toneOf } from "./format.ts";

describe("money", () => {
  it("is rounded to the currency's minor unit, with its symbol", () => {
    // An IBKR import: exact values from the API, shown to the cent.
    expect(formatMoney("-126150.0536445", "USD", "en-US")).toBe("-$126,150.05");
    expect(formatMoney("4.0036445", "USD", "en-US")).toBe("$4.00");
    expect(formatPnl("145.9963555", "USD", "en-US")).toBe("+$146.00");
    expect(formatMoney("1234.5", "EUR", "de-DE")).toBe("1.234,50\u00a0€");
    // Currencies without or with more minor digits.
    expect(formatMoney("1234.5", "JPY", "en-US")).toBe("¥1,235");
    expect(formatMoney("1.2345", "BHD", "en-US")).toBe("BHD\u00a01.235");
  });

  it("writes the sign of P&L as text", () => {
    expect(formatPnl("1234.5", "USD", "en-US")).toBe("+$1,234.50");
    expect(formatPnl("-12", "USD", "en-US")).toBe("-$12.00");
    expect(formatPnl("0.00", "USD", "en-US")).toBe("$0.00");
    expect(formatPnl("-1000.25", "EUR", "de-DE")).toBe("-1.000,25\u00a0€");
  });

  it("formats the decimal string exactly, beyond float precision, rounding half away from zero", () => {
    // As a float this would print 12,345,678,901,234,568.00.
    expect(formatPnl("12345678901234567.89", "USD", "en-US")).toBe("+$12,345,678,901,234,567.89");
    expect(formatMoney("0.005", "USD", "en-US")).toBe("$0.01");
    expect(formatMoney("-0.005", "USD", "en-US")).toBe("-$0.01");
  });

  it("falls back to a plain number with two decimals without a currency or with an unknown one", () => {
    expect(formatPnl("5", null, "en-US")).toBe("+5.00");
    expect(formatPnl("5", "NOT-A-CODE", "en-US")).toBe("+5.00 NOT-A-CODE");
    expect(formatMoney("5.678", null, "en-US")).toBe("5.68");
  });

  it("shortens for calendar cells, keeping the sign", () => {
    expect(formatPnlCompact("1250", "USD", "en-US")).toBe("+$1.3K");
    expect(formatPnlCompact("-80", "USD", "en-US")).toBe("-$80");
    // A narrow cell never gets more than it can show: whole amounts from 100, one decimal below.
    expect(formatPnlCompact("-345.90", "USD", "en-US")).toBe("-$346");
    expect(formatPnlCompact("-345.90", null, "en-US")).toBe("-346");
    expect(formatPnlCompact("4.56", null, "en-US")).toBe("+4.6");
    expect(formatPnlCompact("345900", null, "en-US")).toBe("+346K");
  });

  it("tones follow the exact sign", () => {
    expect([toneOf("0.0000000001"), toneOf("-0.01"), toneOf("-0.00")]).toEqual(["positive", "negative", "zero"]);
  });
});

describe("prices", () => {
  it("share one precision per instrument: the most precise price's, between 2 and 6 decimals", () => {
    expect(priceDecimals(["191.5", "192.25"])).toBe(2);
    expect(priceDecimals(["1.0885", "1.09"])).toBe(4);
    expect(priceDecimals(["4812.2500000000", null])).toBe(2);
    expect(priceDecimals(["0.123456789"])).toBe(6);
    const d = priceDecimals(["191.5", "4812.25"]);
    expect([formatPrice("191.5", d, "en-US"), formatPrice("4812.25", d, "en-US")]).toEqual(["191.50", "4,812.25"]);
    expect(formatPrice("191.8333333333", 2, "en-US")).toBe("191.83");
  });
});

describe("hold time", () => {
  it("reads in its two largest units", () => {
    const at = (seconds: number) => new Date(Date.parse("2026-03-02T14:30:00Z") + seconds * 1000).toISOString();
    const held = (seconds: number) => formatDuration(at(0), at(seconds));
    expect(held(45)).toBe("45s");
    expect(held(15 * 60 + 20)).toBe("15m");
    expect(held(3600)).toBe("1h");
    expect(held(5400)).toBe("1h 30m");
    expect(held(2 * 86400)).toBe("2d");
    expect(held(2 * 86400 + 3 * 3600 + 59)).toBe("2d 3h");
    expect(held(-5)).toBe("0s");
  });
});

describe("average prices", () => {
  it("take at most 4 decimals, the same for entry and exit, wherever they are shown", () => {
    expect(averageDecimals("400.3333333333", null)).toBe(4);
    expect(averageDecimals("191.875", "192.5")).toBe(3);
    expect(averageDecimals("150", "155")).toBe(2);
    expect(formatPrice("400.3333333333", averageDecimals("400.3333333333", "401"), "en-US")).toBe("400.3333");
    // A page's column: one count for every row's entry and exit.
    expect(averageDecimals("150", "155", "191.875", null)).toBe(3);
  });

  it("shows a column of quantities with one number of decimals, as many as its most precise needs", () => {
    expect(quantityDecimals(["100", "10"])).toBe(0);
    expect(quantityDecimals(["100", "0.5", "2.2500000000"])).toBe(2);
    expect(quantityDecimals(["0.000000001234"])).toBe(10);
    expect(["100", "0.5"].map((q) => formatQuantity(q, quantityDecimals(["100", "0.5"]), "en-US"))).toEqual(["100.0", "0.5"]);
  });
});
