import { describe, expect, it } from "vitest";
import { addDecimals, compareDecimals, isDecimal, runningBalances, signOf, subtractDecimals, typedAmount } from "./decimal.ts";

describe("decimal helpers", () => {
  it("add and subtract exactly where floats would drift", () => {
    expect(0.1 + 0.2).not.toBe(0.3); // the reason this helper exists
    expect(addDecimals("0.1", "0.2")).toBe("0.30");
    expect(subtractDecimals("1000.00", "0.01")).toBe("999.99");
    expect(addDecimals("99999999999999999.99", "0.01")).toBe("100000000000000000.00");
    expect(subtractDecimals("-5", "2.5")).toBe("-7.50");
    expect(addDecimals("0.0000000001", "0.0000000002")).toBe("0.0000000003");
  });

  it("compare and sign", () => {
    expect(compareDecimals("10.5", "10.50")).toBe(0);
    expect(compareDecimals("-1", "0")).toBe(-1);
    expect(compareDecimals("2", "1.9999999999")).toBe(1);
    expect(signOf("-0.00")).toBe(0);
    expect(signOf("-0.01")).toBe(-1);
  });

  it("recognise decimal strings only", () => {
    expect(isDecimal("1234.50")).toBe(true);
    expect(isDecimal("-3")).toBe(true);
    for (const bad of ["", "1e3", "1,000.00", ".5", "abc", "1."]) expect(isDecimal(bad)).toBe(false);
  });
});

describe("runningBalances", () => {
  it("walks down a newest-first page from the balance at its first row", () => {
    // Oldest to newest: opening 1000, deposit 500.10, withdrawal -200.05, fill -0.03.
    // Newest first on the page, the balance after the newest entry is 1300.02.
    expect(runningBalances("1300.02", ["-0.03", "-200.05", "500.10", "1000"])).toEqual(["1300.02", "1300.05", "1500.10", "1000.00"]);
  });

  it("continues exactly across pages: page 2 starts where page 1's last row leaves off", () => {
    const page1 = runningBalances("0.3", ["0.1", "0.1"]);
    expect(page1).toEqual(["0.30", "0.20"]);
    expect(runningBalances("0.1", ["0.1"])).toEqual(["0.10"]);
  });

  it("keeps every digit of large and precise amounts", () => {
    expect(runningBalances("123456789012345678.1234567891", ["0.0000000001", "123456789012345678"])).toEqual([
      "123456789012345678.1234567891",
      "123456789012345678.123456789",
    ]);
  });

  it("handles an empty page", () => {
    expect(runningBalances("0.00", [])).toEqual([]);
  });
});

describe("typedAmount", () => {
  it("drops thousands separators in groups of three, and nothing else", () => {
    expect(typedAmount(" 50,000.00 ")).toBe("50000.00");
    expect(typedAmount("-1,234")).toBe("-1234");
    expect(typedAmount("1,234,567.5")).toBe("1234567.5");
    expect(typedAmount("1234.50")).toBe("1234.50");
    // Not a thousands grouping: left for the form's check to name.
    for (const v of ["5,0", "12,34.5", "1,2345", ",100", "1e3"]) expect(typedAmount(v)).toBe(v);
  });
});
