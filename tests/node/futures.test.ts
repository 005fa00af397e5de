// The futures contract table (DESIGN.md section 10, "Futures contracts"): listed by GET /api/instruments/futures;
// a contract in any broker notation takes its multiplier and currency from it, by hand and on import; an
// unknown root is an error naming the symbol, never a multiplier of 1. Real Postgres.
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";
import { GENERIC_HEADER } from "../support/csv.ts";

const url = () => inject("databaseUrl");

async function trader(currency = "USD") {
  const j = await journal(url());
  const { client } = await j.signUp("futures");
  const res = await client.post("/api/accounts", { name: `Futures ${crypto.randomUUID()}`, currency, timezone: "Etc/UTC" });
  return { ...j, client, accountId: (await res.json()).id as string };
}

describe("GET /api/instruments/futures", () => {
  it("lists the contracts of every group, with multiplier, tick size and currency; signed in only", async () => {
    const t = await trader();
    const res = await t.client.get("/api/instruments/futures");
    expect(res.status).toBe(200);
    const { futures } = (await res.json()) as { futures: Array<Record<string, string>> };
    const byRoot = new Map(futures.map((f) => [f.root, f]));
    expect(byRoot.get("ES")).toEqual({ root: "ES", name: "E-mini S&P 500", exchange: "CME", group: "equity index", multiplier: "50", tickSize: "0.25", currency: "USD" });
    expect(byRoot.get("MES")).toMatchObject({ multiplier: "5", tickSize: "0.25" });
    expect(byRoot.get("ZN")).toMatchObject({ exchange: "CBOT", group: "interest rate", multiplier: "1000", tickSize: "0.015625" });
    expect(byRoot.get("CL")).toMatchObject({ exchange: "NYMEX", group: "energy", multiplier: "1000", tickSize: "0.01" });
    expect(byRoot.get("GC")).toMatchObject({ exchange: "COMEX", group: "metal", multiplier: "100" });
    expect(byRoot.get("ZC")).toMatchObject({ group: "grain", multiplier: "50", tickSize: "0.25" });
    expect(byRoot.get("6E")).toMatchObject({ group: "currency", multiplier: "125000", tickSize: "0.00005" });
    expect(byRoot.get("KC")).toMatchObject({ exchange: "ICE US", multiplier: "375" });
    expect(byRoot.get("NIY")).toMatchObject({ currency: "JPY", multiplier: "500" });
    expect(new Set(futures.map((f) => f.group))).toEqual(
      new Set(["equity index", "interest rate", "energy", "metal", "grain", "livestock", "currency", "crypto", "volatility", "soft"]),
    );
    for (const micro of ["MES", "MNQ", "M2K", "MYM", "MCL", "MGC", "SIL", "MHG", "M6E", "MBT", "MET", "MZC"]) expect(byRoot.has(micro), micro).toBe(true);
    expect((await t.t.client().get("/api/instruments/futures")).status).toBe(401);
  });
});

describe("a futures fill", () => {
  it("typed in any notation takes the table's multiplier; a contract in another currency goes in an account of its own", async () => {
    const t = await trader();
    const add = (symbol: string, accountId = t.accountId) =>
      t.client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "1", price: "6000", executedAt: "2026-03-02T15:00:00Z" });
    for (const [symbol, normal, multiplier] of [
      ["ES DEC 25", "ESZ25", "50.00"],
      ["/MESZ5", "MESZ25", "5.00"],
      ["ESZ2025", "ESZ25", "50.00"],
      ["CL JAN 27", "CLF27", "1000.00"],
    ]) {
      const res = await add(symbol!);
      expect(res.status, symbol).toBe(201);
      expect(await res.json()).toMatchObject({ symbol: normal, assetClass: "future", multiplier });
    }
    // A yen contract in a dollar account: refused, naming the symbol; in a yen account, taken.
    const refused = await add("NIYH6");
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toEqual([{ path: "symbol", message: "settles in JPY, not in this account's USD" }]);
    const yen = (await (await t.client.post("/api/accounts", { name: `Yen ${crypto.randomUUID()}`, currency: "JPY" })).json()).id;
    expect((await add("NIYH6", yen)).status).toBe(201);
    // An unknown root marked as a future: its multiplier is asked for, never 1.
    const unknown = await add("/FOOZ5");
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.fields[0]).toMatchObject({ path: "symbol", message: expect.stringContaining('futures root "FOO", which the journal does not know') });
  });

  it("imported: the table's multiplier, an unknown root and another currency as errors naming their row's symbol", async () => {
    const t = await trader();
    const csv = [
      GENERIC_HEADER,
      "2026-03-02T15:00:00Z,ES DEC 25,BUY,1,6000,2.25,F1",
      "2026-03-02T15:30:00Z,/ESZ5,SELL,1,6010,2.25,F2",
      "2026-03-02T16:00:00Z,/FOOZ5,BUY,1,100,0,F3",
      "2026-03-02T16:30:00Z,/NIYH6,BUY,1,38000,0,F4",
    ].join("\n");
    const form = new FormData();
    form.set("file", new Blob([csv]), "futures.csv");
    form.set("request", JSON.stringify({ accountId: t.accountId, presetId: "generic" }));
    const res = await t.client.request("/api/csv-import/preview", { method: "POST", body: form });
    expect(res.status).toBe(201);
    const preview = await res.json();
    expect(preview.summary).toMatchObject({ valid: 2, invalid: 2 });
    expect(preview.errors).toEqual([
      { row: 4, column: "Symbol", message: expect.stringMatching(/^"\/FOOZ5": symbol has futures root "FOO", which the journal does not know/) },
      { row: 5, column: "Symbol", message: '"/NIYH6" settles in JPY, not this account\'s currency (USD): import this row into an account in JPY' },
    ]);
    expect((await t.client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
    const [trade] = (await (await t.client.get(`/api/trades?accountId=${t.accountId}`)).json()).trades;
    // (6010 - 6000) x 50 - 4.50
    expect(trade).toMatchObject({ symbol: "ESZ25", multiplier: "50.00", grossPnl: "500.00", netPnl: "495.50" });
  });
});
