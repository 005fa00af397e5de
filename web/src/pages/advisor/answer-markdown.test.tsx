import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AnswerMarkdown } from "./answer-markdown.tsx";

const TRADE = "0f1e2d3c-4b5a-4968-8776-655443322110";

function show(text: string) {
  const router = createMemoryRouter([{ path: "/", element: <AnswerMarkdown text={text} /> }]);
  return render(<RouterProvider router={router} />).container;
}

describe("an advisor answer", () => {
  it("links trade citations into the app and outside links away from it", () => {
    show(`Your best was [AAPL 2024-03-01](trade:${TRADE}); see [the docs](https://example.com/x).`);
    expect(screen.getByRole("link", { name: "AAPL 2024-03-01" }).getAttribute("href")).toBe(`/trades/${TRADE}`);
    const outside = screen.getByRole("link", { name: "the docs" });
    expect(outside.getAttribute("target")).toBe("_blank");
    expect(outside.getAttribute("rel")).toContain("noopener");
  });

  it("renders markdown tables and emphasis, never raw HTML, scripts, images or other link schemes", () => {
    const container = show(
      [
        "**Win rate** by day:",
        "",
        "| Day | Net |",
        "|---|---|",
        "| Friday | -120.50 |",
        "",
        '<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script> <a href="javascript:alert(1)">x</a>',
        "",
        "![chart](https://tracker.example/pixel.png?pnl=123) [click](javascript:alert(1)) [data](data:text/html,hi) [t](trade:not-a-uuid)",
      ].join("\n"),
    );
    expect(container.querySelector("strong")?.textContent).toBe("Win rate");
    expect(screen.getByRole("table").textContent).toContain("Friday");
    expect(container.querySelector("img, script, iframe")).toBeNull();
    expect(container.textContent).toContain("<img src=x");
    for (const a of container.querySelectorAll("a")) expect(a.getAttribute("href")).toMatch(/^(\/trades\/|https:)/);
    expect(container.querySelectorAll("a")).toHaveLength(0);
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });
});
