// The web side of "your notes follow your fills": times typed on the account's clock, a moved trade's old
// address, fills corrected and deleted from the trade page with what happens to the notes said first, and the
// detached notes page.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT, envelope, json, renderApp, stubApi, USER } from "../../test/render.tsx";

const signedIn = { "GET /api/auth/session": { user: USER }, "GET /api/accounts": { accounts: [ACCOUNT] } };
const TRADE_ID = "33333333-3333-4333-8333-333333333333";
const NEW_ID = "44444444-4444-4444-8444-444444444444";
const JOURNAL_ID = "55555555-5555-4555-8555-555555555555";
const FILL = {
  id: "66666666-6666-4666-8666-666666666666", accountId: ACCOUNT.id, symbol: "AAPL", assetClass: "stock", multiplier: "1.00", side: "buy",
  quantity: "100.00", price: "190.50", fees: "1.00", executedAt: "2026-03-02T14:35:00.000Z", executionId: null, importId: null,
};
const trade = (id: string) => ({
  id, accountId: ACCOUNT.id, currency: "USD", symbol: "AAPL", assetClass: "stock", multiplier: "1.00", direction: "long", status: "open",
  openedAt: FILL.executedAt, closedAt: null, openQuantity: "100.00", maxQuantity: "100.00", averageEntryPrice: "190.50", averageExitPrice: null,
  fees: "1.00", grossPnl: "0.00", netPnl: "-1.00", notes: "kept", tags: [], setup: null, rating: null, journalId: JOURNAL_ID,
  risk: { stopPrice: null, targetPrice: null, plannedRisk: null, oneR: null, rMultiple: null, plannedRR: null },
});
const detail = (id: string) => ({
  trade: trade(id),
  fills: [{ ...FILL, role: "open", quantityInTrade: "100.00", feesInTrade: "1.00", splitFactor: "1.00" }],
  compliance: null,
  adjacent: { older: null, newer: NEW_ID },
});
const NOTE = {
  id: JOURNAL_ID, accountId: ACCOUNT.id, currency: "USD", tradeId: null, symbol: "AAPL", direction: "long", openedAt: FILL.executedAt,
  closedAt: null, netPnl: "-1.00", fills: 1, notes: "Waited for the open", tags: ["orb"], setup: "ORB", rating: 4, images: [],
  detachedAt: "2026-03-03T10:00:00.000Z", formerTradeIds: [TRADE_ID], createdAt: FILL.executedAt, updatedAt: FILL.executedAt,
};

describe("times typed on the account's clock", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-02T15:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("a fill's 09:35 is 09:35 in the account's zone (New York), whatever the browser's zone", async () => {
    const posted: unknown[] = [];
    stubApi({ ...signedIn, "POST /api/fills": ({ body }) => (posted.push(body), json({ ...FILL }, 201)), "GET /api/trades": { trades: [], hasMore: false, page: 1, pageSize: 50 } });
    renderApp(`/fills/new?accountId=${ACCOUNT.id}`);
    const user = userEvent.setup();
    const when = (await screen.findByLabelText("Executed at")) as HTMLInputElement;
    // Now, on New York's clock (15:00 UTC is 10:00 there), and the field says which zone it reads.
    expect(when.value).toBe("2026-03-02T10:00");
    expect(screen.getByText(/New York time \(America\/New_York\): the account's time zone/)).toBeTruthy();
    await user.type(screen.getByLabelText("Symbol"), "AAPL");
    await user.type(screen.getByLabelText("Quantity"), "100");
    await user.type(screen.getByLabelText("Price"), "190.50");
    await user.clear(when);
    await user.type(when, "2026-03-02T09:35");
    await user.click(screen.getByRole("button", { name: "Add fill" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ executedAt: "2026-03-02T14:35:00.000Z", accountId: ACCOUNT.id });
  });
});

describe("a trade whose address is gone", () => {
  it("an old link leads to the trade that holds its notes now, and says so", async () => {
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE_ID}`]: envelope(404, "NOT_FOUND", "No such trade."),
      [`GET /api/journals/by-trade/${TRADE_ID}`]: { ...NOTE, tradeId: NEW_ID, detachedAt: null },
      [`GET /api/trades/${NEW_ID}`]: detail(NEW_ID),
      [`GET /api/trades/${NEW_ID}/images`]: { images: [] },
    });
    const { router } = renderApp(`/trades/${TRADE_ID}`);
    expect(await screen.findByText("The trade you opened was rebuilt when its fills changed. This is the trade that holds its notes now.")).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/trades/${NEW_ID}`);
    expect((screen.getByLabelText("Notes") as HTMLTextAreaElement).value).toBe("kept");
  });

  it("a trade whose fills are gone points to its detached note", async () => {
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE_ID}`]: envelope(404, "NOT_FOUND", "No such trade."),
      [`GET /api/journals/by-trade/${TRADE_ID}`]: NOTE,
    });
    renderApp(`/trades/${TRADE_ID}`);
    expect(await screen.findByRole("heading", { name: "This trade's fills are gone" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "detached note" }).getAttribute("href")).toBe(`/notes/detached#note-${JOURNAL_ID}`);
  });
});

describe("fills corrected and deleted from the trade page", () => {
  it("a correction sends only what changed, its time read on the account's clock", async () => {
    const patches: unknown[] = [];
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE_ID}`]: detail(TRADE_ID),
      [`GET /api/trades/${TRADE_ID}/images`]: { images: [] },
      [`PATCH /api/fills/${FILL.id}`]: ({ body }) => (patches.push(body), json(FILL)),
    });
    renderApp(`/trades/${TRADE_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Correct the buy of 100 at 190.50" }));
    // Stepping through the account's trades: the first one has none opened before it.
    const steps = screen.getByRole("navigation", { name: "Other trades of this account" });
    expect(within(steps).getByRole("link", { name: "Opened after ›" }).getAttribute("href")).toBe(`/trades/${NEW_ID}`);
    expect(within(steps).queryByRole("link", { name: "‹ Opened before" })).toBeNull();
    const form = screen.getByRole("form", { name: "Correct the buy of 100 AAPL" });
    const when = within(form).getByLabelText("Executed at") as HTMLInputElement;
    expect(when.value).toBe("2026-03-02T09:35");
    await user.clear(within(form).getByLabelText("Price"));
    await user.type(within(form).getByLabelText("Price"), "190.25");
    await user.clear(when);
    await user.type(when, "2026-03-02T09:31:15");
    await user.click(within(form).getByRole("button", { name: "Save fill" }));
    await waitFor(() => expect(patches).toEqual([{ price: "190.25", executedAt: "2026-03-02T14:31:15.000Z" }]));
    expect(await screen.findByText("Fill corrected. Its trade was rebuilt; your notes followed it.")).toBeTruthy();
  });

  it("deleting says how many journaled trades and screenshots it touches and that the notes are kept", async () => {
    let deleted = false;
    stubApi({
      ...signedIn,
      [`GET /api/trades/${TRADE_ID}`]: detail(TRADE_ID),
      [`GET /api/trades/${TRADE_ID}/images`]: { images: [] },
      "GET /api/journals/impact": ({ query }) => json(query.get("fillId") === FILL.id ? { journaledTrades: 1, screenshots: 2 } : { journaledTrades: 0, screenshots: 0 }),
      [`DELETE /api/fills/${FILL.id}`]: () => ((deleted = true), new Response(null, { status: 204 })),
    });
    renderApp(`/trades/${TRADE_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Delete the buy of 100 at 190.50" }));
    const dialog = screen.getByRole("alertdialog", { name: "Delete this fill?" });
    expect((await within(dialog).findByTestId("journal-impact")).textContent).toMatch(
      /^1 journaled trade \(with 2 screenshots\) is built from these fills\. Nothing you wrote is deleted/,
    );
    await user.click(within(dialog).getByRole("button", { name: "Yes, delete fill" }));
    await waitFor(() => expect(deleted).toBe(true));
  });
});

describe("the detached notes page", () => {
  it("lists a note with what it was on, attaches it to a trade of its account, or deletes it after asking", async () => {
    const attached: unknown[] = [];
    let deleted = 0;
    stubApi({
      ...signedIn,
      "GET /api/journals/detached": { journals: [NOTE] },
      "GET /api/trades": { trades: [trade(NEW_ID)], hasMore: false, page: 1, pageSize: 200 },
      [`POST /api/journals/${JOURNAL_ID}/attach`]: ({ body }) => (attached.push(body), json({ outcome: "merged", tradeId: NEW_ID, journalId: JOURNAL_ID })),
      [`DELETE /api/journals/${JOURNAL_ID}`]: () => ((deleted += 1), new Response(null, { status: 204 })),
    });
    renderApp("/notes/detached");
    const user = userEvent.setup();
    const card = (await screen.findByRole("heading", { name: /AAPL long/ })).closest("article")!;
    expect(within(card).getByText("Waited for the open")).toBeTruthy();
    expect(within(card).getByText("ORB")).toBeTruthy();
    expect(within(card).getByText("orb")).toBeTruthy();
    await user.click(within(card).getByRole("button", { name: "Attach to a trade" }));
    const select = within(card).getByLabelText("Trade") as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    expect(select.options[1]!.textContent).toContain("(has notes)");
    await user.selectOptions(select, NEW_ID);
    await user.click(within(card).getByRole("button", { name: "Attach" }));
    await waitFor(() => expect(attached).toEqual([{ tradeId: NEW_ID }]));
    expect(await within(card).findByText("The note was added to the notes that trade already had.")).toBeTruthy();
    await user.click(within(card).getByRole("button", { name: "Delete note" }));
    await user.click(within(card).getByRole("button", { name: "Yes, delete note" }));
    await waitFor(() => expect(deleted).toBe(1));
  });
});
