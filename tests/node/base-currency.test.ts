// One base currency (issue 55, docs/currencies.md): settings, the reference rates from a stand-in rate service
// (tests/support/fx-server.ts), overrides, and the statistics of every account converted at each day's rate.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { testApp, signUp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startFxServer, type FxServer } from "../support/fx-server.ts";
import { flexStatement, flexTrade, startFlexServer, type FlexServer } from "../support/flex-server.ts";
import { syncNow } from "../support/broker-sync.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { createLogger } from "../../lib/log.ts";
import { fetchRatesJob, runJobs } from "../../lib/jobs/index.ts";
import { breakdown, calendar, equityCurve, summary } from "../../lib/stats/stats.ts";
import { quoteOfPair } from "../../lib/trades/pairs.ts";

let db: { name: string; url: string };
let fx: FxServer;
let flex: FlexServer;
let t: TestApp;

beforeAll(async () => {
  db = await createMigratedDatabase("journal_fx");
  fx = await startFxServer();
  flex = await startFlexServer();
  t = await testApp(db.url, { ...fx.env, ...flex.env }, { now: () => new Date("2026-11-20T12:00:00Z"), peer: "per-request", log: createLogger({ write: (line) => line.includes('"level":"error"') && console.error(line) }) });
});
afterAll(async () => {
  await fx?.close();
  await flex?.close();
  if (db) await dropDatabase(db.name);
});

async function json(res: Response, status = 200) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

async function account(client: TestClient, currency: string, timezone = "Etc/UTC") {
  return (await json(await client.post("/api/accounts", { name: `${currency} ${crypto.randomUUID()}`, currency, timezone }), 201)).id as string;
}

/** One share bought at 1000 and sold at 1000 + pnl, the sale at `closedAt`. */
async function roundTrip(client: TestClient, accountId: string, closedAt: string, pnl: string, symbol = "SPY") {
  const openedAt = new Date(Date.parse(closedAt) - 60_000).toISOString();
  await json(await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "1", price: "1000", executedAt: openedAt }), 201);
  await json(await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: "1", price: (1000 + Number(pnl)).toFixed(2), executedAt: closedAt }), 201);
}

async function put(client: TestClient, path: string, body: unknown) {
  return client.request(path, { method: "PUT", json: body });
}

async function trader(base?: string) {
  const { client, userId } = await signUp(t, "fx");
  if (base) await json(await put(client, "/api/settings", { baseCurrency: base }));
  return { client, userId };
}

describe("GET/PUT /api/settings", () => {
  it("starts empty, changes only what a PUT names, and refuses an unknown field, a malformed one or a currency the rate service does not publish", async () => {
    const { client } = await trader();
    expect(await json(await client.get("/api/settings"))).toEqual({ baseCurrency: null, digest: null, privacyMode: false });
    expect(await json(await put(client, "/api/settings", { baseCurrency: "usd" }))).toEqual({ baseCurrency: "USD", digest: null, privacyMode: false });
    expect(await json(await put(client, "/api/settings", { privacyMode: true }))).toEqual({ baseCurrency: "USD", digest: null, privacyMode: true });
    const digest = { weekly: true, weekday: 1, hour: 8, zone: "Europe/Berlin" };
    expect(await json(await put(client, "/api/settings", { digest }))).toEqual({ baseCurrency: "USD", digest, privacyMode: true });

    for (const [body, path] of [
      [{ colour: "blue" }, "colour"],
      [{ baseCurrency: "XXX" }, "baseCurrency"],
      [{ baseCurrency: "dollars" }, "baseCurrency"],
      [{ privacyMode: "yes" }, "privacyMode"],
      [{ digest: { ...digest, weekday: 7 } }, "digest.weekday"],
      [{ digest: { ...digest, zone: "Mars/Olympus" } }, "digest.zone"],
    ] as const) {
      const error = (await json(await put(client, "/api/settings", body), 400)).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    // Nothing of the refused bodies was kept; null turns the base off.
    expect(await json(await client.get("/api/settings"))).toEqual({ baseCurrency: "USD", digest, privacyMode: true });
    expect((await json(await put(client, "/api/settings", { baseCurrency: null }))).baseCurrency).toBeNull();
  });
});

describe("statistics in the base currency", () => {
  it("convert each account at its trading day's rate: a Saturday close at Friday's rate, the base's own amounts as they are, each rate fetched once", async () => {
    const { client, userId } = await trader("EUR");
    const eur = await account(client, "EUR");
    const usd = await account(client, "USD");
    // Friday 2026-03-06: 1.106 USD per EUR. A close on Saturday 2026-03-07 takes Friday's rate.
    await roundTrip(client, usd, "2026-03-07T15:00:00Z", "110.60");
    // Wednesday 2026-03-04: 1.104 USD per EUR.
    await roundTrip(client, usd, "2026-03-04T15:00:00Z", "-55.20", "QQQ");
    await roundTrip(client, eur, "2026-03-05T15:00:00Z", "20.00");

    const body = await json(await client.get("/api/stats/summary?currency=base"));
    expect(body).toMatchObject({ currency: "EUR", trades: 3, wins: 2, losses: 1, netPnl: "70.00", largestWin: "100.00", largestLoss: "-50.00", missingRates: [] });
    // The drawdown on each day's close: -50 on the 4th, then up.
    expect(body.maxDrawdown).toBe("50.00");

    const days = (await json(await client.get("/api/stats/calendar?currency=base"))).days;
    expect(days.map((d: { date: string; netPnl: string }) => [d.date, d.netPnl])).toEqual([
      ["2026-03-04", "-50.00"],
      ["2026-03-05", "20.00"],
      ["2026-03-07", "100.00"],
    ]);
    const curve = await json(await client.get("/api/stats/equity?currency=base&bucket=week"));
    expect(curve.points.at(-1).equity).toBe("70.00");
    const bySymbol = await json(await client.get("/api/stats/breakdown?currency=base&by=symbol"));
    expect(bySymbol.groups.map((g: { key: string; netPnl: string }) => [g.key, g.netPnl])).toEqual([
      ["QQQ", "-50.00"],
      ["SPY", "120.00"],
    ]);
    // The rate service was asked once for the dates (the 7 before each included), not once per read.
    const asked = fx.requests.length;
    await json(await client.get("/api/stats/summary?currency=base"));
    expect(fx.requests.length).toBe(asked);
    // The per-currency reads are unchanged.
    expect(await json(await client.get(`/api/stats/summary?accountId=${usd}`))).toMatchObject({ currency: "USD", netPnl: "55.40" });

    // March is kept as a month in the base (lib/fx/base-months.ts); a trade added to it later is counted: the
    // month is built again from its days.
    await t.settled();
    const kept = async () => rowsOf<{ month: string; base: string }>(await t.deps.db.execute(sql`select to_char(month, 'YYYY-MM-DD') as month, base from stats_base_months where user_id = ${userId}::uuid`));
    expect(await kept()).toEqual([{ month: "2026-03-01", base: "EUR" }]);
    await roundTrip(client, eur, "2026-03-20T15:00:00Z", "5.00", "IWM");
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ trades: 4, netPnl: "75.00" });
    const bySymbolAgain = await json(await client.get("/api/stats/breakdown?currency=base&by=symbol"));
    expect(bySymbolAgain.groups.map((g: { key: string; netPnl: string }) => [g.key, g.netPnl])).toEqual([
      ["IWM", "5.00"],
      ["QQQ", "-50.00"],
      ["SPY", "120.00"],
    ]);
  });

  it("take IBKR's own rate to the account's base for that account's trades where that base is the user's, over the trader's own; a file's rate column the same; a bad rate cell a row error", async () => {
    const { client, userId } = await trader("EUR");
    const usd = await account(client, "USD", "America/New_York");
    // Friday 2026-06-05 (reference: 1.105 USD per EUR): IBKR booked the day at 0.9 EUR per USD.
    const leg = (n: number, side: "BUY" | "SELL", time: string, fxRateToBase?: string) =>
      flexTrade({ symbol: "AAPL", side, quantity: "100", price: side === "BUY" ? "191.5" : "192.25", commission: "1", dateTime: `20260605;${time}`, execId: `0000e0d5.66aa${String(n).padStart(4, "0")}.01.01`, fxRateToBase });
    flex.statement = flexStatement([leg(1, "BUY", "100000", "0.9"), leg(2, "SELL", "100500", "0.9")], "EUR");
    const connected = await client.request(`/api/accounts/${usd}/broker-connection`, { method: "PUT", json: { provider: "ibkr-flex", token: "goodtoken1234567890abcd", queryId: "987654" } });
    expect(connected.status, await connected.clone().text()).toBe(200);
    expect(await syncNow(t, client, usd)).toMatchObject({ status: "succeeded", imported: 2 });
    // 73.00 USD net at 0.9: 65.70 EUR (at the reference rate it would be 66.06).
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "65.70", missingRates: [] });
    const [trade] = (await json(await client.get(`/api/trades?accountId=${usd}`))).trades;
    expect(trade.base).toEqual({ currency: "EUR", netPnl: "65.70", rate: "1.1111111111", rateDate: "2026-06-05" });
    const rates = await json(await client.get("/api/settings/fx-rates?from=2026-06-01&to=2026-06-30"));
    expect(rates.rates).toEqual([{ date: "2026-06-05", currency: "USD", rate: "1.1111111111", rateDate: "2026-06-05", source: "broker" }]);
    expect(rowsOf(await t.deps.db.execute(sql`select account_id::text as account, currency, base, to_char(day, 'YYYY-MM-DD') as day, k::text as k from fx_broker_rates where user_id = ${userId}::uuid`))).toEqual([
      { account: usd, currency: "USD", base: "EUR", day: "2026-06-05", k: "0.9" },
    ]);
    // The broker's rate is its account's: another USD account's trade of that day takes the reference rate.
    const plain = await account(client, "USD");
    await roundTrip(client, plain, "2026-06-05T16:00:00Z", "110.50");
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "165.70" });
    // The trader's own rate of that date wins over the reference rate, not over the broker's (DESIGN.md 11).
    await json(await put(client, "/api/settings/fx-overrides", { date: "2026-06-05", currency: "USD", rate: "1.25" }));
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "154.10" });
    const both = await json(await client.get("/api/settings/fx-rates?from=2026-06-01&to=2026-06-30"));
    expect(both.rates).toEqual([
      { date: "2026-06-05", currency: "USD", rate: "1.1111111111", rateDate: "2026-06-05", source: "broker" },
      { date: "2026-06-05", currency: "USD", rate: "1.25", rateDate: "2026-06-05", source: "override" },
    ]);
    await json(await client.delete("/api/settings/fx-overrides?date=2026-06-05&currency=USD"), 204);
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "165.70" });
    // The same through the maintained months as from the journal.
    expect(await summary(t.deps, { userId }, { currency: "base" }, "journal")).toMatchObject({ netPnl: "165.70" });
    // In another base the broker's rate to EUR is not used.
    await json(await put(client, "/api/settings", { baseCurrency: "USD" }));
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "183.50" });
    await json(await put(client, "/api/settings", { baseCurrency: "EUR" }));

    // A file of the trader's own with a rate column and a base column, mapped (any preset's columns can be).
    const other = await account(client, "USD");
    const csv = ["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID,Rate,Base",
      "2026-06-12T14:00:00Z,MSFT,buy,10,400,0,x1,0.95,EUR",
      "2026-06-12T14:05:00Z,MSFT,sell,10,410,0,x2,0.95,EUR",
      "2026-06-12T14:06:00Z,MSFT,buy,10,410,0,x3,zero,EUR"].join("\n");
    const generic = { executedAt: "Date/Time", symbol: "Symbol", side: "Side", quantity: "Quantity", price: "Price", fees: "Fees", executionId: "Execution ID", fxRateToBase: "Rate", baseCurrency: "Base" };
    const form = new FormData();
    form.set("file", new Blob([csv]), "own.csv");
    form.set("request", JSON.stringify({ accountId: other, mapping: generic, options: { dateFormat: "iso" } }));
    const preview = await json(await client.request("/api/csv-import/preview", { method: "POST", body: form }), 201);
    expect(preview.errors).toEqual([{ row: 4, column: "Rate", message: '"zero" is not a rate above 0' }]);
    await json(await client.post("/api/csv-import/commit", { importId: preview.importId }));
    // 100 USD at 0.95, beside the others.
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "260.70" });
  });

  it("give the tag and playbook reports and rules compliance in the base, R and the rules in the trades' own amounts, naming what lacks a rate", async () => {
    const { client } = await trader("EUR");
    const usd = await account(client, "USD");
    const eur = await account(client, "EUR");
    const book = await json(await client.post("/api/playbooks", { name: "Breakout", items: [{ kind: "checkbox", label: "Volume" }] }), 201);
    // Friday 2026-03-06 (1.106 USD per EUR) and Wednesday 2026-03-04 (1.104), a EUR trade on the 5th.
    await roundTrip(client, usd, "2026-03-06T15:00:00Z", "110.60", "AAPL");
    await roundTrip(client, usd, "2026-03-04T15:00:00Z", "-55.20", "MSFT");
    await roundTrip(client, eur, "2026-03-05T15:00:00Z", "20.00", "SAP");
    // The fortnight without rates: its trade is left out and named.
    for (let d = 11; d <= 22; d++) fx.holidays.add(`2026-05-${String(d).padStart(2, "0")}`);
    await roundTrip(client, usd, "2026-05-22T15:00:00Z", "500.00", "NVDA");
    const trades = (await json(await client.get("/api/trades?limit=50"))).trades as Array<{ id: string; symbol: string }>;
    for (const tr of trades) {
      const body = { tags: ["breakout"], playbookId: book.id, ...(tr.symbol === "MSFT" ? { stopPrice: "990" } : {}) };
      expect((await client.request(`/api/trades/${tr.id}`, { method: "PATCH", json: body })).status).toBe(200);
    }
    const tags = await json(await client.get("/api/stats/tags?currency=base"));
    expect(tags).toMatchObject({ currency: "EUR", missingRates: [{ currency: "USD", date: "2026-05-22" }] });
    // 100 - 50 + 20, three trades.
    expect(tags.tags).toEqual([{ tag: "breakout", kind: null, trades: 3, wins: 2, netPnl: "70.00", winRate: "0.6667", expectancy: expect.stringMatching(/^23\.333/) }]);
    const books = await json(await client.get("/api/stats/playbooks?currency=base"));
    expect(books.missingRates).toEqual([{ currency: "USD", date: "2026-05-22" }]);
    // R from the trade's own amounts: -55.20 USD on a 10 USD risk is -5.52 R, whatever the base.
    expect(books.playbooks[0]).toMatchObject({ name: "Breakout", trades: 3, netPnl: "70.00", withRisk: 1, expectancyR: "-5.52" });

    // Compliance of the USD account: the rule in dollars, what broke it in euros.
    await json(await client.post("/api/rules", { accountId: usd, rule: { type: "max_loss_per_trade", amount: "50" } }), 201);
    const own = await json(await client.get(`/api/rules/compliance?accountId=${usd}&from=2026-03-01&to=2026-03-31`));
    expect(own).toMatchObject({ currency: "USD", rules: [{ brokenTrades: 1, brokenNetPnl: "-55.20" }] });
    expect(own.missingRates).toBeUndefined();
    const based = await json(await client.get(`/api/rules/compliance?accountId=${usd}&from=2026-03-01&to=2026-03-31&currency=base`));
    expect(based).toMatchObject({ currency: "EUR", missingRates: [], rules: [{ brokenTrades: 1, brokenNetPnl: "-50.00" }], trades: { compliant: { trades: 1, netPnl: "100.00" }, broken: { trades: 1, netPnl: "-50.00" } } });
    expect(based.days.map((d: { day: string; netPnl: string }) => [d.day, d.netPnl])).toEqual([["2026-03-04", "-50.00"], ["2026-03-06", "100.00"]]);
    expect((await json(await client.get(`/api/rules/compliance?accountId=${usd}&currency=USD`), 400)).error.fields[0].path).toBe("currency");
  });

  it("count option strategies as one trade each in the base, each at its close date's rate, R in its own amounts", async () => {
    const { client } = await trader("EUR");
    const usd = await account(client, "USD");
    const eur = await account(client, "EUR");
    const fill = (symbol: string, side: "buy" | "sell", price: string, executedAt: string) =>
      client.post("/api/fills", { accountId: usd, symbol, side, quantity: "1", price, executedAt }).then((r) => json(r, 201));
    // A call vertical opened and closed on Friday 2026-03-06 (1.106 USD per EUR): +100 and +10.60 USD.
    await fill("SPY   260320C00500000", "buy", "5.00", "2026-03-06T15:00:00Z");
    await fill("SPY   260320C00510000", "sell", "2.00", "2026-03-06T15:00:10Z");
    await fill("SPY   260320C00500000", "sell", "6.00", "2026-03-06T18:00:00Z");
    await fill("SPY   260320C00510000", "buy", "1.894", "2026-03-06T18:00:10Z");
    await roundTrip(client, eur, "2026-03-05T15:00:00Z", "20.00", "SAP");
    const byStrategy = await json(await client.get("/api/stats/breakdown?currency=base&by=strategy"));
    expect(byStrategy).toMatchObject({ currency: "EUR", missingRates: [] });
    // R on the vertical's max loss (3.00 debit x 100 = 300 USD): 110.60 / 300, not 100 EUR / 300 USD.
    expect(byStrategy.groups).toEqual([expect.objectContaining({ netPnl: "100.00", trades: 1, wins: 1, rTotal: "0.37", withRisk: 1 })]);
    const counted = await json(await client.get("/api/stats/summary?currency=base&countBy=strategy"));
    // The strategy and the stock trade, one each.
    expect(counted).toMatchObject({ currency: "EUR", trades: 2, wins: 2, netPnl: "120.00", largestWin: "100.00" });
  });

  it("value a crypto pair through its quote currency: ETH/BTC belongs in a BTC account, whose trades reach the base at a BTC rate or are named missing", async () => {
    expect(["ETH/BTC", "ETH-BTC", "XETHXXBT", "ETHXBT", "XXBTZUSD", "BTC-USD", "SOLEUR", "AAPL", "BRK-B", "ETH-USDT", "ESZ4"].map(quoteOfPair)).toEqual([
      "BTC", "BTC", "BTC", "BTC", "USD", "USD", "EUR", null, null, null, null,
    ]);
    const { client } = await trader("EUR");
    const usd = await account(client, "USD");
    const btc = await account(client, "BTC");
    const kraken = ['"txid","ordertxid","pair","time","type","ordertype","price","cost","fee","vol","margin","misc","ledgers"',
      '"T1","O1","XETHXXBT","2026-06-10 14:30:15.0000","buy","limit",0.05,0.05,0,1.0,0,"",""',
      '"T2","O2","XETHXXBT","2026-06-10 18:02:41.0000","sell","limit",0.052,0.052,0,1.0,0,"",""'].join("\n");
    const upload = async (accountId: string) => {
      const form = new FormData();
      form.set("file", new Blob([kraken]), "trades.csv");
      form.set("request", JSON.stringify({ accountId, presetId: "kraken" }));
      return json(await client.request("/api/csv-import/preview", { method: "POST", body: form }), 201);
    };
    // In the USD account each row is refused, naming where it belongs.
    const refused = await upload(usd);
    expect(refused.summary).toMatchObject({ valid: 0, invalid: 2 });
    expect(refused.errors[0]).toEqual({ row: 2, column: "pair", message: '"XETHXXBT" is quoted in BTC, not this account\'s currency (USD): import this row into an account in BTC' });
    const staged = await upload(btc);
    expect(staged.summary).toMatchObject({ valid: 2, invalid: 0 });
    await json(await client.post("/api/csv-import/commit", { importId: staged.importId }));
    // No BTC reference rate: named missing, the trade left out.
    const missing = await json(await client.get("/api/stats/summary?currency=base"));
    expect(missing).toMatchObject({ trades: 0, missingRates: [{ currency: "BTC", date: "2026-06-10" }] });
    // With the trader's own BTC rate of the day (0.00002 BTC per EUR): 0.002 BTC is 100 EUR.
    await json(await put(client, "/api/settings/fx-overrides", { date: "2026-06-10", currency: "BTC", rate: "0.00002" }));
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ trades: 1, netPnl: "100.00", missingRates: [] });
    const [trade] = (await json(await client.get(`/api/trades?accountId=${btc}`))).trades;
    expect(trade).toMatchObject({ symbol: "XETHXXBT", currency: "BTC", netPnl: "0.002", base: { currency: "EUR", netPnl: "100.00", rate: "0.00002", rateDate: "2026-06-10" } });
  });

  it("walk back over a holiday week up to 7 days, and beyond list the missing rate and leave its trades out", async () => {
    const { client } = await trader("EUR");
    const usd = await account(client, "USD");
    // Easter-like: Thursday 2026-04-02 to Monday 2026-04-06 have no rates; Wednesday's 1.101 applies.
    for (const d of ["2026-04-02", "2026-04-03", "2026-04-06"]) fx.holidays.add(d);
    await roundTrip(client, usd, "2026-04-06T15:00:00Z", "110.10");
    // A fortnight without rates (2026-05-11 .. 2026-05-22): the 22nd walks back past 7 days: missing.
    for (let d = 11; d <= 22; d++) fx.holidays.add(`2026-05-${String(d).padStart(2, "0")}`);
    await roundTrip(client, usd, "2026-05-22T15:00:00Z", "500.00");
    const body = await json(await client.get("/api/stats/summary?currency=base"));
    expect(body).toMatchObject({ currency: "EUR", trades: 1, netPnl: "100.00" });
    expect(body.missingRates).toEqual([{ currency: "USD", date: "2026-05-22" }]);
    const rates = await json(await client.get("/api/settings/fx-rates?from=2026-04-01&to=2026-05-31"));
    expect(rates.rates).toEqual([{ date: "2026-04-06", currency: "USD", rate: "1.101", rateDate: "2026-04-01", source: "reference" }]);
    expect(rates.missingRates).toEqual([{ currency: "USD", date: "2026-05-22" }]);
  });

  it("take the trader's own rate over the reference one, and recompute everything when the base changes", async () => {
    const { client, userId } = await trader("EUR");
    const usd = await account(client, "USD");
    const gbp = await account(client, "GBP");
    await roundTrip(client, usd, "2026-06-05T15:00:00Z", "110.50"); // Friday: 1.105 USD per EUR
    await roundTrip(client, gbp, "2026-06-05T16:00:00Z", "85.00"); // 0.85 GBP per EUR
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "200.00" });

    const override = await json(await put(client, "/api/settings/fx-overrides", { date: "2026-06-05", currency: "USD", rate: "1.25" }));
    expect(override).toEqual({ override: { date: "2026-06-05", currency: "USD", base: "EUR", rate: "1.25" } });
    // 110.50 / 1.25 = 88.40, + 100.
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "188.40" });
    const rates = await json(await client.get("/api/settings/fx-rates?from=2026-06-01&to=2026-06-30"));
    expect(rates.rates).toContainEqual({ date: "2026-06-05", currency: "USD", rate: "1.25", rateDate: "2026-06-05", source: "override" });
    expect(rates.overrides).toEqual([{ date: "2026-06-05", currency: "USD", rate: "1.25" }]);

    expect(await json(await client.delete("/api/settings/fx-overrides?date=2026-06-05&currency=USD"), 204)).toBeNull();
    expect(await json(await client.get("/api/stats/summary?currency=base"))).toMatchObject({ netPnl: "200.00" });
    expect((await json(await client.delete("/api/settings/fx-overrides?date=2026-06-05&currency=USD"), 404)).error.code).toBe("NOT_FOUND");

    // Base USD: the USD trade as it is, the GBP one at 0.85 / 1.105 GBP per USD.
    await json(await put(client, "/api/settings", { baseCurrency: "USD" }));
    const inUsd = await json(await client.get("/api/stats/summary?currency=base"));
    expect(inUsd.currency).toBe("USD");
    expect(inUsd.netPnl).toBe("221.00");
    // The same figures from the journal as from the maintained rows.
    const user = { userId };
    for (const query of [{ currency: "base" }, { currency: "base", from: "2026-06-05T15:30:00Z" }, { currency: "base", to: "2026-06-05T15:30:00Z" }]) {
      expect(await summary(t.deps, user, query, "journal")).toEqual(await summary(t.deps, user, query));
      expect(await calendar(t.deps, user, query, "journal")).toEqual(await calendar(t.deps, user, query));
      expect(await equityCurve(t.deps, user, { ...query, bucket: "month" }, "journal")).toEqual(await equityCurve(t.deps, user, { ...query, bucket: "month" }));
      expect(await breakdown(t.deps, user, { ...query, by: "symbol" }, "journal")).toEqual(await breakdown(t.deps, user, { ...query, by: "symbol" }));
    }
  });

  it("refuse bad input with a 400 naming it, and change nothing", async () => {
    const { client, userId } = await trader();
    await account(client, "USD");
    // No base yet: currency=base and an override both say so.
    expect((await json(await client.get("/api/stats/summary?currency=base"), 400)).error.fields[0].path).toBe("currency");
    expect((await json(await put(client, "/api/settings/fx-overrides", { date: "2026-06-05", currency: "USD", rate: "1.2" }), 400)).error.fields[0].path).toBe("baseCurrency");
    await json(await put(client, "/api/settings", { baseCurrency: "EUR" }));
    for (const [body, path] of [
      [{ date: "2026-06-05", currency: "USD", rate: "0" }, "rate"],
      [{ date: "2026-06-05", currency: "USD", rate: "-1.2" }, "rate"],
      [{ date: "2026-06-05", currency: "USD", rate: 1.2 }, "rate"],
      [{ date: "2026-12-25", currency: "USD", rate: "1.2" }, "date"],
      [{ date: "2026-02-30", currency: "USD", rate: "1.2" }, "date"],
      [{ date: "2026-06-05", currency: "JPY", rate: "160" }, "currency"],
      [{ date: "2026-06-05", currency: "EUR", rate: "1" }, "currency"],
      [{ date: "2026-06-05", currency: "US", rate: "1.2" }, "currency"],
    ] as const) {
      const error = (await json(await put(client, "/api/settings/fx-overrides", body), 400)).error;
      expect(error.code, JSON.stringify(body)).toBe("VALIDATION_ERROR");
      expect(error.fields.map((f: { path: string }) => f.path), JSON.stringify(body)).toContain(path);
    }
    const [row] = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from fx_overrides where user_id = ${userId}::uuid`));
    expect(row!.n).toBe(0);
    const accountId = (await json(await client.get("/api/accounts"))).accounts[0].id;
    expect((await json(await client.get(`/api/stats/summary?currency=base&accountId=${accountId}`), 400)).error.code).toBe("VALIDATION_ERROR");
    expect((await json(await client.get("/api/stats/summary?currency=bases"), 400)).error.fields[0].path).toBe("currency");
    expect((await json(await client.get("/api/settings/fx-rates?from=2025-01-01&to=2026-06-01"), 400)).error.fields[0].path).toBe("to");
    // A date that is not one, beside one that is (found by tests/robust/routes.test.ts as a 500).
    expect((await json(await client.get("/api/settings/fx-rates?from=eyJhdCI6&to=2026-06-01"), 400)).error.fields[0].path).toBe("from");
    expect((await json(await client.get("/api/settings/fx-rates?from=2026-06-01&to=2026-99-01"), 400)).error.fields[0].path).toBe("to");
  });

  it("name the rates a broken rate service leaves missing (404, 500, garbage, no rates), never a 5xx or a figure from a wrong rate", async () => {
    const { client } = await trader("EUR");
    const usd = await account(client, "USD");
    const days = ["2026-07-06", "2026-07-20", "2026-08-03", "2026-08-17"];
    for (const [i, mode] of (["404", "500", "garbage", "empty"] as const).entries()) {
      fx.mode = mode;
      await roundTrip(client, usd, `${days[i]}T15:00:00Z`, "100.00", `S${i}`);
      const body = await json(await client.get(`/api/stats/summary?currency=base&from=${days[i]}T00:00:00Z&to=${days[i]}T23:00:00Z`));
      expect(body, mode).toMatchObject({ trades: 0, netPnl: "0.00", missingRates: [{ currency: "USD", date: days[i] }] });
    }
    fx.mode = "ok";
  });
});

describe("a trade in the base currency", () => {
  it("carries base {currency, netPnl, rate, rateDate} beside its own amounts, in the list and the detail, at its close date's rate", async () => {
    const { client } = await trader();
    const usd = await account(client, "USD", "America/New_York");
    // Closed Friday 2026-09-04 at 22:30 New York: Saturday in UTC, Friday in the account's zone (1.104).
    await roundTrip(client, usd, "2026-09-05T02:30:00Z", "110.40");
    const before = (await json(await client.get("/api/trades"))).trades[0];
    expect(before.base).toBeUndefined();
    await json(await put(client, "/api/settings", { baseCurrency: "EUR" }));
    const listed = (await json(await client.get("/api/trades"))).trades[0];
    expect(listed).toMatchObject({ currency: "USD", netPnl: "110.40", base: { currency: "EUR", netPnl: "100.00", rate: "1.104", rateDate: "2026-09-04" } });
    const detail = await json(await client.get(`/api/trades/${listed.id}`));
    expect(detail.trade.base).toEqual(listed.base);

    // The exports carry the amounts in the base beside their own, with the rate and its date.
    const csv = async (kind: string) => Papa.parse<string[]>((await (await client.get(`/api/accounts/${usd}/export/${kind}`)).text()).trim()).data;
    const trades = await csv("trades");
    expect(trades[0]!.slice(-3)).toEqual(["Net P&L (EUR)", "Rate (USD per EUR)", "Rate Date"]);
    expect(trades[1]!.slice(-3)).toEqual(["100.00", "1.104", "2026-09-04"]);
    expect(trades[1]![trades[0]!.indexOf("Net P&L")]).toBe("110.40");
    const ledger = await csv("ledger");
    expect(ledger[0]!.slice(-3)).toEqual(["Amount (EUR)", "Rate (USD per EUR)", "Rate Date"]);
    // Every ledger row of the day (the fills' cash), each at Friday's rate.
    for (const row of ledger.slice(1)) expect(row.slice(-2)).toEqual(["1.104", "2026-09-04"]);
  });

  it("ledger pages carry each entry's amount in the base at its date's rate in the account's zone, or say the rate is missing; none for an account in the base", async () => {
    const { client } = await trader("EUR");
    const usd = await account(client, "USD", "America/New_York");
    const eur = await account(client, "EUR");
    const deposit = (accountId: string, amount: string, occurredAt: string) =>
      client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount, occurredAt }).then((r) => json(r, 201));
    // Friday 2026-03-06 evening in New York (Saturday in UTC): Friday's 1.106.
    await deposit(usd, "1106.00", "2026-03-07T01:00:00Z");
    // In the fortnight without rates: missing, named.
    for (let d = 11; d <= 22; d++) fx.holidays.add(`2026-05-${String(d).padStart(2, "0")}`);
    await deposit(usd, "50.00", "2026-05-22T15:00:00Z");
    await deposit(eur, "10.00", "2026-03-06T12:00:00Z");
    const page = await json(await client.get(`/api/ledger/${usd}?page=1&pageSize=50`));
    expect(page.entries.map((e: { amount: string; base: unknown }) => [e.amount, e.base])).toEqual([
      ["50.00", { currency: "EUR", amount: null, rate: null, rateDate: null }],
      ["1106.00", { currency: "EUR", amount: "1000.00", rate: "1.106", rateDate: "2026-03-06" }],
    ]);
    expect(page.runningBalanceAtFirstRow).toBe("1156.00");
    const own = await json(await client.get(`/api/ledger/${eur}?page=1&pageSize=50`));
    expect(own.entries[0].base).toBeUndefined();
  });
});

describe("the fetch-rates job", () => {
  it("asks the last week's rates ahead of the reads once a user has a base, each date once", async () => {
    await trader("EUR");
    // As if never asked (the settings' check of EUR asked this week already).
    await t.deps.db.execute(sql`delete from fx_rate_days where day between '2026-11-13' and '2026-11-20'`);
    const asked = fx.requests.length;
    expect(await runJobs(t.deps, [fetchRatesJob])).toEqual({ "fetch-rates": 0 });
    // 2026-11-13 .. 2026-11-20 (the app's today): one time-series request, every date recorded.
    const [row] = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from fx_rate_days where day between '2026-11-13' and '2026-11-20'`));
    expect(row!.n).toBe(8);
    expect(fx.requests.length - asked).toBe(1);
    await runJobs(t.deps, [fetchRatesJob]);
    expect(fx.requests.length - asked).toBe(1);
  });
});
