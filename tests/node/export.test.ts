// An account's data as CSV: fills in the generic import format (they import again, exactly), trades with their
// journal fields, the ledger with running balances; another user's account is 404; typed text cannot turn
// into a spreadsheet formula. Real Postgres.
import Papa from "papaparse";
import { describe, expect, inject, it } from "vitest";
import { textCell } from "../../lib/archive/account-csv.ts";
import { signUp, testApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function account(client: TestClient, name: string, startingBalance = "10000") {
  const res = await client.post("/api/accounts", { name, currency: "USD", startingBalance, timezone: "Etc/UTC" });
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
}
const csvOf = async (client: TestClient, accountId: string, kind: string) => {
  const res = await client.get(`/api/accounts/${accountId}/export/${kind}`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="${kind}-[0-9a-f]{8}\\.csv"$`));
  return res.text();
};
const rowsOf = (csv: string) => Papa.parse<Record<string, string>>(csv.trim(), { header: true }).data;

describe("GET /api/accounts/:id/export/:kind", () => {
  it("fills export in the generic format and import again into another account exactly", async () => {
    const t = await testApp(url());
    const { client } = await signUp(t, "exporter");
    const from = await account(client, "From");
    const fill = (body: Record<string, unknown>) => client.post("/api/fills", { accountId: from, ...body }).then((r) => expect(r.status).toBe(201));
    await fill({ symbol: "AAPL", side: "buy", quantity: "10", price: "150.25", fees: "1", executedAt: "2026-03-02T14:30:00Z", executionId: "X-1" });
    await fill({ symbol: "AAPL", side: "sell", quantity: "4", price: "151.125", fees: "0.5", executedAt: "2026-03-02T15:00:00Z" });
    await fill({ symbol: "ESZ6", side: "sell", quantity: "1", price: "6000.25", fees: "2.25", executedAt: "2026-03-03T15:00:00Z", executionId: "=HYPERLINK(1)" });
    await fill({ symbol: "AAPL  270119C00150000", side: "buy", quantity: "2", price: "3.5", fees: "1.3", executedAt: "2026-03-04T15:00:00Z" });
    const csv = await csvOf(client, from, "fills");
    const exported = rowsOf(csv);
    expect(Object.keys(exported[0]!)).toEqual(["Date/Time", "Symbol", "Side", "Quantity", "Price", "Fees", "Execution ID", "Asset Class", "Multiplier"]);
    expect(exported[0]).toEqual({ "Date/Time": "2026-03-02T14:30:00.000Z", Symbol: "AAPL", Side: "BUY", Quantity: "10.00", Price: "150.25", Fees: "1.00", "Execution ID": "X-1", "Asset Class": "stock", Multiplier: "1.00" });
    expect(exported[2]!["Execution ID"]).toBe("'=HYPERLINK(1)");

    // Into a fresh account through the generic preset: the same fills.
    const to = await account(client, "To");
    const form = new FormData();
    form.set("file", new Blob([csv]), "fills.csv");
    form.set("request", JSON.stringify({ accountId: to, presetId: "generic" }));
    const preview = await client.request("/api/csv-import/preview", { method: "POST", body: form });
    expect(preview.status, await preview.clone().text()).toBe(201);
    const commit = await client.post("/api/csv-import/commit", { importId: (await preview.json()).importId });
    expect(commit.status).toBe(200);
    const list = async (accountId: string) =>
      ((await (await client.get(`/api/fills?accountId=${accountId}&pageSize=500`)).json()).fills as Array<Record<string, unknown>>).map(
        ({ symbol, assetClass, multiplier, side, quantity, price, fees, executedAt }) => ({ symbol, assetClass, multiplier, side, quantity, price, fees, executedAt }),
      );
    expect(await list(to)).toEqual(await list(from));
    const trades = async (accountId: string) => ((await (await client.get(`/api/trades?accountId=${accountId}`)).json()).trades as Array<{ netPnl: string }>).map((x) => x.netPnl).sort();
    expect(await trades(to)).toEqual(await trades(from));
  });

  it("trades carry their journal fields; the ledger its running balance", async () => {
    const t = await testApp(url());
    const { client } = await signUp(t, "exporter2");
    const id = await account(client, "Journal", "1000");
    await client.post("/api/fills", { accountId: id, symbol: "MSFT", side: "buy", quantity: "2", price: "400", executedAt: "2026-03-02T14:30:00Z" });
    await client.post("/api/fills", { accountId: id, symbol: "MSFT", side: "sell", quantity: "2", price: "410", executedAt: "2026-03-02T15:30:00Z" });
    const [trade] = (await (await client.get(`/api/trades?accountId=${id}`)).json()).trades;
    await client.request(`/api/trades/${trade.id}`, { method: "PATCH", json: { notes: "+ waited, \"patient\"\nline two", tags: ["breakout", "@open"], setup: "ORB", rating: 4 } });
    await client.post(`/api/ledger/${id}/entries`, { type: "deposit", amount: "250", note: "=1+1" });
    const [row] = rowsOf(await csvOf(client, id, "trades"));
    expect(row).toMatchObject({ "Trade ID": trade.id, Symbol: "MSFT", Direction: "long", "Net P&L": "20.00", Setup: "ORB", Rating: "4", Tags: "breakout;@open", Notes: "'+ waited, \"patient\"\nline two" });
    const ledger = rowsOf(await csvOf(client, id, "ledger"));
    expect(ledger.map((r) => [r.Type, r.Amount, r.Balance])).toEqual([
      ["opening", "1000.00", "1000.00"],
      ["fill", "-800.00", "200.00"],
      ["fill", "820.00", "1020.00"],
      ["deposit", "250.00", "1270.00"],
    ]);
    expect(ledger[3]!.Note).toBe("'=1+1");
    // A fill's row says what the fill was; other rows leave those columns empty.
    expect(ledger.map((r) => [r.Symbol, r.Side, r.Quantity, r.Price])).toEqual([
      ["", "", "", ""],
      ["MSFT", "buy", "2.00", "400.00"],
      ["MSFT", "sell", "2.00", "410.00"],
      ["", "", "", ""],
    ]);
    // Averages of several fills at the screens' precision (4 decimals at most): 400, 400, 401 average 400.3333333333.
    await client.post("/api/fills", { accountId: id, symbol: "KO", side: "buy", quantity: "1", price: "400", executedAt: "2026-03-03T14:30:00Z" });
    await client.post("/api/fills", { accountId: id, symbol: "KO", side: "buy", quantity: "1", price: "400", executedAt: "2026-03-03T14:31:00Z" });
    await client.post("/api/fills", { accountId: id, symbol: "KO", side: "buy", quantity: "1", price: "401", executedAt: "2026-03-03T14:32:00Z" });
    const ko = rowsOf(await csvOf(client, id, "trades")).find((r) => r.Symbol === "KO")!;
    expect([ko["Avg Entry"], ko["Avg Exit"]]).toEqual(["400.3333", ""]);
    expect((await (await client.get(`/api/trades?accountId=${id}&symbol=KO`)).json()).trades[0].averageEntryPrice).toBe("400.3333333333");
  });

  it("a symbol stored before today's rules (an older release, a restored file) leaves every export inert", async () => {
    const t = await testApp(url());
    const { client } = await signUp(t, "exporter3");
    const id = await account(client, "Old", "1000");
    await client.post("/api/fills", { accountId: id, symbol: "MSFT", side: "buy", quantity: "2", price: "400", executedAt: "2026-03-02T14:30:00Z" });
    // What the probe found stored through the whole-account import before it applied the API's rules.
    const { sql } = await import("drizzle-orm");
    await t.deps.db.execute(sql`update fills set symbol = '=HYPERLINK("http://evil.example","MSFT")' where account_id = ${id}::uuid`);
    await t.deps.db.execute(sql`update positions set symbol = '=HYPERLINK("http://evil.example","MSFT")' where account_id = ${id}::uuid`);
    for (const kind of ["fills", "trades", "ledger"]) {
      const [first, ...rest] = rowsOf(await csvOf(client, id, kind)).filter((r) => (r.Symbol ?? "") !== "");
      expect(rest, kind).toEqual([]);
      expect(first!.Symbol, kind).toBe(`'=HYPERLINK("http://evil.example","MSFT")`);
    }
  });

  it("another user's account is 404 like a missing one; a bad kind is 400; no session is 401", async () => {
    const t = await testApp(url());
    const owner = await signUp(t, "owner");
    const id = await account(owner.client, "Mine");
    const { client: other } = await signUp(t, "other");
    const theirs = await other.get(`/api/accounts/${id}/export/fills`);
    const nobodys = await other.get(`/api/accounts/${crypto.randomUUID()}/export/fills`);
    const [a, b] = [(await theirs.json()).error, (await nobodys.json()).error];
    expect([theirs.status, a.code, a.message]).toEqual([404, b.code, b.message]);
    expect(nobodys.status).toBe(404);
    expect((await owner.client.get(`/api/accounts/${id}/export/everything`)).status).toBe(400);
    expect((await t.client().get(`/api/accounts/${id}/export/fills`)).status).toBe(401);
  });

  it("keeps typed text from being read as a formula, and only typed text", () => {
    for (const bad of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(textCell(bad)).toBe(`'${bad}`);
    expect(textCell("ok, fine")).toBe("ok, fine");
    expect(textCell(null)).toBe("");
  });
});
