// Tax through the API (issue 58, docs/tax.md): an account's tax status, a wash sale across two accounts and an
// IRA's, Form 8949 rows and Schedule D totals against hand-computed ones, the TXF file parsed back, a future
// marked to market at the year end from the trader's bars, the wash watch, and bad input. Real Postgres, the
// real migrations.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import Papa from "papaparse";
import { arrayLiteral } from "../../lib/db/rows.ts";
import { fromUnits, toUnits } from "../../lib/money.ts";
import { computeLots, type TaxFill } from "../../lib/tax/engine.ts";
import { formRows, fromCents, usDate } from "../../lib/tax/tax.ts";
import { signUp, testApp } from "../support/app.ts";
import { startFxServer, usdPerEur } from "../support/fx-server.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function json(res: Response, status = 200) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

async function trader(tag: string, now = "2027-02-15T12:00:00Z", env: Record<string, string> = {}) {
  const t = await testApp(url(), env, { now: () => new Date(now), peer: "per-request" });
  const { client } = await signUp(t, tag);
  const account = async (name: string, taxStatus?: string, currency = "USD") => {
    const id = (await json(await client.post("/api/accounts", { name: `${name} ${crypto.randomUUID()}`, currency, timezone: "America/New_York" }), 201)).id as string;
    if (taxStatus) expect((await json(await client.request(`/api/accounts/${id}`, { method: "PATCH", json: { taxStatus } }))).taxStatus).toBe(taxStatus);
    return id;
  };
  const fill = async (accountId: string, symbol: string, side: "buy" | "sell", quantity: string, price: string, day: string, fees = "0") =>
    json(await client.post("/api/fills", { accountId, symbol, side, quantity, price, fees, executedAt: `${day}T15:00:00Z` }), 201);
  return { t, client, account, fill };
}

const get = (client: TestClient, path: string) => client.get(path);

describe("tax lots through the API", () => {
  it("an account's tax status: taxable by default, changed by PATCH, a wrong one refused naming it", async () => {
    const { client, account } = await trader("tax-status");
    const id = await account("Brokerage");
    expect((await json(await client.get(`/api/accounts/${id}`))).taxStatus).toBe("taxable");
    const bad = await json(await client.request(`/api/accounts/${id}`, { method: "PATCH", json: { taxStatus: "roth" } }), 400);
    expect(bad.error.fields).toEqual([expect.objectContaining({ path: "taxStatus" })]);
    expect((await json(await client.get(`/api/accounts/${id}`))).taxStatus).toBe("taxable");
  });

  it("washes a loss with a purchase in another account; the 8949 rows, Schedule D and the TXF file agree by hand", async () => {
    const { client, account, fill } = await trader("tax-wash");
    const a = await account("Broker A");
    const b = await account("Broker B");
    // A: 100 X bought at 10 (fees 1), sold at 7.50 (fees 1) on 2026-06-01: a loss of 252.
    await fill(a, "XYZ", "buy", "100", "10", "2026-03-02", "1");
    await fill(a, "XYZ", "sell", "100", "7.5", "2026-06-01", "1");
    // B: 100 bought back 2026-06-15 at 8 (basis 800 + 252 = 1,052), sold 2026-09-01 at 11: a gain of 48.
    await fill(b, "XYZ", "buy", "100", "8", "2026-06-15");
    await fill(b, "XYZ", "sell", "100", "11", "2026-09-01");
    // A long-term gain: 10 ABC bought 2025-01-02 at 100, sold 2026-01-05 at 130.
    await fill(a, "ABC", "buy", "10", "100", "2025-01-02");
    await fill(a, "ABC", "sell", "10", "130", "2026-01-05");

    const { lots, currency } = await json(await get(client, "/api/tax/lots?year=2026"));
    expect(currency).toBe("USD");
    expect(lots).toEqual([
      expect.objectContaining({ symbol: "ABC", quantity: "10.00", acquiredAt: "2025-01-02", soldAt: "2026-01-05", proceeds: "1300.00", costBasis: "1000.00", gain: "300.00", term: "long", washSale: null }),
      expect.objectContaining({
        symbol: "XYZ",
        accountId: a,
        proceeds: "749.00",
        costBasis: "1001.00",
        adjustment: "252.00",
        gain: "0.00",
        term: "short",
        washSale: { code: "W", disallowed: "252.00", replacementLotOpenedAt: "2026-06-15", permanent: false },
      }),
      expect.objectContaining({ symbol: "XYZ", accountId: b, acquiredAt: "2026-03-16", proceeds: "1100.00", costBasis: "1052.00", gain: "48.00", term: "short" }),
    ]);
    // One account's lots: the wash across accounts still holds.
    expect((await json(await get(client, `/api/tax/lots?year=2026&accountId=${b}`))).lots).toEqual([expect.objectContaining({ costBasis: "1052.00" })]);

    const csv = await get(client, "/api/tax/8949.csv?year=2026");
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const parsed = Papa.parse<Record<string, string>>(await csv.text(), { header: true, skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      { part: "I", box: "C", description: "100 sh XYZ", dateAcquired: "03/02/2026", dateSold: "06/01/2026", proceeds: "749.00", costBasis: "1001.00", code: "W", adjustment: "252.00", gainOrLoss: "0.00" },
      { part: "I", box: "C", description: "100 sh XYZ", dateAcquired: "03/16/2026", dateSold: "09/01/2026", proceeds: "1100.00", costBasis: "1052.00", code: "", adjustment: "", gainOrLoss: "48.00" },
      { part: "II", box: "F", description: "10 sh ABC", dateAcquired: "01/02/2025", dateSold: "01/05/2026", proceeds: "1300.00", costBasis: "1000.00", code: "", adjustment: "", gainOrLoss: "300.00" },
    ]);
    expect(await json(await get(client, "/api/tax/schedule-d?year=2026"))).toEqual({
      year: 2026,
      currency: "USD",
      line3: { proceeds: "1849.00", costBasis: "2053.00", adjustment: "252.00", gain: "48.00" },
      line4: "0.00",
      line7: "48.00",
      line10: { proceeds: "1300.00", costBasis: "1000.00", adjustment: "0.00", gain: "300.00" },
      line11: "0.00",
      line15: "300.00",
      line16: "348.00",
      missingRates: [],
    });

    // The TXF file parsed back: the same rows, cost before proceeds, the wash amount as the sixth line.
    const file = await (await get(client, "/api/tax/txf?year=2026")).text();
    const records = file.split(/\r?\n\^\r?\n/).map((r) => r.split(/\r?\n/).filter(Boolean));
    expect(records[0]).toEqual(["V042", "ATrading Journal", "D02/15/2027"]);
    expect(records.slice(1).filter((r) => r.length)).toEqual([
      ["TD", "N712", "C1", "L1", "P100 sh XYZ", "D03/02/2026", "D06/01/2026", "$1001.00", "$749.00", "$252.00"],
      ["TD", "N712", "C1", "L1", "P100 sh XYZ", "D03/16/2026", "D09/01/2026", "$1052.00", "$1100.00"],
      ["TD", "N714", "C1", "L1", "P10 sh ABC", "D01/02/2025", "D01/05/2026", "$1000.00", "$1300.00"],
    ]);
    expect(file.endsWith("^\r\n")).toBe(true);
  });

  it("an IRA's purchase disallows the loss for good; an exempt account counts for nothing", async () => {
    const { client, account, fill } = await trader("tax-ira");
    const a = await account("Taxable");
    const ira = await account("IRA", "ira");
    const exempt = await account("Trust", "exempt");
    await fill(a, "QQQ", "buy", "10", "100", "2026-06-01");
    await fill(a, "QQQ", "sell", "10", "60", "2026-12-20");
    await fill(ira, "QQQ", "buy", "10", "61", "2026-12-21");
    await fill(exempt, "QQQ", "sell", "5", "10", "2026-07-01");
    const { lots, deferredLosses } = await json(await get(client, "/api/tax/lots?year=2026"));
    expect(lots).toEqual([expect.objectContaining({ accountId: a, adjustment: "400.00", washSale: expect.objectContaining({ permanent: true }) })]);
    expect(deferredLosses).toEqual([]);
  });

  it("marks a future held over the year end to market at the bars' last close, 60/40 on Form 6781", async () => {
    const { client, account, fill } = await trader("tax-1256");
    const a = await account("Futures");
    await fill(a, "ESZ6", "buy", "1", "6000", "2026-06-22");
    const bars = new FormData();
    bars.set("file", new Blob([["time,open,high,low,close", "2026-12-30T00:00:00Z,6090,6110,6080,6100", "2026-12-31T00:00:00Z,6100,6120,6095,6110"].join("\n")]), "es.csv");
    bars.set("symbol", "ESZ6");
    bars.set("resolution", "1d");
    expect((await client.request("/api/bars/upload", { method: "POST", body: bars })).status).toBe(201);
    const { lots } = await json(await get(client, "/api/tax/lots?year=2026"));
    // One ES contract (50 a point): 110 points = 5,500 of gain at the year end.
    expect(lots).toEqual([expect.objectContaining({ symbol: "ESZ26", soldAt: "2026-12-31", proceeds: "305500.00", costBasis: "300000.00", gain: "5500.00", section1256: true, markedToMarket: true, markSource: "bars" })]);
    expect(await json(await get(client, "/api/tax/6781?year=2026"))).toMatchObject({ line3: "5500.00", line8: "2200.00", line9: "3300.00", line1: [{ loss: "0.00", gain: "5500.00" }] });
    expect(await json(await get(client, "/api/tax/schedule-d?year=2026"))).toMatchObject({ line4: "2200.00", line11: "3300.00", line16: "5500.00" });
    // Sold in January at 6,090: a 20-point loss from the mark (1,000), not a 90-point gain.
    await fill(a, "ESZ6", "sell", "1", "6090", "2027-01-05");
    expect((await json(await get(client, "/api/tax/lots?year=2027"))).lots).toEqual([expect.objectContaining({ costBasis: "305500.00", proceeds: "304500.00", gain: "-1000.00", markedToMarket: false })]);
  });

  it("the wash watch lists the losses of the last 30 days a purchase would still wash", async () => {
    const { client, account, fill } = await trader("tax-watch", "2026-11-20T12:00:00Z");
    const a = await account("Brokerage");
    await fill(a, "TSLA", "buy", "10", "300", "2026-10-01");
    await fill(a, "TSLA", "sell", "10", "250", "2026-11-02");
    await fill(a, "NVDA", "buy", "10", "100", "2026-09-01");
    await fill(a, "NVDA", "sell", "10", "90", "2026-10-05"); // its window closed 2026-11-04
    const watch = await json(await get(client, "/api/tax/wash-watch"));
    expect(watch).toEqual({ currency: "USD", today: "2026-11-20", losses: [expect.objectContaining({ symbol: "TSLA", soldAt: "2026-11-02", loss: "500.00", washableUntil: "2026-12-02" })] });
  });

  it("early in January, the wash watch still lists December's losses whose window reaches into the new year", async () => {
    const { client, account, fill } = await trader("tax-watch-new-year", "2027-01-05T12:00:00Z");
    const a = await account("Brokerage");
    await fill(a, "AMD", "buy", "10", "150", "2026-11-02");
    await fill(a, "AMD", "sell", "10", "140", "2026-12-20");
    const watch = await json(await get(client, "/api/tax/wash-watch"));
    expect(watch).toEqual({ currency: "USD", today: "2027-01-05", losses: [expect.objectContaining({ symbol: "AMD", soldAt: "2026-12-20", loss: "100.00", washableUntil: "2027-01-19" })] });
  });

  it("a possible wash sale through an option: the trader's decision kept and applied to the lots and the forms; undecided again, nothing moves", async () => {
    const { client, account, fill } = await trader("tax-decide");
    const a = await account("Brokerage");
    const call = "AAPL  260619C00150000";
    await fill(a, "AAPL", "buy", "100", "150", "2026-01-05");
    await fill(a, "AAPL", "sell", "100", "140", "2026-02-02");
    await fill(a, call, "buy", "1", "3", "2026-02-10");
    const before = await json(await get(client, "/api/tax/lots?year=2026"));
    const possible = { symbol: "AAPL", lossSoldAt: "2026-02-02", replacementSymbol: call, replacementAt: "2026-02-10" };
    expect(before.possibleWashSales).toEqual([{ ...possible, loss: "1000.00", decision: null }]);
    expect(before.lots[0]).toMatchObject({ symbol: "AAPL", gain: "-1000.00", washSale: null });
    const put = (body: unknown) => client.request("/api/tax/possible-wash-sales", { method: "PUT", json: body });
    expect(await json(await put({ ...possible, decision: "wash" }))).toEqual({ decision: { ...possible, decision: "wash" } });
    const after = await json(await get(client, "/api/tax/lots?year=2026"));
    expect(after.possibleWashSales[0].decision).toBe("wash");
    expect(after.lots[0]).toMatchObject({ symbol: "AAPL", adjustment: "1000.00", gain: "0.00", washSale: { code: "W", disallowed: "1000.00", replacementLotOpenedAt: "2026-02-10", permanent: false } });
    expect(await (await get(client, "/api/tax/8949.csv?year=2026")).text()).toContain(",W,1000.00,0.00");
    // Bad input and a possible wash sale the lots do not list: refused, nothing changed.
    expect((await json(await put({ ...possible, decision: "maybe" }), 400)).error.fields[0].path).toBe("decision");
    expect((await json(await put({ ...possible, replacementAt: "2026-02-11", decision: "wash" }), 404)).error.code).toBe("NOT_FOUND");
    expect((await json(await put({ ...possible }), 400)).error.fields[0].path).toBe("decision");
    expect((await json(await get(client, "/api/tax/lots?year=2026"))).possibleWashSales[0].decision).toBe("wash");
    // Not a wash sale; then undecided again: nothing adjusted either way.
    await json(await put({ ...possible, decision: "not_wash" }));
    expect((await json(await get(client, "/api/tax/lots?year=2026"))).lots[0]).toMatchObject({ gain: "-1000.00", washSale: null });
    await json(await put({ ...possible, decision: null }));
    expect((await json(await get(client, "/api/tax/lots?year=2026"))).possibleWashSales[0].decision).toBeNull();
    // Another trader cannot decide it: for them it is not in their lots.
    const other = await trader("tax-decide-other");
    expect((await other.client.request("/api/tax/possible-wash-sales", { method: "PUT", json: { ...possible, decision: "wash" } })).status).toBe(404);
  });

  it("a stock sale with no purchase in the journal is listed as basis unknown, never given a basis; a short sale covered later is a lot", async () => {
    const { client, account, fill } = await trader("tax-unknown", "2026-11-20T12:00:00Z");
    const a = await account("Brokerage");
    // Shares bought before the journal's first fill: only the sale is here.
    await fill(a, "KO", "sell", "20", "60", "2026-03-02");
    // A true short sale, covered a week later.
    await fill(a, "XOM", "sell", "10", "110", "2026-04-01");
    await fill(a, "XOM", "buy", "10", "100", "2026-04-08");
    const body = await json(await get(client, "/api/tax/lots?year=2026"));
    expect(body.basisUnknown).toEqual([{ symbol: "KO", accountId: a, soldAt: "2026-03-02", quantity: "20.00", proceeds: "1200.00" }]);
    expect(body.lots).toEqual([expect.objectContaining({ symbol: "XOM", short: true, proceeds: "1100.00", costBasis: "1000.00", gain: "100.00" })]);
    // No Form 8949 row for it: nothing is invented.
    const csv = await (await get(client, "/api/tax/8949.csv?year=2026")).text();
    expect(csv).toContain("XOM");
    expect(csv).not.toContain("KO");
  });

  it("refuses bad input with a 400 naming the field; a year without trades is empty; another user's account is 404", async () => {
    const { client, account } = await trader("tax-bad");
    const a = await account("Brokerage");
    const field = async (path: string) => (await json(await get(client, path), 400)).error.fields.map((f: { path: string }) => f.path);
    expect(await field("/api/tax/lots")).toEqual(["year"]);
    expect(await field("/api/tax/lots?year=20x6")).toEqual(["year"]);
    expect(await field("/api/tax/lots?year=2026&method=lifo")).toEqual(["method"]);
    expect(await field("/api/tax/8949.csv?year=1800")).toEqual(["year"]);
    expect(await field(`/api/tax/lots?year=2026&accountId=nope`)).toEqual(["accountId"]);
    expect(await json(await get(client, `/api/tax/lots?year=2026&accountId=${a}`))).toEqual({ year: 2026, method: "fifo", currency: "USD", lots: [], possibleWashSales: [], deferredLosses: [], basisUnknown: [], missingRates: [] });
    const other = await trader("tax-other");
    expect((await get(other.client, `/api/tax/lots?year=2026&accountId=${a}`)).status).toBe(404);
    expect((await (await get(client, "/api/tax/8949.csv?year=2026")).text()).trim()).toBe("part,box,description,dateAcquired,dateSold,proceeds,costBasis,code,adjustment,gainOrLoss");
  });
});

describe("a year read a batch of underlyings at a time", () => {
  it("answers as one computation over every fill: the lots, the option's possible wash sale, the CSV's rows, by underlying then by sale", async () => {
    const { t, client, account } = await trader("tax-batches");
    const [a, b] = [await account("Broker A"), await account("Broker B")];
    // 12,400 fills: AAA alone is more than one batch's worth (5,000 fills), so the others fall in other batches; an
    // AAA call bought after an AAA loss must still be in AAA's batch for the possible wash sale to be listed.
    const call = "AAA   261218C00100000";
    const fills: TaxFill[] = [];
    const symbols = ["EEE", "AAA", "CCC", "BBB", "DDD"];
    let k = 0;
    const newYork = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" });
    for (const symbol of symbols) {
      const trips = symbol === "AAA" ? 3_000 : 800;
      for (let g = 0; g < trips; g++) {
        const accountId = g % 2 ? b : a;
        const at = Date.parse("2026-01-05T15:00:00Z") + g * 9_000_000 + symbols.indexOf(symbol) * 1000;
        // One trip in six loses (bought back by the next trip, in the other account: a wash sale across accounts).
        const exit = g % 6 === 0 ? "97" : "103";
        for (const [side, price, when] of [["buy", "100", at], ["sell", exit, at + 3_600_000]] as const) {
          const day = newYork.format(when);
          fills.push({ id: `00000000-0000-4000-8000-${String(++k).padStart(12, "0")}`, accountId, status: "taxable", symbol, underlying: symbol, assetClass: "stock", section1256: false, side, quantity: toUnits("10"), price: toUnits(price), fees: toUnits("0.5"), multiplier: toUnits("1"), at: when, day, expiry: false });
        }
      }
    }
    const loss = fills.find((f) => f.symbol === "AAA" && f.side === "sell" && f.price === toUnits("97"))!;
    fills.push({ ...loss, id: `00000000-0000-4000-8000-${String(++k).padStart(12, "0")}`, symbol: call, assetClass: "option", option: { right: "call", strike: toUnits("100") }, side: "buy", quantity: toUnits("1"), price: toUnits("2"), multiplier: toUnits("100"), at: loss.at + 86_400_000, day: newYork.format(loss.at + 86_400_000) });
    await t.deps.db.execute(sql`insert into fills (id, account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at)
      select * from unnest(${arrayLiteral(fills.map((f) => f.id))}::uuid[], ${arrayLiteral(fills.map((f) => f.accountId))}::uuid[], ${arrayLiteral(fills.map((f) => f.symbol))}::text[],
        ${arrayLiteral(fills.map((f) => f.assetClass))}::text[], ${arrayLiteral(fills.map((f) => fromUnits(f.multiplier)))}::numeric[], ${arrayLiteral(fills.map((f) => f.side))}::text[],
        ${arrayLiteral(fills.map((f) => fromUnits(f.quantity)))}::numeric[], ${arrayLiteral(fills.map((f) => fromUnits(f.price)))}::numeric[], ${arrayLiteral(fills.map((f) => fromUnits(f.fees)))}::numeric[],
        ${arrayLiteral(fills.map((f) => new Date(f.at).toISOString()))}::timestamptz[])`);

    // The reference: every fill in one computation, its rows ordered by underlying, then as the engine sold them.
    const whole = computeLots({ fills, splits: [], marks: [], through: 2026, yearEnd: (y) => Date.parse(`${y + 1}-01-01T05:00:00Z`) });
    const expected = [...symbols].sort().flatMap((s) => whole.dispositions.filter((d) => d.symbol === s && d.soldAt.startsWith("2026-")));
    const body = await json(await get(client, "/api/tax/lots?year=2026"));
    expect(body.lots.length).toBe(expected.length);
    expect(body.lots.map((l: Record<string, unknown>) => [l.symbol, l.accountId, l.quantity, l.acquiredAt, l.soldAt, l.costBasis, l.proceeds, l.adjustment, l.gain, l.term])).toEqual(
      expected.map((d) => [d.symbol, d.accountId, fromUnits(d.quantity), d.acquiredAt, d.soldAt, fromUnits(d.costBasis), fromUnits(d.proceeds), fromUnits(d.adjustment), fromUnits(d.gain), d.term]),
    );
    expect(body.lots.filter((l: { washSale: unknown }) => l.washSale).length).toBe(expected.filter((d) => d.washSale).length);
    expect(expected.filter((d) => d.washSale).length).toBeGreaterThan(1000);
    const possible = whole.possibleWashSales.filter((p) => p.lossSoldAt.startsWith("2026-"));
    expect(possible.length).toBeGreaterThan(10);
    expect(body.possibleWashSales).toEqual(possible.map((p) => ({ symbol: "AAA", lossSoldAt: p.lossSoldAt, replacementSymbol: call, replacementAt: p.replacementAt, loss: fromUnits(p.loss), decision: null })));
    // The CSV streams the same rows a batch at a time: Part I, in the same order.
    const csv = Papa.parse<string[]>((await (await get(client, "/api/tax/8949.csv?year=2026")).text()).trim(), { skipEmptyLines: true }).data;
    expect(csv.length).toBe(expected.length + 1);
    expect(csv.slice(1).map((r) => [r[0], r[4], r[8], r[9]])).toEqual(formRows(expected).map((r) => [r.part, usDate(r.d.soldAt), r.adjustment ? fromCents(r.adjustment) : "", fromCents(r.gain)]));
  }, 120_000);
});

describe("in the base currency", () => {
  it("converts each fill at its trade date's rate and computes in the base: a loss in dollars washed across a EUR and a USD account", async () => {
    const fx = await startFxServer();
    try {
      const { client, account, fill } = await trader("tax-base", "2027-02-15T12:00:00Z", fx.env);
      const eur = await account("Xetra", undefined, "EUR");
      const usd = await account("US broker");
      // Dates of 2018, which no other test asks rates for: the instance keeps each date's rates once, for everyone.
      // In EUR: 10 SAP bought at 100 on Monday 2018-03-05, sold at 100 on Monday 2018-06-04: no gain.
      await fill(eur, "SAP", "buy", "10", "100", "2018-03-05");
      await fill(eur, "SAP", "sell", "10", "100", "2018-06-04");
      // 10 bought again in the USD account on 2018-06-11 at 110 USD, sold 2018-09-04 at 120.
      await fill(usd, "SAP", "buy", "10", "110", "2018-06-11");
      await fill(usd, "SAP", "sell", "10", "120", "2018-09-04");
      // Without a base: 400 naming currency, nothing read.
      expect((await json(await get(client, "/api/tax/lots?year=2018&currency=base"), 400)).error.fields[0].path).toBe("currency");
      await json(await client.request("/api/settings", { method: "PUT", json: { baseCurrency: "USD" } }));

      // In EUR alone: no loss, nothing washed.
      const inEur = await json(await get(client, "/api/tax/lots?year=2018&currency=EUR"));
      expect(inEur.lots).toEqual([expect.objectContaining({ symbol: "SAP", proceeds: "1000.00", costBasis: "1000.00", gain: "0.00", washSale: null })]);
      // In USD: cost at 2018-03-05's rate, proceeds at 2018-06-04's: a loss of 1.00, washed by the USD purchase.
      const [cost, proceeds] = [1000 * usdPerEur("2018-03-05"), 1000 * usdPerEur("2018-06-04")];
      expect([cost.toFixed(2), proceeds.toFixed(2)]).toEqual(["1105.00", "1104.00"]);
      const inBase = await json(await get(client, "/api/tax/lots?year=2018&currency=base"));
      expect(inBase.currency).toBe("USD");
      expect(inBase.missingRates).toEqual([]);
      expect(inBase.lots).toEqual([
        expect.objectContaining({ symbol: "SAP", accountId: eur, proceeds: "1104.00", costBasis: "1105.00", adjustment: "1.00", gain: "0.00", washSale: expect.objectContaining({ disallowed: "1.00", replacementLotOpenedAt: "2018-06-11" }) }),
        expect.objectContaining({ symbol: "SAP", accountId: usd, proceeds: "1200.00", costBasis: "1101.00", gain: "99.00", acquiredAt: "2018-03-12" }),
      ]);
      // The forms agree: Schedule D in USD, the CSV and TXF files written.
      expect(await json(await get(client, "/api/tax/schedule-d?year=2018&currency=base"))).toMatchObject({ currency: "USD", line3: { proceeds: "2304.00", costBasis: "2206.00", adjustment: "1.00", gain: "99.00" }, missingRates: [] });
      expect((await get(client, "/api/tax/8949.csv?year=2018&currency=base")).status).toBe(200);
      // A wrong currency: 400 naming it.
      expect((await json(await get(client, "/api/tax/lots?year=2018&currency=bases"), 400)).error.fields[0].path).toBe("currency");
    } finally {
      await fx.close();
    }
  });

  it("a rate the instance lacks: the rows that need it left out and named, the files refused with 409, never a guess", async () => {
    const fx = await startFxServer();
    try {
      const { client, account, fill } = await trader("tax-base-missing", "2027-02-15T12:00:00Z", fx.env);
      const btc = await account("Crypto", undefined, "BTC");
      const usd = await account("US broker");
      await fill(btc, "ETH/BTC", "buy", "1", "0.05", "2026-03-02");
      await fill(btc, "ETH/BTC", "sell", "1", "0.06", "2026-04-01");
      await fill(usd, "AAPL", "buy", "10", "100", "2026-03-02");
      await fill(usd, "AAPL", "sell", "10", "90", "2026-04-01");
      await json(await client.request("/api/settings", { method: "PUT", json: { baseCurrency: "USD" } }));
      const body = await json(await get(client, "/api/tax/lots?year=2026&currency=base"));
      expect(body.lots).toEqual([expect.objectContaining({ symbol: "AAPL", gain: "-100.00" })]);
      expect(body.missingRates).toEqual(expect.arrayContaining([{ currency: "BTC", date: "2026-03-02" }, { currency: "BTC", date: "2026-04-01" }]));
      expect((await json(await get(client, "/api/tax/schedule-d?year=2026&currency=base"))).missingRates.length).toBeGreaterThan(0);
      for (const file of ["8949.csv", "txf"]) {
        const refused = await json(await get(client, `/api/tax/${file}?year=2026&currency=base`), 409);
        expect(refused.error).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("BTC on 2026-03-02") });
      }
      // The trader's own rates fill the gap (BTC per 1 USD): then every row counts.
      for (const date of ["2026-03-02", "2026-04-01"]) await json(await client.request("/api/settings/fx-overrides", { method: "PUT", json: { date, currency: "BTC", rate: "0.00002" } }));
      const whole = await json(await get(client, "/api/tax/lots?year=2026&currency=base"));
      expect(whole.missingRates).toEqual([]);
      expect(whole.lots).toEqual(expect.arrayContaining([expect.objectContaining({ symbol: "ETH/BTC", proceeds: "3000.00", costBasis: "2500.00", gain: "500.00" })]));
      expect((await get(client, "/api/tax/txf?year=2026&currency=base")).status).toBe(200);
    } finally {
      await fx.close();
    }
  });
});
