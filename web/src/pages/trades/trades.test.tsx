import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, renderApp, stubApi, USER } from "../../test/render.tsx";

const ACCOUNT = {
  id: "11111111-1111-4111-8111-111111111111",
  name: "Main",
  currency: "USD",
  startingBalance: "0.00",
  timezone: "Etc/UTC",
  brokerageId: null,
  createdAt: "2026-01-02T00:00:00.000Z",
  balance: "0.00",
};
const TRADE = {
  id: "33333333-3333-4333-8333-333333333333",
  accountId: ACCOUNT.id,
  symbol: "AAPL",
  assetClass: "stock",
  multiplier: "1.00",
  direction: "long",
  status: "closed",
  openedAt: "2026-01-05T14:30:00.000Z",
  closedAt: "2026-01-06T15:00:00.000Z",
  openQuantity: "0.00",
  maxQuantity: "10.00",
  averageEntryPrice: "150.25",
  averageExitPrice: "155.00",
  fees: "2.00",
  grossPnl: "47.50",
  netPnl: "45.50",
  notes: null,
  tags: ["breakout"],
  setup: null,
  rating: null,
};
const signedIn = { "GET /api/auth/session": { user: USER }, "GET /api/accounts": { accounts: [ACCOUNT] } };

describe("the trades list", () => {
  it("tells a user with an account but no trades how to get some", async () => {
    stubApi({ ...signedIn, "GET /api/trades": { trades: [], hasMore: false, page: 1, pageSize: 50 } });
    renderApp("/trades");
    expect(await screen.findByRole("heading", { name: "No trades yet" })).toBeTruthy();
    expect(screen.getByText("Import a CSV from your broker or add a fill. Fills are grouped into trades automatically.")).toBeTruthy();
    expect(screen.getAllByRole("link", { name: "Add a fill" }).length).toBeGreaterThan(0);
  });

  it("tells a user without accounts to create one first", async () => {
    stubApi({ "GET /api/auth/session": { user: USER }, "GET /api/accounts": { accounts: [] }, "GET /api/trades": { trades: [], hasMore: false, page: 1, pageSize: 50 } });
    renderApp("/trades");
    expect(await screen.findByRole("heading", { name: "Create your first account" })).toBeTruthy();
  });

  it("sends the filters to the API and keeps them in the address", async () => {
    const queries: string[] = [];
    stubApi({
      ...signedIn,
      "GET /api/trades": ({ query }) => {
        queries.push(query.toString());
        return json({ trades: [TRADE], hasMore: false, page: 1, pageSize: 50 });
      },
    });
    const { router } = renderApp("/trades");
    const user = userEvent.setup();
    const table = await screen.findByRole("table", { name: /Trades/ });
    expect(within(table).getByRole("link", { name: "AAPL" }).getAttribute("href")).toBe(`/trades/${TRADE.id}`);
    await user.selectOptions(screen.getByLabelText("Account"), ACCOUNT.id);
    await user.type(screen.getByLabelText("Symbol"), "aapl");
    await user.selectOptions(screen.getByLabelText("Status"), "closed");
    await user.click(screen.getByRole("button", { name: "Apply filters" }));
    await waitFor(() => expect(router.state.location.search).toContain("status=closed"));
    const last = new URLSearchParams(queries.at(-1));
    expect(last.get("accountId")).toBe(ACCOUNT.id);
    expect(last.get("symbol")).toBe("aapl");
    expect(last.get("status")).toBe("closed");
  });
});

describe("the trade page", () => {
  it("shows the trade and its fills, and saves the journal fields", async () => {
    const patches: unknown[] = [];
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE.id}`]: {
        trade: TRADE,
        fills: [
          { id: "f1", accountId: ACCOUNT.id, symbol: "AAPL", assetClass: "stock", multiplier: "1.00", side: "buy", quantity: "10.00", price: "150.25", fees: "1.00", executedAt: TRADE.openedAt, executionId: "X1", importId: null, role: "open", quantityInTrade: "10.00", feesInTrade: "1.00" },
        ],
      },
      [`PATCH /api/trades/${TRADE.id}`]: ({ body }) => (patches.push(body), json({ ...TRADE, ...(body as object) })),
    });
    renderApp(`/trades/${TRADE.id}`);
    const user = userEvent.setup();
    expect(await screen.findByRole("heading", { name: "AAPL · Long" })).toBeTruthy();
    expect(screen.getByText("+$45.50")).toBeTruthy(); // the sign written, money to the cent
    expect(within(screen.getByRole("table")).getByText("X1")).toBeTruthy();
    await user.type(screen.getByLabelText("Setup"), "Opening range");
    await user.click(screen.getByLabelText("4 out of 5"));
    await user.type(screen.getByLabelText("New tag"), "earnings{Enter}");
    await user.click(screen.getByRole("button", { name: "Remove tag breakout" }));
    await user.type(screen.getByLabelText("Notes"), "Held through the gap.");
    await user.click(screen.getByRole("button", { name: "Save journal" }));
    await waitFor(() => expect(screen.getByText("Journal saved.")).toBeTruthy());
    expect(patches).toEqual([{ notes: "Held through the gap.", tags: ["earnings"], setup: "Opening range", rating: 4 }]);
  });
});

describe("signing in", () => {
  it("sends a signed-out visitor to sign in and back to the page they asked for", async () => {
    let signedInNow = false;
    stubApi({
      "GET /api/auth/session": () => json({ user: signedInNow ? USER : null }),
      "POST /api/auth/login": () => ((signedInNow = true), json({ user: USER })),
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/trades": { trades: [], hasMore: false, page: 1, pageSize: 50 },
    });
    const { router } = renderApp("/trades?status=open");
    const user = userEvent.setup();
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy();
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent("/trades?status=open")}`);
    await user.type(screen.getByLabelText("Email"), USER.email);
    await user.type(screen.getByLabelText("Password"), "long enough password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/trades"));
    expect(router.state.location.search).toBe("?status=open");
  });
});
