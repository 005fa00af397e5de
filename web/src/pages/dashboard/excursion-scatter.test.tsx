// The excursion scatter plots: a point per trade linking to it, named with its MAE (or MFE) and result, and
// the medians in words; in R only the trades with a 1R; a word instead of plots when no trade has bars.
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ExcursionScatter, type ExcursionPoint } from "./excursion-scatter.tsx";

const point = (id: string, netPnl: string, mae: string, mfe: string, r: string | null, efficiency: string | null): ExcursionPoint => ({
  tradeId: `00000000-0000-4000-8000-00000000000${id}`,
  symbol: `S${id}`,
  netPnl,
  positionMae: mae,
  positionMfe: mfe,
  maeR: r === null ? null : (Number(mae) / 100).toFixed(2),
  mfeR: r === null ? null : (Number(mfe) / 100).toFixed(2),
  rMultiple: r,
  efficiency,
});
const POINTS = [point("1", "48.00", "-20.00", "60.00", "0.48", "0.8276"), point("2", "-30.00", "-80.00", "10.00", "-0.30", null), point("3", "10.00", "-40.00", "50.00", null, "0.2000")];

function show(element: React.ReactElement) {
  const router = createMemoryRouter([{ path: "/", element }], { initialEntries: ["/"] });
  return render(<RouterProvider router={router} />);
}

describe("the excursion scatter plots", () => {
  it("in money: every trade, named, linking to it; the medians in words", () => {
    show(<ExcursionScatter points={POINTS} trades={4} withExcursions={3} unit={{ kind: "money", currency: "USD" }} />);
    expect(screen.getByText(/3 of 4 closed trades with bars\. Median MAE of winners -\$30\.00, of losers -\$80\.00; median share of the best exit kept 51 %/)).toBeTruthy();
    const s1 = screen.getAllByRole("link", { name: /^S1: MAE/ });
    expect(s1[0]!.getAttribute("aria-label")).toBe("S1: MAE -$20.00, result +$48.00");
    expect(s1[0]!.getAttribute("href")).toBe(`/trades/${POINTS[0]!.tradeId}`);
    expect(screen.getByRole("link", { name: "S2: MFE +$10.00, result -$30.00" })).toBeTruthy();
  });

  it("in R: only the trades with a 1R; without bars, a word instead", () => {
    show(<ExcursionScatter points={POINTS} trades={4} withExcursions={3} unit={{ kind: "r" }} />);
    expect(screen.getByText(/2 of 4 closed trades with bars and a 1R/)).toBeTruthy();
    expect(screen.queryByRole("link", { name: /^S3:/ })).toBeNull();
    expect(screen.getByRole("link", { name: "S1: MAE -0.20 R, result +0.48 R" })).toBeTruthy();
  });

  it("says what to do when no trade has bars", () => {
    show(<ExcursionScatter points={[]} trades={5} withExcursions={0} unit={{ kind: "money", currency: "USD" }} />);
    expect(screen.getByText(/None of the 5 closed trades has bars yet/)).toBeTruthy();
  });
});
