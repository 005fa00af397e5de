import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";

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
/** A trade with no other trade in its account. */
const NO_NEIGHBOURS = { older: null, newer: null };
const TRADE = {
  id: "33333333-3333-4333-8333-333333333333",
  accountId: ACCOUNT.id,
  currency: "USD",
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
  journalId: null,
  risk: { stopPrice: null, targetPrice: null, plannedRisk: null, oneR: null, rMultiple: null, plannedRR: null },
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

  it("filters by how the trade went, and shows its excursions as columns", async () => {
    const queries: string[] = [];
    const excursions = { priceMae: "99.80", priceMfe: "100.60", positionMae: "-20.00", positionMfe: "60.00", maeR: "-0.40", mfeR: "1.20", bestExitPnl: "58.00", efficiency: "0.8276", barsFrom: "1m" };
    stubApi({
      ...signedIn,
      "GET /api/trades": ({ query }) => {
        queries.push(query.toString());
        return json({ trades: [{ ...TRADE, excursions }], hasMore: false, page: 1, pageSize: 50 });
      },
    });
    const { router } = renderApp("/trades");
    const user = userEvent.setup();
    const table = await screen.findByRole("table", { name: /Trades/ });
    const row = within(table).getAllByRole("row")[1]!;
    expect(within(row).getByText("-$20.00")).toBeTruthy();
    expect(within(row).getByText("+$60.00")).toBeTruthy();
    expect(within(row).getByText("83 %")).toBeTruthy();
    await user.selectOptions(screen.getByLabelText("How it went"), "against-1r");
    await user.click(screen.getByRole("button", { name: "Apply filters" }));
    await waitFor(() => expect(router.state.location.search).toContain("excursion=against-1r"));
    expect(new URLSearchParams(queries.at(-1)).get("maxMaeR")).toBe("-1");
  });
});

describe("times on the trades list", () => {
  it("are in one zone, said once: the accounts' shared zone, else the computer's clock for every row", async () => {
    const tokyo = { ...ACCOUNT, id: "22222222-2222-4222-8222-222222222222", name: "Tokyo", timezone: "Asia/Tokyo" };
    const other = { ...TRADE, id: "44444444-4444-4444-8444-444444444444", accountId: tokyo.id, symbol: "SONY" };
    stubApi({ "GET /api/auth/session": { user: USER }, "GET /api/accounts": { accounts: [ACCOUNT, tokyo] }, "GET /api/trades": { trades: [TRADE, other], hasMore: false, page: 1, pageSize: 50 } });
    renderApp("/trades");
    const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(await screen.findByText(`Times on your computer's clock (${here}).`)).toBeTruthy();
    // Both rows' opening times in that one zone, whatever their accounts' zones.
    const opened = new Intl.DateTimeFormat(undefined, { timeStyle: "short" }).format(new Date(TRADE.openedAt));
    const rows = screen.getAllByRole("row").filter((r) => /AAPL|SONY/.test(r.textContent ?? ""));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.textContent).toContain(opened);
  });

  it("with one account chosen, in its zone, named", async () => {
    stubApi({ ...signedIn, "GET /api/trades": { trades: [TRADE], hasMore: false, page: 1, pageSize: 50 } });
    renderApp(`/trades?accountId=${ACCOUNT.id}`);
    expect(await screen.findByText("Times in UTC.")).toBeTruthy();
  });
});

describe("ordering and totals", () => {
  const SECOND = { ...ACCOUNT, id: "22222222-2222-4222-8222-222222222222", name: "Swing", currency: "EUR" };
  const TOTALS = [
    { currency: "EUR", trades: 3, closed: 2, wins: 1, winRate: "0.5000", netPnl: "-12.50" },
    { currency: "USD", trades: 120, closed: 118, wins: 70, winRate: "0.5932", netPnl: "1234.50" },
  ];

  it("sorts by a column heading (a second click flips it), keeps the filters, and totals every matching trade per currency", async () => {
    const queries: URLSearchParams[] = [];
    stubApi({
      ...signedIn,
      "GET /api/accounts": { accounts: [ACCOUNT, SECOND] },
      "GET /api/trades": ({ query }) => {
        queries.push(new URLSearchParams(query));
        return json({ trades: [TRADE], hasMore: false, page: 1, pageSize: 50, totals: TOTALS });
      },
    });
    const { router } = renderApp("/trades?symbol=AAPL");
    const user = userEvent.setup();
    const table = await screen.findByRole("table", { name: /Trades, newest opened first/ });
    expect(queries.at(-1)!.get("totals")).toBe("true");
    expect(queries.at(-1)!.has("sort")).toBe(false);
    const totals = screen.getByLabelText("Totals of the trades matching the filters");
    expect(totals.textContent).toContain("120 trades · 118 closed · win rate 59.3% · net P&L +$1,234.50");
    expect(totals.textContent).toContain("3 trades · 2 closed · win rate 50% · net P&L -€12.50");
    // Two accounts: each row names its own; the hold time and the close are columns.
    const row = within(table).getAllByRole("row")[1]!;
    expect(within(row).getByText("Main")).toBeTruthy();
    expect(within(row).getByText("1d")).toBeTruthy();
    expect(within(table).getByRole("columnheader", { name: "Opened" }).getAttribute("aria-sort")).toBe("descending");

    await user.click(within(table).getByRole("button", { name: "Net P&L" }));
    await waitFor(() => expect(router.state.location.search).toBe("?symbol=AAPL&sort=netPnl&order=desc"));
    await waitFor(() => expect(queries.at(-1)!.get("sort")).toBe("netPnl"));
    expect(queries.at(-1)!.get("order")).toBe("desc");
    expect(queries.at(-1)!.get("symbol")).toBe("AAPL");
    expect(await screen.findByRole("table", { name: /Trades, by Net P&L, highest first/ })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: /^Net P&L/ }));
    await waitFor(() => expect(queries.at(-1)!.get("order")).toBe("asc"));
    expect(screen.getByRole("columnheader", { name: /Net P&L/ }).getAttribute("aria-sort")).toBe("ascending");
    // A text column starts A to Z; the phone's picker says the same order.
    await user.click(screen.getByRole("button", { name: "Symbol" }));
    await waitFor(() => expect(queries.at(-1)!.get("sort")).toBe("symbol"));
    expect(queries.at(-1)!.get("order")).toBe("asc");
    expect((screen.getByLabelText("Sort by") as HTMLSelectElement).value).toBe("symbol");
    await user.selectOptions(screen.getByLabelText("Sort by"), "heldFor");
    await waitFor(() => expect(queries.at(-1)!.get("sort")).toBe("heldFor"));
    expect(queries.at(-1)!.get("order")).toBe("desc");
  });

  it("shows the filters a dashboard link set as chips, sends them, and drops one when asked", async () => {
    const queries: URLSearchParams[] = [];
    stubApi({
      ...signedIn,
      "GET /api/trades": ({ query }) => {
        queries.push(new URLSearchParams(query));
        return json({ trades: [TRADE], hasMore: false, page: 1, pageSize: 50, totals: [] });
      },
    });
    const { router } = renderApp(
      `/trades?accountId=${ACCOUNT.id}&tradedFrom=2026-01-05T00:00:00.000Z&tradedTo=2026-01-06T00:00:00.000Z&direction=short&noSetup=1&entryHour=9&rules=broke`,
    );
    const user = userEvent.setup();
    const chips = await screen.findByRole("list", { name: "Also filtered by" });
    expect(within(chips).getAllByRole("listitem").map((li) => li.firstChild?.textContent)).toEqual([
      "With a fill on Jan 5, 2026", "Short", "No setup", "Entered 09:00–09:59", "Broke a trading rule",
    ]);
    const sent = queries.at(-1)!;
    expect(Object.fromEntries([...sent].filter(([k]) => !["page", "pageSize", "totals"].includes(k)))).toEqual({
      accountId: ACCOUNT.id, tradedFrom: "2026-01-05T00:00:00.000Z", tradedTo: "2026-01-06T00:00:00.000Z", direction: "short", setup: "", entryHour: "9", rules: "broke",
    });
    await user.click(screen.getByRole("button", { name: "Remove the filter Short" }));
    await waitFor(() => expect(router.state.location.search).not.toContain("direction"));
    await waitFor(() => expect(queries.at(-1)!.has("direction")).toBe(false));
    expect(queries.at(-1)!.get("entryHour")).toBe("9");
  });
});

describe("open positions at the delayed quote", () => {
  const OPEN = { ...TRADE, id: "44444444-4444-4444-8444-444444444444", status: "open", closedAt: null, openQuantity: "10.00", averageExitPrice: null, grossPnl: "0.00", netPnl: "-1.00" };
  const OPTION = { ...OPEN, id: "55555555-5555-4555-8555-555555555555", symbol: "AAPL  270119C00150000", assetClass: "option", multiplier: "100.00" };
  const VALUATION = { price: "190.12", asOf: "2026-01-07T15:00:00.000Z", stale: false, marketValue: "1901.20", unrealizedPnl: "398.70" };

  it("quotes on: asks for valuations, shows the last price, its time and the unrealised P&L; options are not priced; Refresh asks again", async () => {
    const queries: string[] = [];
    stubApi({
      ...signedIn,
      "GET /api/config": { quotes: true, billing: false, pro: false, email: false, objectStorage: false, analytics: false, weekStartDay: 1 },
      "GET /api/trades": ({ query }) => {
        queries.push(query.toString());
        return json({ trades: [{ ...OPEN, valuation: VALUATION }, { ...OPTION, valuation: null }], hasMore: false, page: 1, pageSize: 50 });
      },
    });
    renderApp("/trades?status=open");
    const table = await screen.findByRole("table", { name: /Open positions/ });
    expect(within(table).getByRole("columnheader", { name: "Last price" })).toBeTruthy();
    const row = within(table).getByRole("row", { name: /^AAPL Long/ });
    expect(row.textContent).toContain("190.12");
    expect(row.textContent).toContain("+$398.70");
    expect(within(table).getByRole("row", { name: /AAPL 19 Jan 27 150 Call/ }).textContent).toContain("Not priced");
    expect(new URLSearchParams(queries.at(-1)).get("quotes")).toBe("true");
    const before = queries.length;
    await userEvent.setup().click(screen.getByRole("button", { name: "Refresh prices" }));
    await waitFor(() => expect(queries.length).toBe(before + 1));
  });

  it("quotes off: no valuation asked for, no price columns, no refresh button", async () => {
    const queries: string[] = [];
    stubApi({
      ...signedIn,
      "GET /api/config": { quotes: false, billing: false, pro: false, email: false, objectStorage: false, analytics: false, weekStartDay: 1 },
      "GET /api/trades": ({ query }) => {
        queries.push(query.toString());
        return json({ trades: [OPEN], hasMore: false, page: 1, pageSize: 50 });
      },
    });
    renderApp("/trades?status=open");
    const table = await screen.findByRole("table", { name: /Trades/ });
    expect(within(table).queryByRole("columnheader", { name: "Last price" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Refresh prices" })).toBeNull();
    expect(queries.every((q) => !new URLSearchParams(q).has("quotes"))).toBe(true);
  });
});

describe("symbol suggestions", () => {
  it("typing suggests tickers; arrow keys and Enter pick one; Escape closes the list", async () => {
    const asked: string[] = [];
    stubApi({
      ...signedIn,
      "GET /api/symbols": ({ query }) => {
        asked.push(query.get("q") ?? "");
        return json({
          symbols: [
            { ticker: "KO", name: "COCA COLA CO", exchange: "NYSE" },
            { ticker: "COKE", name: "Coca-Cola Consolidated, Inc.", exchange: "Nasdaq" },
          ],
        });
      },
    });
    renderApp(`/fills/new?accountId=${ACCOUNT.id}`);
    const user = userEvent.setup();
    const box = await screen.findByRole("combobox", { name: "Symbol" });
    await user.type(box, "coca");
    const list = await screen.findByRole("listbox", { name: "Symbol suggestions" });
    expect(within(list).getAllByRole("option").map((o) => o.textContent)).toEqual(["KO COCA COLA CO · NYSE", "COKE Coca-Cola Consolidated, Inc. · Nasdaq"]);
    // Debounced: one request for the whole word, not one per letter.
    expect(asked).toEqual(["coca"]);
    await user.keyboard("{ArrowDown}{ArrowDown}");
    expect(box.getAttribute("aria-activedescendant")).toBe(within(list).getAllByRole("option")[1]!.id);
    await user.keyboard("{Enter}");
    expect((box as HTMLInputElement).value).toBe("COKE");
    expect(screen.queryByRole("listbox", { hidden: false })).toBeNull();
    await user.clear(box);
    await user.type(box, "co");
    await screen.findByRole("listbox", { name: "Symbol suggestions" });
    await user.keyboard("{Escape}");
    expect(box.getAttribute("aria-expanded")).toBe("false");
    expect((box as HTMLInputElement).value).toBe("co");
  });
});

describe("the trade page", () => {
  it("shows the trade and its fills, and saves the journal fields", async () => {
    const patches: unknown[] = [];
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE.id}`]: {
        trade: TRADE,
        adjacent: NO_NEIGHBOURS,
        fills: [
          { id: "f1", accountId: ACCOUNT.id, symbol: "AAPL", assetClass: "stock", multiplier: "1.00", side: "buy", quantity: "10.00", price: "150.25", fees: "1.00", executedAt: TRADE.openedAt, executionId: "X1", importId: null, role: "open", quantityInTrade: "10.00", feesInTrade: "1.00", splitFactor: "1.00" },
        ],
      },
      [`PATCH /api/trades/${TRADE.id}`]: ({ body }) => (patches.push(body), json({ ...TRADE, ...(body as object) })),
    });
    renderApp(`/trades/${TRADE.id}`);
    const user = userEvent.setup();
    expect(await screen.findByRole("heading", { name: "AAPL · Long" })).toBeTruthy();
    expect(screen.getByText("+$45.50")).toBeTruthy(); // the sign written, money to the cent
    // Gross P&L signed and coloured like Net.
    const gross = screen.getByText("+$47.50");
    expect(gross.className).toContain("positive");
    expect(within(screen.getByRole("table")).getByText("X1")).toBeTruthy();
    await user.type(screen.getByLabelText("Setup"), "Opening range");
    await user.click(screen.getByLabelText("4 out of 5"));
    await user.type(screen.getByLabelText("New tag"), "earnings{Enter}");
    await user.click(screen.getByRole("button", { name: "Remove tag breakout" }));
    await user.type(screen.getByLabelText("Notes"), "Held through the gap.");
    await user.click(screen.getByRole("button", { name: "Save journal" }));
    await waitFor(() => expect(screen.getByText("Journal saved.")).toBeTruthy());
    expect(patches).toEqual([
      { notes: "Held through the gap.", tags: ["earnings"], setup: "Opening range", rating: 4, stopPrice: null, targetPrice: null, plannedRisk: null },
    ]);
  });

  it("takes a stop and a target, shows a wrong-side stop's message on the field, and the result in R", async () => {
    const patches: Array<Record<string, unknown>> = [];
    const fills = [
      { id: "f1", accountId: ACCOUNT.id, symbol: "AAPL", assetClass: "stock", multiplier: "1.00", side: "buy", quantity: "10.00", price: "150.25", fees: "1.00", executedAt: TRADE.openedAt, executionId: "X1", importId: null, role: "open", quantityInTrade: "10.00", feesInTrade: "1.00", splitFactor: "1.00" },
    ];
    let risk = TRADE.risk as Record<string, string | null>;
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE.id}`]: () => json({ trade: { ...TRADE, risk }, fills, adjacent: NO_NEIGHBOURS }),
      [`GET /api/trades/${TRADE.id}/images`]: { images: [] },
      [`PATCH /api/trades/${TRADE.id}`]: ({ body }) => {
        const b = body as Record<string, unknown>;
        patches.push(b);
        if (b.stopPrice === "151") {
          return envelope(400, "VALIDATION_ERROR", "A long trade's stop is below its entry (150.25).", [
            { path: "stopPrice", message: "must be below the entry price 150.25 for a long trade" },
          ]);
        }
        risk = { stopPrice: "148.00", targetPrice: "156.00", plannedRisk: null, oneR: "22.50", rMultiple: "2.02", plannedRR: "2.57" };
        return json({ trade: { ...TRADE, risk }, fills, adjacent: NO_NEIGHBOURS });
      },
    });
    renderApp(`/trades/${TRADE.id}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Stop"), "151");
    await user.click(screen.getByRole("button", { name: "Save journal" }));
    expect(await screen.findByText("Stop must be below the entry price 150.25 for a long trade.", { exact: false })).toBeTruthy();
    await user.clear(screen.getByLabelText("Stop"));
    await user.type(screen.getByLabelText("Stop"), "148");
    await user.type(screen.getByLabelText("Target"), "156");
    await user.click(screen.getByRole("button", { name: "Save journal" }));
    await waitFor(() => expect(screen.getByText("Journal saved.")).toBeTruthy());
    expect(patches.at(-1)).toMatchObject({ stopPrice: "148", targetPrice: "156", plannedRisk: null });
    expect(await screen.findByText("+2.02 R")).toBeTruthy();
    expect(screen.getByText("2.57 : 1")).toBeTruthy();
  });
});

describe("a stock's splits on its trade page", () => {
  it("shows a fill from before a split in today's shares, records a split with its ex-date and removes it", async () => {
    const posted: unknown[] = [];
    const deleted: string[] = [];
    let splits: Array<Record<string, string>> = [];
    const SPLIT_ID = "77777777-7777-4777-8777-777777777777";
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE.id}`]: {
        trade: TRADE,
        adjacent: NO_NEIGHBOURS,
        fills: [
          { id: "f1", accountId: ACCOUNT.id, symbol: "AAPL", assetClass: "stock", multiplier: "1.00", side: "buy", quantity: "5.00", price: "300.50", fees: "1.00", executedAt: TRADE.openedAt, executionId: "X1", importId: null, role: "open", quantityInTrade: "10.00", feesInTrade: "1.00", splitFactor: "2.00" },
        ],
      },
      [`GET /api/trades/${TRADE.id}/images`]: { images: [] },
      "GET /api/splits": () => json({ splits }),
      "POST /api/splits": ({ body }) => {
        posted.push(body);
        splits = [{ id: SPLIT_ID, symbol: "AAPL", effectiveAt: "2026-06-10T04:00:00.000Z", newShares: "2.00", oldShares: "1.00" }];
        return json(splits[0]!, 201);
      },
      [`DELETE /api/splits/${SPLIT_ID}`]: () => (deleted.push(SPLIT_ID), (splits = []), new Response(null, { status: 204 })),
    });
    renderApp(`/trades/${TRADE.id}`);
    const user = userEvent.setup();
    expect(await screen.findByText(/5 as filled, before a split: ×2/)).toBeTruthy();
    const form = await screen.findByRole("form", { name: "Record a split of AAPL" });
    // The schema's message on the field, nothing sent.
    await user.type(within(form).getByLabelText("New shares"), "2");
    await user.type(within(form).getByLabelText("Old shares"), "2");
    await user.click(within(form).getByRole("button", { name: "Record split" }));
    expect(await within(form).findByText(/must differ from oldShares/)).toBeTruthy();
    expect(posted).toEqual([]);
    await user.clear(within(form).getByLabelText("Old shares"));
    await user.type(within(form).getByLabelText("Old shares"), "1");
    await user.type(within(form).getByLabelText("Ex-date"), "2026-06-10");
    await user.click(within(form).getByRole("button", { name: "Record split" }));
    await waitFor(() => expect(posted).toEqual([{ symbol: "AAPL", date: "2026-06-10", newShares: "2", oldShares: "1" }]));
    expect(await screen.findByText(/Split recorded: 2 for 1/)).toBeTruthy();
    const list = await screen.findByRole("list", { name: "Splits of AAPL" });
    expect(within(list).getByText(/2-for-1 from/)).toBeTruthy();
    await user.click(within(list).getByRole("button", { name: /Remove the 2-for-1 split/ }));
    await waitFor(() => expect(deleted).toEqual([SPLIT_ID]));
    expect(await screen.findByText(/Split removed/)).toBeTruthy();
  });
});

describe("an option the journal closed at its expiry", () => {
  it("marks the generated fill and says that deleting it keeps the option open", async () => {
    const option = { ...TRADE, symbol: "AAPL  240216C00190000", assetClass: "option", multiplier: "100.00", status: "closed" };
    const base = { accountId: ACCOUNT.id, symbol: option.symbol, assetClass: "option", multiplier: "100.00", fees: "0.00", feesEstimated: false, executionId: null, importId: null, splitFactor: "1.00" };
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE.id}`]: {
        trade: option,
        adjacent: NO_NEIGHBOURS,
        fills: [
          { ...base, id: "f1", side: "buy", quantity: "1.00", price: "3.45", executedAt: "2024-01-19T15:31:07.000Z", generated: null, role: "open", quantityInTrade: "1.00", feesInTrade: "0.00" },
          { ...base, id: "f2", side: "sell", quantity: "1.00", price: "0.00", executedAt: "2024-02-16T21:00:00.000Z", generated: "expiry", role: "close", quantityInTrade: "1.00", feesInTrade: "0.00" },
        ],
      },
      [`GET /api/trades/${TRADE.id}/images`]: { images: [] },
      "GET /api/journals/impact": { journaledTrades: 0, trades: 1 },
    });
    renderApp(`/trades/${TRADE.id}`);
    const user = userEvent.setup();
    const table = await screen.findByRole("table");
    expect(within(table).getAllByText("Expired · closed by the journal")).toHaveLength(1);
    await user.click(within(table).getByRole("button", { name: /Delete the sell of 1/ }));
    expect(await screen.findByText(/Deleting it keeps the option open/)).toBeTruthy();
  });
});

describe("the trade chart's window", () => {
  it("asks for more bars around the trade, and says what is missing without a key", async () => {
    const asked: string[] = [];
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE.id}`]: { trade: TRADE, fills: [], adjacent: NO_NEIGHBOURS },
      [`GET /api/trades/${TRADE.id}/images`]: { images: [] },
      [`GET /api/trades/${TRADE.id}/chart`]: ({ query }) => {
        asked.push(query.toString());
        return json({
          tradeId: TRADE.id, symbol: "AAPL", assetClass: "stock", direction: "long", multiplier: "1.00", closedAt: TRADE.closedAt, resolution: "1m",
          from: TRADE.openedAt, to: TRADE.openedAt, fills: [], averageCost: [], stopPrice: null, targetPrice: null, bars: [],
          coverage: { sources: [], key: false, missing: [{ day: "2026-03-02", status: "none", detail: "no bars: save a bar provider key in Settings, or upload a candle CSV" }] },
          note: "No bars for this trade: the chart shows the path through its fills.",
        });
      },
    });
    renderApp(`/trades/${TRADE.id}`);
    const user = userEvent.setup();
    expect(await screen.findByText(/the chart shows the path through its fills/)).toBeTruthy();
    expect(screen.getByRole("form", { name: "Upload candles of AAPL" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "bar provider key" }).getAttribute("href")).toBe("/settings/keys");
    await user.selectOptions(screen.getByLabelText("Around the trade"), "120");
    await waitFor(() => expect(asked.at(-1)).toBe("before=120&after=120"));
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
