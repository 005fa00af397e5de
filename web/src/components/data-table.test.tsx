import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./data-table.tsx";

type Entry = { id: string; date: string; amount: string; duplicate?: boolean };
const columns: Array<Column<Entry>> = [
  { header: "Date", rowHeader: true, cell: (e) => e.date },
  { header: "Amount", num: true, className: (e) => (e.amount.startsWith("-") ? "negative" : "positive"), cell: (e) => e.amount },
  { header: "Running", num: true, cell: (_e, i) => `#${i + 1}` },
  { header: "Actions", hideHeader: true, cell: (e) => <button type="button">Delete {e.id}</button> },
];
const rows: Entry[] = [
  { id: "a", date: "2026-03-02", amount: "-12.50", duplicate: true },
  { id: "b", date: "2026-03-03", amount: "40.00" },
];

describe("DataTable", () => {
  it("names its columns and rows, aligns figures, and labels each cell for the phone layout (but a row's header and its actions)", () => {
    render(<DataTable caption="Cash ledger" columns={columns} rows={rows} rowKey={(e) => e.id} rowClassName={(e) => (e.duplicate ? "is-duplicate" : undefined)} />);
    const table = screen.getByRole("table", { name: "Cash ledger" });
    expect(table.className).toBe("stack-table");
    expect(table.parentElement!.className).toBe("table-wrap");
    const headers = within(table).getAllByRole("columnheader");
    expect(headers.map((h) => [h.textContent, h.className])).toEqual([["Date", ""], ["Amount", "num"], ["Running", "num"], ["Actions", ""]]);
    expect(headers[3]!.querySelector(".visually-hidden")!.textContent).toBe("Actions");
    const [first, second] = within(table).getAllByRole("row").slice(1);
    expect(first!.className).toBe("is-duplicate");
    expect(second!.className).toBe("");
    expect(within(first!).getByRole("rowheader").textContent).toBe("2026-03-02");
    const cells = within(first!).getAllByRole("cell");
    expect(cells.map((c) => [c.textContent, c.getAttribute("data-label"), c.className])).toEqual([
      ["-12.50", "Amount", "negative num"],
      ["#1", "Running", "num"],
      ["Delete a", null, ""],
    ]);
    expect(within(second!).getAllByRole("cell")[1]!.textContent).toBe("#2");
  });

  it("shows the empty state instead of a table with no rows, and a plain table (no phone labels) when asked", () => {
    const { unmount } = render(<DataTable caption="Imports" columns={columns} rows={[]} rowKey={(e) => e.id} empty={<p>No imports yet.</p>} />);
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByText("No imports yet.")).toBeTruthy();
    unmount();
    render(<DataTable caption="Rows with errors" hideCaption stack={false} columns={columns} rows={rows} rowKey={(e) => e.id} />);
    const table = screen.getByRole("table", { name: "Rows with errors" });
    expect(table.querySelector("caption")!.className).toBe("visually-hidden");
    expect(table.className).toBe("");
    expect(table.querySelectorAll("[data-label]").length).toBe(0);
  });
});
