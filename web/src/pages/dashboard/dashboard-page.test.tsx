import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ACCOUNT, json, renderApp, stubApi, USER } from "../../test/render.tsx";

const EMPTY_SUMMARY = {
  trades: 0, wins: 0, losses: 0, netPnl: "0", grossPnl: "0", fees: "0", winRate: null, profitFactor: null,
  expectancy: null, averageWin: null, averageLoss: null, largestWin: null, largestLoss: null, maxDrawdown: "0",
};

const SUMMARY = {
  trades: 3, wins: 2, losses: 1, netPnl: "150.5", grossPnl: "156.5", fees: "6", winRate: "0.6667", profitFactor: "4.0133",
  expectancy: "50.1666666667", averageWin: "100.25", averageLoss: "-50", largestWin: "120", largestLoss: "-50", maxDrawdown: "50",
};

const card = (label: string) =>
  within(screen.getByRole("list", { name: "Summary" }))
    .getAllByRole("listitem")
    .find((li) => li.firstElementChild?.textContent === label)!;

describe("the dashboard", () => {
  it("invites a new user to import or add a fill", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/stats/summary": EMPTY_SUMMARY,
    });
    renderApp("/dashboard");
    expect(await screen.findByText("Import your broker history or add a fill to see your statistics.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Import a CSV" }).getAttribute("href")).toBe("/import");
    expect(screen.getByRole("link", { name: "Add a fill" }).getAttribute("href")).toBe("/fills/new");
  });

  it("shows the summary, the curve with its data table and the calendar on the trading day for one account", async () => {
    const queries: Record<string, string[]> = {};
    const record = (name: string) => ({ query }: { query: URLSearchParams }) => {
      (queries[name] ??= []).push(query.toString());
      return null;
    };
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/stats/summary": (req) => (record("summary")(req), json(SUMMARY)),
      "GET /api/stats/equity": (req) =>
        (record("equity")(req),
        json({
          bucket: req.query.get("bucket"),
          points: [
            { start: "2024-01-18", netPnl: "-50", equity: "-50", trades: 1 },
            { start: "2024-01-19", netPnl: "200.5", equity: "150.5", trades: 2 },
          ],
        })),
      "GET /api/stats/calendar": (req) =>
        (record("calendar")(req),
        json({ days: [{ date: "2024-01-18", netPnl: "-50", trades: 1 }, { date: "2024-01-19", netPnl: "200.5", trades: 2 }, { date: "2024-02-01", netPnl: "9", trades: 1 }] })),
      "GET /api/stats/breakdown": { by: "symbol", groups: [{ key: "AAPL", netPnl: "150.5", trades: 3, wins: 2, winRate: "0.6667" }] },
    });
    renderApp(`/dashboard?account=${ACCOUNT.id}`);
    await screen.findByRole("heading", { name: "Summary" });
    // The money rule (DESIGN.md section 9): P&L on the day it is realised, partial exits included.
    expect(screen.getByText(/P&L and fees count on the day a fill realised or paid them, partial exits included/).textContent).toContain("(America/New_York)");
    expect(card("Net P&L").textContent).toContain("+$150.50");
    expect(card("Trades").textContent).toContain("3");
    expect(card("Win rate").textContent).toContain("66.7%");
    expect(card("Average loss").textContent).toContain("-$50.00");
    expect(queries.summary).toEqual([`accountId=${ACCOUNT.id}`]);

    const chart = await screen.findByRole("img", { name: /Equity curve by day/ });
    expect(chart.textContent).toContain("ends at +$150.50");
    const data = screen.getByRole("table", { name: "Net P&L and cumulative P&L by day" });
    expect(within(data).getAllByRole("row")).toHaveLength(3);

    // The calendar opens on the month of the latest closed trade and shows only that month's days.
    await screen.findByRole("table", { name: "Daily net P&L, February 2024" });
    await userEvent.setup().click(screen.getByRole("button", { name: "Previous month, January 2024" }));
    const january = await screen.findByRole("table", { name: "Daily net P&L, January 2024" });
    const cell19 = january.querySelector('[data-date="2024-01-19"]')!;
    expect(cell19.textContent).toContain("+$200.50");
    expect(cell19.textContent).toContain("2 trades");
    expect(cell19.className).toContain("calendar__cell--positive");
    expect(january.querySelector('[data-date="2024-01-18"]')!.textContent).toContain("-$50.00");
    expect(january.querySelector('[data-date="2024-02-01"]')).toBeNull();
    expect(screen.getByText("+$150.50 · 3 trades")).toBeTruthy();

    // A day opens its trades: those with a fill on that day in New York (EST, UTC-5), in this account.
    const dayLink = within(cell19 as HTMLElement).getByRole("link", { name: /^Trades of 2024-01-19/ });
    const day = new URL(dayLink.getAttribute("href")!, "http://x");
    expect(day.pathname).toBe("/trades");
    expect(Object.fromEntries(day.searchParams)).toEqual({ accountId: ACCOUNT.id, tradedFrom: "2024-01-19T05:00:00.000Z", tradedTo: "2024-01-20T05:00:00.000Z" });
    // A breakdown row opens the trades of its group over the period (all of it: no range).
    const row = within(screen.getByRole("table", { name: "Net P&L by symbol" })).getByRole("link", { name: "AAPL" });
    expect(row.getAttribute("href")).toBe(`/trades?accountId=${ACCOUNT.id}&symbol=AAPL`);
  });

  it("says where a day's P&L comes from when no trade closed, and which drawdown each figure is", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/stats/summary": json(SUMMARY),
      "GET /api/stats/equity": {
        bucket: "day",
        points: [
          { start: "2024-01-17", netPnl: "-1.25", equity: "-1.25", trades: 0 },
          { start: "2024-01-18", netPnl: "-50", equity: "-51.25", trades: 1 },
          { start: "2024-01-19", netPnl: "200.5", equity: "149.25", trades: 2 },
        ],
      },
      "GET /api/stats/calendar": { days: [{ date: "2024-01-17", netPnl: "-1.25", trades: 0 }, { date: "2024-01-18", netPnl: "-50", trades: 1 }] },
      "GET /api/stats/breakdown": { by: "symbol", groups: [] },
    });
    renderApp(`/dashboard?account=${ACCOUNT.id}`);
    const chart = await screen.findByRole("img", { name: /Equity curve by day/ });
    expect(chart.textContent).toContain("2 days with closed trades, 1 day with only fees or partial exits of open trades.");
    expect(chart.textContent).toContain("deepest drawdown at a day's end -$51.25 (the summary's max drawdown counts after every fill");
    expect(card("Max drawdown").textContent).toContain("deepest fall from a peak, after every fill");
    const january = await screen.findByRole("table", { name: "Daily net P&L, January 2024" });
    const quiet = january.querySelector('[data-date="2024-01-17"]')!;
    expect(quiet.textContent).toContain("-$1.25");
    expect(quiet.textContent).toContain("no close: no trade closed this day; its amount is fees and partial exits of trades still open");
    expect(quiet.textContent).not.toContain("0 trades");
    expect(january.querySelector('[data-date="2024-01-18"]')!.textContent).toContain("1 trade");
  });

  it("starts the calendar's weeks on the instance's WEEK_START_DAY until the reader picks another day", async () => {
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/config": { weekStartDay: 1, quotes: false, billing: false, pro: false, email: false, objectStorage: false, analytics: false },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/stats/summary": SUMMARY,
      "GET /api/stats/equity": { bucket: "day", points: [] },
      "GET /api/stats/calendar": { days: [{ date: "2024-01-19", netPnl: "200.5", trades: 2 }] },
      "GET /api/stats/breakdown": { by: "symbol", groups: [] },
    });
    renderApp(`/dashboard?account=${ACCOUNT.id}`);
    const january = await screen.findByRole("table", { name: "Daily net P&L, January 2024" });
    const firstDay = () => within(january).getAllByRole("columnheader")[0]!.textContent;
    await waitFor(() => expect(firstDay()).toMatch(/^Mon/));
    // January 2024 begins on a Monday: no blank cell before the 1st when weeks start on Monday.
    expect(january.querySelector("tbody td")!.getAttribute("data-date")).toBe("2024-01-01");
    await userEvent.setup().selectOptions(screen.getByLabelText("Week starts on"), "0");
    expect(firstDay()).toMatch(/^Sun/);
  });

  it("sends the period as instants at midnight in the account's zone, and shows all accounts of one currency, never a sum across currencies", async () => {
    const seen: string[] = [];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT, { ...ACCOUNT, id: "22222222-2222-4222-8222-222222222222", name: "Euro", currency: "EUR", timezone: "Europe/Berlin" }] },
      "GET /api/stats/summary": ({ query }) => (seen.push(query.toString()), json(SUMMARY)),
      "GET /api/stats/equity": { bucket: "day", points: [] },
      "GET /api/stats/calendar": { days: [] },
      "GET /api/stats/breakdown": { by: "symbol", groups: [] },
    });
    renderApp(`/dashboard?account=${ACCOUNT.id}`);
    const user = userEvent.setup();
    await screen.findByRole("heading", { name: "Summary" });
    await user.selectOptions(screen.getByLabelText("Period"), "custom");
    await user.type(screen.getByLabelText("From"), "2024-03-10");
    await user.type(screen.getByLabelText("To"), "2024-03-10");
    await waitFor(() =>
      expect(seen).toContain(new URLSearchParams({ accountId: ACCOUNT.id, from: "2024-03-10T05:00:00.000Z", to: "2024-03-11T04:00:00.000Z" }).toString()),
    );
    // The accounts are in USD and EUR: no "All accounts", one choice per currency.
    const select = screen.getByLabelText("Account") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["All EUR accounts", "All USD accounts", "Main (USD)", "Euro (EUR)"]);
    await user.selectOptions(select, "currency:EUR");
    await waitFor(() => expect(new URLSearchParams(seen.at(-1)).get("currency")).toBe("EUR"));
    expect(seen.at(-1)).not.toContain("accountId");
    expect(screen.getByText(/Your accounts are in EUR, USD: each currency is shown on its own/)).toBeTruthy();
    await waitFor(() => expect(card("Net P&L").textContent).toContain("€150.50"));
    await user.selectOptions(select, "currency:USD");
    await waitFor(() => expect(new URLSearchParams(seen.at(-1)).get("currency")).toBe("USD"));
    expect(card("Net P&L").textContent).toContain("+$150.50");
  });

  it("opens on every account in the base currency once one is set, naming the rates it lacks, and still offers each currency", async () => {
    const seen: string[] = [];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/settings": { baseCurrency: "EUR", digest: null, privacyMode: false },
      "GET /api/accounts": { accounts: [ACCOUNT, { ...ACCOUNT, id: "22222222-2222-4222-8222-222222222222", name: "Euro", currency: "EUR", timezone: "Europe/Berlin" }] },
      "GET /api/stats/summary": ({ query }) => (seen.push(query.toString()), json({ ...SUMMARY, currency: query.get("currency") === "base" ? "EUR" : query.get("currency"), missingRates: query.get("currency") === "base" ? [{ currency: "USD", date: "2024-01-19" }] : undefined })),
      "GET /api/stats/equity": { bucket: "day", points: [] },
      "GET /api/stats/calendar": { days: [] },
      "GET /api/stats/breakdown": { by: "symbol", groups: [] },
    });
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Summary in EUR" });
    const select = screen.getByLabelText("Account") as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["All accounts (EUR)", "All EUR accounts", "All USD accounts", "Main (USD)", "Euro (EUR)"]);
    expect(select.value).toBe("currency:base");
    expect(new URLSearchParams(seen.at(-1)).get("currency")).toBe("base");
    const net = within(screen.getByRole("list", { name: "Summary in EUR" }))
      .getAllByRole("listitem")
      .find((li) => li.firstElementChild?.textContent === "Net P&L")!;
    expect(net.textContent).toContain("€150.50");
    expect(net.getAttribute("title")).toMatch(/Converted to EUR/);
    expect(screen.getByText(/A rate is missing \(USD on 2024-01-19\)/).getAttribute("role")).toBe("status");
    await userEvent.setup().selectOptions(select, "currency:USD");
    await waitFor(() => expect(new URLSearchParams(seen.at(-1)).get("currency")).toBe("USD"));
    expect(await screen.findByRole("heading", { name: "Summary" })).toBeTruthy();
  });

  it("shows all accounts together when they share one currency", async () => {
    const seen: string[] = [];
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT, { ...ACCOUNT, id: "22222222-2222-4222-8222-222222222222", name: "Second" }] },
      "GET /api/stats/summary": ({ query }) => (seen.push(query.toString()), json(SUMMARY)),
      "GET /api/stats/equity": { bucket: "day", points: [] },
      "GET /api/stats/calendar": { days: [] },
      "GET /api/stats/breakdown": { by: "symbol", groups: [] },
    });
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Summary" });
    const select = screen.getByLabelText("Account") as HTMLSelectElement;
    expect(select.value).toBe("");
    expect(select.options[0]!.textContent).toBe("All accounts");
    expect(seen).toEqual([""]);
    expect(screen.queryByText(/each currency is shown on its own/)).toBeNull();
    expect(card("Net P&L").textContent).toContain("+$150.50");
  });
});

describe("the dashboard in R", () => {
  it("turns the cards, curve, calendar and breakdown into R with the count of trades with risk, and draws the R distribution", async () => {
    const r = { trades: 3, withRisk: 2, total: "0.82", expectancy: "0.41", averageWin: "1.49", averageLoss: "-0.67", best: "1.49", worst: "-0.67" };
    const buckets = Array.from({ length: 18 }, (_, i) => ({
      from: i === 0 ? null : (-3 + (i - 1) * 0.5).toFixed(2),
      to: i === 17 ? null : (-3 + i * 0.5).toFixed(2),
      trades: i === 5 || i === 9 ? 1 : 0,
    }));
    stubApi({
      "GET /api/auth/session": { user: USER },
      "GET /api/accounts": { accounts: [ACCOUNT] },
      "GET /api/stats/summary": { ...SUMMARY, r },
      "GET /api/stats/equity": (req) =>
        json({
          bucket: req.query.get("bucket"),
          points: [
            { start: "2024-01-18", netPnl: "-50", equity: "-50", trades: 1, rTotal: "-0.67", withRisk: 1, rEquity: "-0.67" },
            { start: "2024-01-19", netPnl: "200.5", equity: "150.5", trades: 2, rTotal: "1.49", withRisk: 1, rEquity: "0.82" },
          ],
        }),
      "GET /api/stats/calendar": {
        days: [
          { date: "2024-01-18", netPnl: "-50", trades: 1, rTotal: "-0.67", withRisk: 1 },
          { date: "2024-01-19", netPnl: "200.5", trades: 2, rTotal: "1.49", withRisk: 1 },
        ],
      },
      "GET /api/stats/breakdown": {
        by: "symbol",
        groups: [
          { key: "AAPL", netPnl: "298", trades: 1, wins: 1, winRate: "1.0000", rTotal: "1.49", withRisk: 1 },
          { key: "IBM", netPnl: "1", trades: 1, wins: 1, winRate: "1.0000", rTotal: null, withRisk: 0 },
        ],
      },
      "GET /api/stats/r-distribution": { currency: "USD", trades: 3, withRisk: 2, buckets },
    });
    const { router } = renderApp(`/dashboard?account=${ACCOUNT.id}`);
    const user = userEvent.setup();
    await screen.findByRole("heading", { name: "Summary" });
    await user.click(screen.getByRole("radio", { name: "R" }));
    await screen.findByRole("heading", { name: "Summary in R" });
    expect(router.state.location.search).toContain("unit=r");
    const rCard = (label: string) =>
      within(screen.getByRole("list", { name: "Summary in R" }))
        .getAllByRole("listitem")
        .find((li) => li.firstElementChild?.textContent === label)!;
    expect(rCard("Total R").textContent).toBe("Total R+0.82 R2 of 3 trades with risk");
    expect(rCard("Worst trade").textContent).toContain("-0.67 R");
    expect((await screen.findByRole("img", { name: /Equity curve by day/ })).textContent).toContain("Cumulative R ends at +0.82 R");
    const table = await screen.findByRole("table", { name: "R by symbol" });
    expect(within(table).getAllByRole("row").map((row) => row.textContent)).toEqual(["SymbolTrades with riskWin rateTotal RBar", "AAPL1100%+1.49 R"]);
    const dist = await screen.findByRole("table", { name: "Closed trades by R-multiple, in 0.5 R buckets" });
    expect(within(dist).getByRole("rowheader", { name: "-1.00 to -0.50 R" }).closest("tr")!.textContent).toContain("1");
    expect(within(dist).getByRole("rowheader", { name: "below -3.00 R" })).toBeTruthy();
    const calendar = await screen.findByRole("table", { name: "Daily R, January 2024" });
    expect(calendar.querySelector('[data-date="2024-01-19"]')!.textContent).toContain("+1.49 R");
    expect(calendar.querySelector('[data-date="2024-01-19"]')!.textContent).toContain("1 trade");
  });
});
