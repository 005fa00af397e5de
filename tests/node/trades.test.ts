import { sql } from "drizzle-orm";
import fc from "fast-check";
import { TRADE_SORTS, type TradeSort } from "../../lib/trades/schema.ts";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, type TestClient, uniqueEmail } from "../support/client.ts";
import { fmt, type ModelFill, positionModel, toS } from "../support/exact.ts";

const url = () => inject("databaseUrl");

async function setup(t: TestApp, startingBalance = "10000") {
  const client = t.client();
  await client.post("/api/auth/register", { email: uniqueEmail("trader"), password: PASSWORD });
  const res = await client.post("/api/accounts", { name: `Main ${crypto.randomUUID()}`, currency: "USD", startingBalance });
  expect(res.status).toBe(201);
  return { client, accountId: (await res.json()).id as string };
}

type FillBody = Record<string, unknown>;
let clock = Date.parse("2026-03-02T14:30:00Z");
/** Strictly increasing execution times, so the order of posting is the order of trading. */
const nextTime = () => new Date((clock += 60_000)).toISOString();

async function fill(client: TestClient, accountId: string, body: FillBody) {
  const res = await client.post("/api/fills", { accountId, executedAt: nextTime(), ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function trades(client: TestClient, query = "") {
  const res = await client.get(`/api/trades${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).trades as Array<Record<string, unknown>>;
}

async function balance(client: TestClient, accountId: string) {
  return (await (await client.get(`/api/ledger/${accountId}`)).json()).runningBalanceAtFirstRow as string;
}

describe("fills roll up into trades", () => {
  it("scale in, partial close, close: average price, realised P&L net of fees, cash", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    await fill(client, accountId, { symbol: "aapl", side: "buy", quantity: "100", price: "10", fees: "1" });
    expect(await balance(client, accountId)).toBe("8999.00");
    await fill(client, accountId, { symbol: "AAPL", side: "buy", quantity: "100", price: "12", fees: "1" });
    let [trade] = await trades(client, `?accountId=${accountId}`);
    expect(trade).toMatchObject({ symbol: "AAPL", direction: "long", status: "open", openQuantity: "200.00", averageEntryPrice: "11.00" });

    await fill(client, accountId, { symbol: "AAPL", side: "sell", quantity: "50", price: "15", fees: "1" });
    [trade] = await trades(client, `?accountId=${accountId}`);
    expect(trade).toMatchObject({ status: "open", openQuantity: "150.00", grossPnl: "200.00", fees: "3.00", netPnl: "197.00" });

    await fill(client, accountId, { symbol: "AAPL", side: "sell", quantity: "150", price: "9", fees: "1" });
    [trade] = await trades(client, `?accountId=${accountId}`);
    expect(trade).toMatchObject({
      status: "closed",
      openQuantity: "0.00",
      maxQuantity: "200.00",
      averageExitPrice: "10.50",
      grossPnl: "-100.00",
      fees: "4.00",
      netPnl: "-104.00",
    });
    expect(trade!.closedAt).toEqual(expect.stringMatching(/Z$/));
    // 10000 - 1000 - 1200 + 750 + 1350 - 4 fees
    expect(await balance(client, accountId)).toBe("9896.00");
  });

  it("flips from long to short: the crossing fill closes one trade and opens the other, fees split", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    await fill(client, accountId, { symbol: "TSLA", side: "buy", quantity: "10", price: "200", fees: "2" });
    await fill(client, accountId, { symbol: "TSLA", side: "sell", quantity: "25", price: "210", fees: "5" });
    const list = await trades(client, `?accountId=${accountId}`);
    expect(list).toHaveLength(2);
    const [short, long] = list;
    expect(long).toMatchObject({ direction: "long", status: "closed", grossPnl: "100.00", fees: "4.00", netPnl: "96.00" });
    expect(short).toMatchObject({ direction: "short", status: "open", openQuantity: "15.00", averageEntryPrice: "210.00", fees: "3.00" });
    const detail = await (await client.get(`/api/trades/${short!.id}`)).json();
    expect(detail.fills).toHaveLength(1);
    expect(detail.fills[0]).toMatchObject({ side: "sell", quantity: "25.00", quantityInTrade: "15.00", feesInTrade: "3.00", role: "open" });
  });

  it("uses the contract multiplier for options (OCC) and futures", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t, "0");
    const option = await fill(client, accountId, { symbol: "AAPL  240119C00150000", side: "buy", quantity: "2", price: "2.5", fees: "1.3" });
    expect(option).toMatchObject({ assetClass: "option", multiplier: "100.00" });
    expect(await balance(client, accountId)).toBe("-501.30");
    const future = await fill(client, accountId, { symbol: "ESZ24", side: "sell", quantity: "1", price: "6000.25", fees: "2.25" });
    expect(future).toMatchObject({ assetClass: "future", multiplier: "50.00" });
    await fill(client, accountId, { symbol: "ESZ24", side: "buy", quantity: "1", price: "5990", fees: "2.25" });
    const [es] = await trades(client, `?accountId=${accountId}&symbol=esz24`);
    expect(es).toMatchObject({ direction: "short", status: "closed", grossPnl: "512.50", netPnl: "508.00" });
  });

  it("editing or deleting a fill recomputes its trade and its cash entry", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t, "1000");
    const buy = await fill(client, accountId, { symbol: "MSFT", side: "buy", quantity: "10", price: "100" });
    const sell = await fill(client, accountId, { symbol: "MSFT", side: "sell", quantity: "10", price: "110" });
    expect((await trades(client, `?accountId=${accountId}`))[0]).toMatchObject({ netPnl: "100.00" });

    const patched = await client.request(`/api/fills/${sell.id}`, { method: "PATCH", json: { price: "120", fees: "1" } });
    expect(patched.status).toBe(200);
    expect((await trades(client, `?accountId=${accountId}`))[0]).toMatchObject({ grossPnl: "200.00", netPnl: "199.00" });
    expect(await balance(client, accountId)).toBe("1199.00");

    expect((await client.delete(`/api/fills/${sell.id}`)).status).toBe(204);
    expect((await trades(client, `?accountId=${accountId}`))[0]).toMatchObject({ status: "open", openQuantity: "10.00" });
    expect(await balance(client, accountId)).toBe("0.00");
    const entries = rowsOf(await t.deps.db.execute(sql`select 1 from ledger_entries where fill_id = ${sell.id}`));
    expect(entries).toEqual([]);

    expect((await client.delete(`/api/fills/${buy.id}`)).status).toBe(204);
    expect(await trades(client, `?accountId=${accountId}`)).toEqual([]);
    expect(await balance(client, accountId)).toBe("1000.00");
  });

  it("keeps journal fields through a rebuild and filters by tag, status, symbol and date", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    await fill(client, accountId, { symbol: "NVDA", side: "buy", quantity: "5", price: "100" });
    const [nvda] = await trades(client, `?accountId=${accountId}`);
    const journal = await client.request(`/api/trades/${nvda!.id}`, {
      method: "PATCH",
      json: { notes: "Breakout over the morning high", tags: ["breakout", " momentum ", "breakout"], setup: "ORB", rating: 4 },
    });
    expect(journal.status).toBe(200);
    expect((await journal.json()).trade).toMatchObject({ tags: ["breakout", "momentum"], setup: "ORB", rating: 4 });

    await fill(client, accountId, { symbol: "NVDA", side: "sell", quantity: "5", price: "104" });
    await fill(client, accountId, { symbol: "AMD", side: "buy", quantity: "1", price: "50" });
    const [kept] = await trades(client, `?accountId=${accountId}&tag=breakout`);
    expect(kept).toMatchObject({ id: nvda!.id, status: "closed", notes: "Breakout over the morning high", rating: 4 });
    expect((await trades(client, `?accountId=${accountId}&status=open`)).map((x) => x.symbol)).toEqual(["AMD"]);
    expect((await trades(client, `?accountId=${accountId}&status=closed`)).map((x) => x.symbol)).toEqual(["NVDA"]);
    expect(await trades(client, `?accountId=${accountId}&from=2099-01-01T00:00:00Z`)).toEqual([]);

    for (const body of [{ rating: 6 }, { rating: 2.5 }, { tags: [""] }, { unknown: 1 }]) {
      expect((await client.request(`/api/trades/${nvda!.id}`, { method: "PATCH", json: body })).status).toBe(400);
    }
  });

  it("says each trade's currency, its account's, in the list, the detail and the journal answer", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    const euros = (await (await client.post("/api/accounts", { name: `Euro ${crypto.randomUUID()}`, currency: "eur" })).json()).id as string;
    await fill(client, accountId, { symbol: "AAPL", side: "buy", quantity: "1", price: "190" });
    await fill(client, euros, { symbol: "SAP", side: "buy", quantity: "1", price: "160" });
    const all = await trades(client);
    expect(Object.fromEntries(all.map((x) => [x.symbol, x.currency]))).toEqual({ AAPL: "USD", SAP: "EUR" });
    const sap = all.find((x) => x.symbol === "SAP")!;
    expect((await (await client.get(`/api/trades/${sap.id}`)).json()).trade).toMatchObject({ accountId: euros, currency: "EUR" });
    const journaled = await client.request(`/api/trades/${sap.id}`, { method: "PATCH", json: { notes: "Xetra" } });
    expect((await journaled.json()).trade).toMatchObject({ currency: "EUR", notes: "Xetra" });
  });

  it("names the trades of the same account opened just before and after, to step through them", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    const other = (await (await client.post("/api/accounts", { name: `Other ${crypto.randomUUID()}`, currency: "USD" })).json()).id as string;
    const at = (minute: number) => new Date(Date.parse("2026-03-02T15:00:00Z") + minute * 60_000).toISOString();
    await fill(client, accountId, { symbol: "AAPL", side: "buy", quantity: "1", price: "190", executedAt: at(0) });
    await fill(client, other, { symbol: "MSFT", side: "buy", quantity: "1", price: "400", executedAt: at(1) });
    await fill(client, accountId, { symbol: "NVDA", side: "buy", quantity: "1", price: "100", executedAt: at(2) });
    await fill(client, accountId, { symbol: "TSLA", side: "buy", quantity: "1", price: "200", executedAt: at(3) });
    const ids = Object.fromEntries((await trades(client)).map((x) => [x.symbol, x.id as string]));
    const adjacent = async (symbol: string) => (await (await client.get(`/api/trades/${ids[symbol]}`)).json()).adjacent;
    // The other account's MSFT, opened between them, is not among this account's.
    expect(await adjacent("AAPL")).toEqual({ older: null, newer: ids.NVDA });
    expect(await adjacent("NVDA")).toEqual({ older: ids.AAPL, newer: ids.TSLA });
    expect(await adjacent("TSLA")).toEqual({ older: ids.NVDA, newer: null });
    expect(await adjacent("MSFT")).toEqual({ older: null, newer: null });
  });

  it("sorts by any column (missing figures last), totals the whole filtered set and filters by close, fill day, side, setup and entry time", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    // New York (the account's zone) is on EDT: 14:00Z is 10:00 there. 2025-06-02 is a Monday.
    const trip = async (symbol: string, open: [string, string, string, string], close?: [string, string, string]) => {
      await fill(client, accountId, { symbol, side: open[0], quantity: open[1], price: open[2], executedAt: open[3], fees: symbol === "TSLA" ? "1" : "0" });
      if (close) await fill(client, accountId, { symbol, side: open[0] === "buy" ? "sell" : "buy", quantity: open[1], price: close[0], executedAt: close[1], fees: close[2] });
    };
    await trip("AAPL", ["buy", "10", "100", "2025-06-02T14:00:00Z"], ["110", "2025-06-02T15:00:00Z", "0"]); // +100, held 1 h
    await trip("MSFT", ["sell", "5", "200", "2025-06-03T15:30:00Z"], ["210", "2025-06-05T15:30:00Z", "0"]); // -50, held 2 days
    await trip("TSLA", ["buy", "1", "300", "2025-06-04T14:00:00Z"]); // open, -1 of fees
    await trip("NVDA", ["buy", "2", "50", "2025-06-05T13:45:00Z"], ["60", "2025-06-05T14:00:00Z", "0"]); // +20, held 15 min
    const ids = Object.fromEntries((await trades(client, `?accountId=${accountId}`)).map((x) => [x.symbol, x.id as string]));
    expect((await client.request(`/api/trades/${ids.AAPL}`, { method: "PATCH", json: { stopPrice: "95" } })).status).toBe(200); // 1R = 50: +2R
    expect((await client.request(`/api/trades/${ids.NVDA}`, { method: "PATCH", json: { setup: "Breakout" } })).status).toBe(200);

    const symbols = async (query: string) => (await trades(client, `?accountId=${accountId}&${query}`)).map((x) => x.symbol);
    expect(await symbols("")).toEqual(["NVDA", "TSLA", "MSFT", "AAPL"]);
    expect(await symbols("sort=openedAt&order=asc")).toEqual(["AAPL", "MSFT", "TSLA", "NVDA"]);
    expect(await symbols("sort=netPnl")).toEqual(["AAPL", "NVDA", "TSLA", "MSFT"]);
    expect(await symbols("sort=netPnl&order=asc")).toEqual(["MSFT", "TSLA", "NVDA", "AAPL"]);
    expect(await symbols("sort=heldFor&order=asc")).toEqual(["NVDA", "AAPL", "MSFT", "TSLA"]);
    expect(await symbols("sort=symbol&order=asc")).toEqual(["AAPL", "MSFT", "NVDA", "TSLA"]);
    expect(await symbols("sort=closedAt")).toEqual(["MSFT", "NVDA", "AAPL", "TSLA"]);
    expect(await symbols("sort=direction&order=desc")).toEqual(["MSFT", "NVDA", "TSLA", "AAPL"]);
    expect(await symbols("sort=averageEntryPrice&order=asc")).toEqual(["NVDA", "AAPL", "MSFT", "TSLA"]);
    expect(await symbols("sort=averageExitPrice&order=asc")).toEqual(["NVDA", "AAPL", "MSFT", "TSLA"]);
    // Only AAPL has a 1R; the others (no R) come after it, newest opened first, in either order.
    expect(await symbols("sort=rMultiple&order=asc")).toEqual(["AAPL", "NVDA", "TSLA", "MSFT"]);
    expect(await symbols("sort=rMultiple&order=desc")).toEqual(["AAPL", "NVDA", "TSLA", "MSFT"]);
    // Without bars no trade has excursions yet: every trade, in the fallback order.
    for (const key of ["mae", "mfe", "efficiency", "account", "quantity", "grossPnl", "status"]) expect((await symbols(`sort=${key}`)).sort(), key).toEqual(["AAPL", "MSFT", "NVDA", "TSLA"]);
    expect(await symbols("sort=mae")).toEqual(["NVDA", "TSLA", "MSFT", "AAPL"]);
    expect(await symbols("sort=status&order=asc")).toEqual(["TSLA", "NVDA", "MSFT", "AAPL"]);
    // Every column, both ways: a trade without the figure the list shows in that column comes after every trade
    // with one (docs/web.md: "figures a trade lacks come last either way").
    const figure: Record<TradeSort, (x: Record<string, unknown>) => unknown> = {
      openedAt: (x) => x.openedAt, closedAt: (x) => x.closedAt, status: (x) => x.status, heldFor: (x) => x.openedAt, symbol: (x) => x.symbol,
      account: (x) => x.accountId, direction: (x) => x.direction, quantity: (x) => x.maxQuantity, averageEntryPrice: (x) => x.averageEntryPrice,
      averageExitPrice: (x) => x.averageExitPrice, grossPnl: (x) => x.grossPnl, netPnl: (x) => x.netPnl,
      rMultiple: (x) => (x.risk as { rMultiple: unknown }).rMultiple, mae: (x) => (x.excursions as { positionMae?: unknown } | null)?.positionMae ?? null,
      mfe: (x) => (x.excursions as { positionMfe?: unknown } | null)?.positionMfe ?? null, efficiency: (x) => (x.excursions as { efficiency?: unknown } | null)?.efficiency ?? null,
    };
    for (const key of TRADE_SORTS) {
      for (const order of ["asc", "desc"]) {
        const missing = (await trades(client, `?accountId=${accountId}&sort=${key}&order=${order}`)).map((x) => figure[key](x) === null);
        expect(missing, `${key} ${order}`).toEqual(missing.toSorted((a, b) => Number(a) - Number(b)));
      }
    }
    // Pages follow the order.
    const second = await client.get(`/api/trades?accountId=${accountId}&sort=netPnl&pageSize=2&page=2`);
    expect((await second.json()).trades.map((x: { symbol: string }) => x.symbol)).toEqual(["TSLA", "MSFT"]);

    // Totals count every matching trade, not the page; the win rate is over the closed ones.
    const all = await (await client.get(`/api/trades?accountId=${accountId}&pageSize=1&totals=true`)).json();
    expect(all.trades).toHaveLength(1);
    expect(all.totals).toEqual([{ currency: "USD", trades: 4, closed: 3, wins: 2, winRate: "0.6667", netPnl: "69.00" }]);
    const longs = await (await client.get(`/api/trades?accountId=${accountId}&direction=long&status=open&totals=true`)).json();
    expect(longs.totals).toEqual([{ currency: "USD", trades: 1, closed: 0, wins: 0, winRate: null, netPnl: "-1.00" }]);
    expect((await (await client.get(`/api/trades?accountId=${accountId}&symbol=ZZZZ&totals=true`)).json()).totals).toEqual([]);
    expect(await (await client.get(`/api/trades?accountId=${accountId}`)).json()).not.toHaveProperty("totals");

    expect(await symbols("closedFrom=2025-06-05T00:00:00Z&closedTo=2025-06-06T00:00:00Z")).toEqual(["NVDA", "MSFT"]);
    // A calendar day (New York): the trades with a fill on it, MSFT through its closing fill.
    expect(await symbols("tradedFrom=2025-06-05T04:00:00Z&tradedTo=2025-06-06T04:00:00Z")).toEqual(["NVDA", "MSFT"]);
    expect(await symbols("tradedFrom=2025-06-04T04:00:00Z&tradedTo=2025-06-05T04:00:00Z")).toEqual(["TSLA"]);
    expect(await symbols("direction=short")).toEqual(["MSFT"]);
    expect(await symbols("setup=breakout")).toEqual([]);
    expect(await symbols("setup=Breakout")).toEqual(["NVDA"]);
    expect(await symbols("setup=")).toEqual(["TSLA", "MSFT", "AAPL"]);
    expect(await symbols("entryWeekday=2")).toEqual(["MSFT"]);
    expect(await symbols("entryHour=9")).toEqual(["NVDA"]);
    expect(await symbols("entryHour=10")).toEqual(["TSLA", "AAPL"]);

    // The breakdown by rules: MSFT lost more than 40, breaking the account's rule; the rest kept it.
    expect((await client.post("/api/rules", { accountId, rule: { type: "max_loss_per_trade", amount: "40" } })).status).toBe(201);
    expect(await symbols("rules=broke")).toEqual(["MSFT"]);
    expect(await symbols("rules=kept")).toEqual(["NVDA", "TSLA", "AAPL"]);
    const noAccount = await client.get("/api/trades?rules=broke");
    expect(noAccount.status).toBe(400);
    expect((await noAccount.json()).error.fields).toEqual([{ path: "accountId", message: "is required with rules" }]);

    for (const bad of ["rules=some", "sort=price", "order=up", "entryHour=24", "entryWeekday=0", "direction=flat", "totals=yes", "closedFrom=yesterday"]) {
      const res = await client.get(`/api/trades?${bad}`);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("refuses a duplicate execution id in the same account with 409 and writes nothing", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    await fill(client, accountId, { symbol: "SPY", side: "buy", quantity: "1", price: "500", executionId: "EX-1" });
    const before = await balance(client, accountId);
    const dup = await client.post("/api/fills", { accountId, symbol: "SPY", side: "buy", quantity: "1", price: "500", executedAt: nextTime(), executionId: "EX-1" });
    expect(dup.status).toBe(409);
    expect(await balance(client, accountId)).toBe(before);
  });

  it.each([
    ["zero quantity", { quantity: "0" }, "quantity"],
    ["negative price", { price: "-1" }, "price"],
    ["a JSON number", { quantity: 5 }, "quantity"],
    ["negative fees", { fees: "-0.01" }, "fees"],
    ["bad side", { side: "long" }, "side"],
    ["no offset on the time", { executedAt: "2026-03-02T10:00:00" }, "executedAt"],
    ["an unknown futures root without multiplier", { symbol: "QQZ4", assetClass: "future" }, "multiplier"],
  ])("refuses %s with VALIDATION_ERROR", async (_n, patch, field) => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t);
    const res = await client.post("/api/fills", { accountId, symbol: "SPY", side: "buy", quantity: "1", price: "1", executedAt: nextTime(), ...patch });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.map((f: { path: string }) => f.path)).toContain(field);
    expect(await trades(client, `?accountId=${accountId}`)).toEqual([]);
  });

  it("answers 404 for another user's fills, trades and accounts, and changes nothing", async () => {
    const t = await testApp(url());
    const alice = await setup(t);
    const bob = await setup(t);
    const bobsFill = await fill(bob.client, bob.accountId, { symbol: "IBM", side: "buy", quantity: "1", price: "100" });
    const [bobsTrade] = await trades(bob.client, `?accountId=${bob.accountId}`);
    const checks: Array<[string, Promise<Response>]> = [
      ["get fill", alice.client.get(`/api/fills/${bobsFill.id}`)],
      ["patch fill", alice.client.request(`/api/fills/${bobsFill.id}`, { method: "PATCH", json: { price: "1" } })],
      ["delete fill", alice.client.delete(`/api/fills/${bobsFill.id}`)],
      ["list fills", alice.client.get(`/api/fills?accountId=${bob.accountId}`)],
      ["add fill", alice.client.post("/api/fills", { accountId: bob.accountId, symbol: "IBM", side: "buy", quantity: "1", price: "1", executedAt: nextTime() })],
      ["get trade", alice.client.get(`/api/trades/${bobsTrade!.id}`)],
      ["journal trade", alice.client.request(`/api/trades/${bobsTrade!.id}`, { method: "PATCH", json: { notes: "mine" } })],
      ["list trades", alice.client.get(`/api/trades?accountId=${bob.accountId}`)],
    ];
    for (const [name, response] of checks) expect((await response).status, name).toBe(404);
    expect(await trades(alice.client)).toEqual([]);
    const [still] = await trades(bob.client, `?accountId=${bob.accountId}`);
    expect(still).toMatchObject({ notes: null, averageEntryPrice: "100.00" });
  });

  it("lists an account's fills newest first (ties by id), page by page with hasMore, and by symbol", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t, "0");
    const same = nextTime();
    const posted: Array<{ id: string; symbol: string; executedAt: string }> = [];
    for (const [symbol, at] of [["AAPL", nextTime()], ["MSFT", same], ["AAPL", same], ["MSFT", nextTime()], ["AAPL", nextTime()]] as const) {
      posted.push(await fill(client, accountId, { symbol, side: "buy", quantity: "1", price: "10", executedAt: at }));
    }
    const newestFirst = [...posted].sort((a, b) => b.executedAt.localeCompare(a.executedAt) || b.id.localeCompare(a.id)).map((f) => f.id);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await client.get(`/api/fills?accountId=${accountId}&pageSize=2&page=${page}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ page, pageSize: 2, hasMore: page < 3 });
      seen.push(...body.fills.map((f: { id: string }) => f.id));
    }
    expect(seen).toEqual(newestFirst);
    const aapl = (await (await client.get(`/api/fills?accountId=${accountId}&symbol=aapl`)).json()).fills;
    expect(aapl.map((f: { id: string }) => f.id)).toEqual(newestFirst.filter((id) => posted.find((f) => f.id === id)!.symbol === "AAPL"));
    expect(aapl[0]).toMatchObject({ accountId, symbol: "AAPL", side: "buy", quantity: "1.00", price: "10.00", assetClass: "stock" });
  });

  it("stays consistent when many fills of one position arrive at once", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t, "0");
    const at = nextTime();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post("/api/fills", { accountId, symbol: "QQQ", side: "buy", quantity: "1", price: `${400 + i}`, executedAt: at }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const [qqq] = await trades(client, `?accountId=${accountId}`);
    expect(qqq).toMatchObject({ openQuantity: "20.00", averageEntryPrice: "409.50" });
    expect(await balance(client, accountId)).toBe("-8190.00");
  });

  it("concurrent edits of different fields of one fill both stick", async () => {
    const t = await testApp(url());
    const { client, accountId } = await setup(t, "0");
    for (let round = 0; round < 10; round++) {
      const created = await client.post("/api/fills", { accountId, symbol: "IWM", side: "buy", quantity: "1", price: "200", fees: "0", executedAt: nextTime() });
      const { id } = (await created.json()) as { id: string };
      const [a, b, c] = await Promise.all([
        client.request(`/api/fills/${id}`, { method: "PATCH", json: { quantity: "3" } }),
        client.request(`/api/fills/${id}`, { method: "PATCH", json: { price: "210" } }),
        client.request(`/api/fills/${id}`, { method: "PATCH", json: { fees: "2" } }),
      ]);
      expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
      const fill = await (await client.get(`/api/fills/${id}`)).json();
      expect(fill, `round ${round}`).toMatchObject({ quantity: "3.00", price: "210.00", fees: "2.00" });
      // The ledger follows the fill as it ended up: 3 x 210 bought, 2 in fees.
      expect(await balance(client, accountId)).toBe("-632.00");
      expect((await client.delete(`/api/fills/${id}`)).status).toBe(204);
    }
  });
});

describe("position math (property-based, against a reference model)", () => {
  it("matches the model for random fill sequences: trades, P&L net of fees, and cash", async () => {
    const t = await testApp(url());
    const { client } = await setup(t, "0");
    const fillArb = fc.record({
      side: fc.constantFrom("buy" as const, "sell" as const),
      qty: fc.integer({ min: 1, max: 30 }),
      cents: fc.integer({ min: 1, max: 50_000 }),
      feeCents: fc.integer({ min: 0, max: 999 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fillArb, { minLength: 1, maxLength: 10 }), async (seq) => {
        const created = await client.post("/api/accounts", { name: `Run ${crypto.randomUUID()}`, currency: "USD" });
        const accountId = (await created.json()).id as string;
        const modelFills: ModelFill[] = [];
        for (const f of seq) {
          const price = (f.cents / 100).toFixed(2);
          const feesStr = (f.feeCents / 100).toFixed(2);
          await fill(client, accountId, { symbol: "XYZ", side: f.side, quantity: String(f.qty), price, fees: feesStr });
          modelFills.push({ side: f.side, qty: toS(String(f.qty)), price: toS(price), fees: toS(feesStr) });
        }
        const expected = positionModel(modelFills);
        const actual = (await trades(client, `?accountId=${accountId}&pageSize=200`)).reverse();
        const actualClosed = actual.filter((x) => x.status === "closed");
        expect(actualClosed.map((x) => [x.direction, x.grossPnl, x.fees, x.netPnl])).toEqual(
          expected.closed.map((c) => [c.direction, fmt(c.gross), fmt(c.fees), fmt(c.gross - c.fees)]),
        );
        const actualOpen = actual.filter((x) => x.status === "open");
        expect(actualOpen.map((x) => [x.direction, x.openQuantity])).toEqual(
          expected.open ? [[expected.open.direction, fmt(expected.open.qty)]] : [],
        );
        expect(await balance(client, accountId)).toBe(fmt(expected.cash));
      }),
      { numRuns: 25 },
    );
  });
});

describe("fill shares stay consistent with the fills (position_fills has no foreign key to fills: migration 0013)", () => {
  /** Shares naming a missing fill, or a fill of another account or symbol; fills whose shares do not add up to them. */
  async function sharesOutOfStep(t: TestApp, accountId: string) {
    const dangling = rowsOf(
      await t.deps.db.execute(sql`select pf.fill_id from position_fills pf join positions p on p.id = pf.position_id
        left join fills f on f.id = pf.fill_id
        where p.account_id = ${accountId} and (f.id is null or f.account_id <> p.account_id or f.symbol <> p.symbol)`),
    );
    const unshared = rowsOf(
      await t.deps.db.execute(sql`select f.id from fills f left join position_fills pf on pf.fill_id = f.id
        where f.account_id = ${accountId} group by f.id, f.quantity having coalesce(sum(pf.quantity), 0) <> f.quantity`),
    );
    return { dangling, unshared };
  }

  it("after random adds, edits (symbol, side, quantity) and deletes, and after the account is deleted", async () => {
    const t = await testApp(url());
    const { client } = await setup(t, "0");
    const op = fc.oneof(
      fc.record({ kind: fc.constant("add" as const), symbol: fc.constantFrom("AAA", "BBB"), buy: fc.boolean(), qty: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), symbol: fc.constantFrom("AAA", "BBB"), buy: fc.boolean(), qty: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const created = await client.post("/api/accounts", { name: `Shares ${crypto.randomUUID()}`, currency: "USD" });
        const accountId = (await created.json()).id as string;
        const ids: string[] = [];
        for (const o of ops) {
          if (o.kind === "add") {
            ids.push((await fill(client, accountId, { symbol: o.symbol, side: o.buy ? "buy" : "sell", quantity: String(o.qty), price: "10" })).id);
          } else if (ids.length && o.kind === "edit") {
            const id = ids[o.pick % ids.length]!;
            const res = await client.request(`/api/fills/${id}`, { method: "PATCH", json: { symbol: o.symbol, side: o.buy ? "buy" : "sell", quantity: String(o.qty) } });
            expect(res.status).toBe(200);
          } else if (ids.length && o.kind === "delete") {
            const [id] = ids.splice(o.pick % ids.length, 1);
            expect((await client.delete(`/api/fills/${id}`)).status).toBe(204);
          }
        }
        expect(await sharesOutOfStep(t, accountId)).toEqual({ dangling: [], unshared: [] });
        expect((await client.delete(`/api/accounts/${accountId}?confirm=delete-history`)).status).toBe(204);
        if (ids.length) {
          const left = rowsOf(await t.deps.db.execute(sql`select 1 from position_fills where fill_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`));
          expect(left).toEqual([]);
        }
      }),
      { numRuns: 20 },
    );
  });
});

describe("a fill added, edited or deleted rebuilds from it (positions_rebuild_from), the same as replaying the symbol", () => {
  /** What the positions, their shares and the ledger say, without ids a rebuild may renew. */
  async function state(t: TestApp, accountId: string) {
    const positions = rowsOf(
      await t.deps.db.execute(sql`select open_fill_id::text, direction, opened_at, closed_at, open_quantity::text, max_quantity::text,
        entry_quantity::text, entry_value::text, exit_quantity::text, exit_value::text, fees::text, gross_pnl::text, net_pnl::text
        from positions where account_id = ${accountId} order by opened_at, open_fill_id`),
    );
    const shares = rowsOf(
      await t.deps.db.execute(sql`select p.open_fill_id::text as position, pf.fill_id::text, pf.role, pf.quantity::text, pf.fees::text, pf.realized::text
        from position_fills pf join positions p on p.id = pf.position_id where p.account_id = ${accountId}
        order by pf.executed_at, pf.fill_id, pf.role`),
    );
    const ledger = rowsOf(
      await t.deps.db.execute(sql`select fill_id::text, amount::text, rank, balance_after::text from ledger_running
        where account_id = ${accountId} order by ledger_running.rank`),
    );
    return { positions, shares, ledger };
  }

  it("for fills added, edited and deleted in any order, stocks and futures: positions, shares and cash as a full replay leaves them", async () => {
    const t = await testApp(url());
    const { client } = await setup(t, "0");
    const at = (minute: number) => new Date(Date.parse("2026-05-04T14:00:00Z") + minute * 60_000).toISOString();
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant("add" as const), minute: fc.integer({ min: 0, max: 6 }), buy: fc.boolean(), qty: fc.integer({ min: 1, max: 4 }), cents: fc.integer({ min: 9_000, max: 11_000 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), pick: fc.nat(), minute: fc.option(fc.integer({ min: 0, max: 6 })), buy: fc.option(fc.boolean()), qty: fc.option(fc.integer({ min: 1, max: 4 })), other: fc.boolean() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(["XYZ", "ABC"], ["ESZ26", "NQZ26"]), fc.array(op, { minLength: 1, maxLength: 14 }), async ([symbol, otherSymbol], ops) => {
        const created = await client.post("/api/accounts", { name: `Order ${crypto.randomUUID()}`, currency: "USD" });
        const accountId = (await created.json()).id as string;
        const ids: string[] = [];
        for (const o of ops) {
          if (o.kind === "add") {
            ids.push((await fill(client, accountId, { symbol, side: o.buy ? "buy" : "sell", quantity: String(o.qty), price: (o.cents / 100).toFixed(2), fees: "1.25", executedAt: at(o.minute) })).id);
          } else if (ids.length && o.kind === "edit") {
            const json = {
              ...(o.minute !== null ? { executedAt: at(o.minute) } : {}),
              ...(o.buy !== null ? { side: o.buy ? "buy" : "sell" } : {}),
              ...(o.qty !== null ? { quantity: String(o.qty) } : {}),
              ...(o.other ? { symbol: otherSymbol } : {}),
            };
            const res = await client.request(`/api/fills/${ids[o.pick % ids.length]}`, { method: "PATCH", json });
            expect(res.status, JSON.stringify(json)).toBe(200);
          } else if (ids.length && o.kind === "delete") {
            const [id] = ids.splice(o.pick % ids.length, 1);
            expect((await client.delete(`/api/fills/${id}`)).status).toBe(204);
          }
        }
        const incremental = await state(t, accountId);
        for (const s of [symbol, otherSymbol]) await t.deps.db.execute(sql`select positions_rebuild(${accountId}::uuid, ${s})`);
        await t.deps.db.execute(sql`select ledger_renumber(${accountId}::uuid, '-infinity'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid)`);
        expect(incremental).toEqual(await state(t, accountId));
      }),
      { numRuns: 100 },
    );
  });
});
