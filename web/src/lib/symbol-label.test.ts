// Options as a trader reads them (issue 38): the OCC symbol is what is stored, the label is what is shown.
import { describe, expect, it } from "vitest";
import { symbolLabel } from "./format.ts";

describe("symbolLabel", () => {
  it("reads an OCC option as root, expiry, strike and right", () => {
    expect(symbolLabel("AAPL  261016C00230000")).toBe("AAPL 16 Oct 26 230 Call");
    expect(symbolLabel("AAPL261016C00230000")).toBe("AAPL 16 Oct 26 230 Call");
    expect(symbolLabel("SPY   240119P00412500")).toBe("SPY 19 Jan 24 412.5 Put");
    expect(symbolLabel("F     250606C00000500")).toBe("F 6 Jun 25 0.5 Call");
  });

  it("leaves stocks, futures and anything else as they are", () => {
    for (const s of ["AAPL", "BRK.B", "ESZ5", "/ESZ25", "AAPL  241316C00230000", "AAPL  261016X00230000"]) expect(symbolLabel(s)).toBe(s);
  });
});
