import { describe, expect, inject, it } from "vitest";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, type TestClient, uniqueEmail } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function trader(t: TestApp) {
  const client = t.client();
  await client.post("/api/auth/register", { email: uniqueEmail("stats"), password: PASSWORD });
  return client;
}

async function account(client: TestClient, timezone = "America/New_York", currency = "USD") {
  const res = await client.post("/api/accounts", { name: `A ${crypto.randomUUID()}`, currency, timezone });
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
}

/** A round trip in `symbol` closing at `closedAt` with the given net P&L (1 share, optional fees). */
async function roundTrip(client: TestClient, accountId: string, closedAt: string, pnl: number, opts: { symbol?: string; fees?: string; openedAt?: string } = {}) {
  const symbol = opts.symbol ?? "SPY";
  const openedAt = opts.openedAt ?? new Date(Date.parse(closedAt) - 60_000).toISOString();
  const buy = await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "1", price: "1000", executedAt: openedAt, fees: opts.fees ?? "0" });
  expect(buy.status).toBe(201);
  const sell = await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: "1", price: String(1000 + pnl), executedAt: closedAt });
  expect(sell.status).toBe(201);
}

/**
 * A statistic, without its figures in R (tests/node/risk.test.ts holds those): these tests are about money.
 * They check, though, that every row carries them.
 */
async function get(client: TestClient, path: string) {
  const res = await client.get(path);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await res.json();
  const { r, ...rest } = body;
  if (path.includes("/summary")) expect(r).toMatchObject({ withRisk: expect.any(Number) });
  const strip = (row: Record<string, unknown>) => {
    const { rTotal: _t, withRisk, rEquity: _e, ...kept } = row;
    expect(withRisk).toEqual(expect.any(Number));
    return kept;
  };
  for (const list of ["days", "points", "groups"] as const) if (Array.isArray(rest[list])) rest[list] = rest[list].map(strip);
  return rest;
}

describe("GET /api/stats/summary", () => {
  it("computes the headline figures over closed trades", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const accountId = await account(client);
    await roundTrip(client, accountId, "2026-04-01T15:00:00Z", 100);
    await roundTrip(client, accountId, "2026-04-02T15:00:00Z", -50, { symbol: "QQQ" });
    await roundTrip(client, accountId, "2026-04-03T15:00:00Z", 30, { fees: "0.5" });
    await roundTrip(client, accountId, "2026-04-06T15:00:00Z", -20);
    // An open trade does not count.
    await client.post("/api/fills", { accountId, symbol: "IWM", side: "buy", quantity: "1", price: "200", executedAt: "2026-04-07T15:00:00Z" });

    expect(await get(client, `/api/stats/summary?accountId=${accountId}`)).toEqual({
      currency: "USD",
      trades: 4,
      wins: 2,
      losses: 2,
      netPnl: "59.50",
      grossPnl: "60.00",
      fees: "0.50",
      winRate: "0.5000",
      profitFactor: "1.8500",
      expectancy: "14.875",
      averageWin: "64.75",
      averageLoss: "-35.00",
      largestWin: "100.00",
      largestLoss: "-50.00",
      // On the realised curve: 100, 50, then the 0.50 entry fee of the third trade (49.50) before its exit.
      maxDrawdown: "50.50",
    });
    const april3 = await get(client, `/api/stats/summary?accountId=${accountId}&from=2026-04-03T00:00:00Z&to=2026-04-04T00:00:00Z`);
    expect(april3).toMatchObject({ trades: 1, netPnl: "29.50" });
  });

  it("answers zeros and nulls with no closed trades, 404 for another user's account, 400 for a bad query", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const accountId = await account(client);
    expect(await get(client, `/api/stats/summary?accountId=${accountId}`)).toMatchObject({
      trades: 0,
      netPnl: "0.00",
      winRate: null,
      profitFactor: null,
      expectancy: null,
      largestWin: null,
      maxDrawdown: "0.00",
    });
    const other = await trader(t);
    expect((await other.get(`/api/stats/summary?accountId=${accountId}`)).status).toBe(404);
    expect((await other.get(`/api/stats/calendar?accountId=${accountId}`)).status).toBe(404);
    expect((await client.get(`/api/stats/summary?from=yesterday`)).status).toBe(400);
    expect((await client.get(`/api/stats/equity?bucket=year`)).status).toBe(400);
    expect((await client.get(`/api/stats/breakdown`)).status).toBe(400);
  });
});

describe("accounts in different currencies (amounts are never added across currencies)", () => {
  it("answers one account, or all accounts of one currency, and refuses the sum of unlike currencies with a 400 naming them", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const usd = await account(client, "America/New_York", "USD");
    const usd2 = await account(client, "America/New_York", "USD");
    await roundTrip(client, usd, "2026-04-01T15:00:00Z", 100);
    await roundTrip(client, usd2, "2026-04-02T15:00:00Z", 40, { symbol: "QQQ" });
    // While every account is in USD, "all accounts" is one currency, and says so.
    expect(await get(client, "/api/stats/summary")).toMatchObject({ currency: "USD", trades: 2, netPnl: "140.00" });

    const eur = await account(client, "Europe/Berlin", "eur");
    await roundTrip(client, eur, "2026-04-01T13:00:00Z", -30, { symbol: "SAP" });
    const paths = ["/api/stats/summary", "/api/stats/calendar", "/api/stats/equity", "/api/stats/breakdown?by=symbol"];
    for (const path of paths) {
      const res = await client.get(path);
      expect(res.status, path).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.message).toContain("EUR, USD");
      expect(error.fields).toEqual([{ path: "currency", message: "is required: your accounts are in EUR, USD" }]);
    }

    // One currency: its accounts only, in that currency (lower case is read as upper).
    expect(await get(client, "/api/stats/summary?currency=usd")).toMatchObject({ currency: "USD", trades: 2, netPnl: "140.00" });
    expect(await get(client, "/api/stats/summary?currency=EUR")).toMatchObject({ currency: "EUR", trades: 1, netPnl: "-30.00" });
    expect(await get(client, "/api/stats/calendar?currency=USD")).toEqual({
      currency: "USD",
      days: [
        { date: "2026-04-01", netPnl: "100.00", trades: 1 },
        { date: "2026-04-02", netPnl: "40.00", trades: 1 },
      ],
    });
    expect(await get(client, "/api/stats/equity?currency=EUR")).toEqual({
      currency: "EUR",
      bucket: "day",
      points: [{ start: "2026-04-01", netPnl: "-30.00", equity: "-30.00", trades: 1 }],
    });
    expect(await get(client, "/api/stats/breakdown?by=symbol&currency=USD")).toMatchObject({
      currency: "USD",
      groups: [
        { key: "QQQ", netPnl: "40.00", trades: 1 },
        { key: "SPY", netPnl: "100.00", trades: 1 },
      ],
    });
    // A currency none of the accounts use: nothing in scope.
    expect(await get(client, "/api/stats/summary?currency=JPY")).toMatchObject({ currency: "JPY", trades: 0, netPnl: "0.00" });
    // One account: its own currency.
    expect(await get(client, `/api/stats/summary?accountId=${eur}`)).toMatchObject({ currency: "EUR", trades: 1 });

    const both = await client.get(`/api/stats/summary?accountId=${usd}&currency=USD`);
    expect(both.status).toBe(400);
    expect((await both.json()).error.fields).toEqual([{ path: "currency", message: "must not be given with accountId" }]);
    const bad = await client.get("/api/stats/summary?currency=US");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields[0].path).toBe("currency");
  });
});

describe("GET /api/stats/calendar (the account's trading day)", () => {
  it.each([
    // zone, close time (UTC), expected local trading day
    ["America/New_York", "2026-03-08T04:59:00Z", "2026-03-07"], // 23:59 EST, the night DST starts
    ["America/New_York", "2026-03-08T07:30:00Z", "2026-03-08"], // 03:30 EDT, after the jump
    ["America/New_York", "2026-11-01T03:59:00Z", "2026-10-31"], // 23:59 EDT
    ["America/New_York", "2026-11-01T05:30:00Z", "2026-11-01"], // 01:30 EDT or EST: the repeated hour
    ["Asia/Tokyo", "2026-06-10T14:59:00Z", "2026-06-10"], // 23:59 JST
    ["Asia/Tokyo", "2026-06-10T15:00:00Z", "2026-06-11"], // 00:00 JST
    ["Etc/UTC", "2026-06-10T23:59:59Z", "2026-06-10"],
    ["Etc/UTC", "2026-06-11T00:00:00Z", "2026-06-11"],
  ])("in %s a trade closing at %s lands on %s", async (zone, closedAt, day) => {
    const t = await testApp(url());
    const client = await trader(t);
    const accountId = await account(client, zone);
    await roundTrip(client, accountId, closedAt, 12.5);
    expect(await get(client, `/api/stats/calendar?accountId=${accountId}`)).toEqual({ currency: "USD", days: [{ date: day, netPnl: "12.50", trades: 1 }] });
  });

  it("sums several trades per day", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const accountId = await account(client);
    await roundTrip(client, accountId, "2026-05-04T14:00:00Z", 10);
    await roundTrip(client, accountId, "2026-05-04T19:00:00Z", -4);
    await roundTrip(client, accountId, "2026-05-05T14:00:00Z", 7);
    expect((await get(client, `/api/stats/calendar?accountId=${accountId}`)).days).toEqual([
      { date: "2026-05-04", netPnl: "6.00", trades: 2 },
      { date: "2026-05-05", netPnl: "7.00", trades: 1 },
    ]);
  });
});

describe("GET /api/stats/equity", () => {
  it("buckets by day, week (WEEK_START_DAY) and month with a running total", async () => {
    const sunday = await testApp(url(), { WEEK_START_DAY: "0" });
    const client = await trader(sunday);
    const accountId = await account(client, "Etc/UTC");
    await roundTrip(client, accountId, "2026-03-14T12:00:00Z", 5); // Saturday
    await roundTrip(client, accountId, "2026-03-15T12:00:00Z", 7); // Sunday
    await roundTrip(client, accountId, "2026-04-02T12:00:00Z", -2);

    const weeks = await get(client, `/api/stats/equity?accountId=${accountId}&bucket=week`);
    expect(weeks.points).toEqual([
      { start: "2026-03-08", netPnl: "5.00", equity: "5.00", trades: 1 },
      { start: "2026-03-15", netPnl: "7.00", equity: "12.00", trades: 1 },
      { start: "2026-03-29", netPnl: "-2.00", equity: "10.00", trades: 1 },
    ]);
    const monday = await testApp(url(), { WEEK_START_DAY: "1" });
    const mondayClient = monday.client();
    for (const [k, v] of client.cookies) mondayClient.cookies.set(k, v);
    expect((await get(mondayClient, `/api/stats/equity?accountId=${accountId}&bucket=week`)).points.map((p: { start: string }) => p.start)).toEqual([
      "2026-03-09",
      "2026-03-30",
    ]);
    expect((await get(client, `/api/stats/equity?accountId=${accountId}&bucket=month`)).points).toEqual([
      { start: "2026-03-01", netPnl: "12.00", equity: "12.00", trades: 2 },
      { start: "2026-04-01", netPnl: "-2.00", equity: "10.00", trades: 1 },
    ]);
    expect((await get(client, `/api/stats/equity?accountId=${accountId}`)).points).toHaveLength(3);
  });
});

describe("GET /api/stats/breakdown", () => {
  it("groups by symbol, tag, setup, weekday, hour of entry and direction", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const accountId = await account(client, "America/New_York");
    await roundTrip(client, accountId, "2026-04-06T14:00:00Z", 10, { symbol: "AAPL", openedAt: "2026-04-06T13:45:00Z" }); // Mon 09:45
    await roundTrip(client, accountId, "2026-04-07T18:00:00Z", -5, { symbol: "AAPL", openedAt: "2026-04-07T17:30:00Z" }); // Tue 13:30
    await roundTrip(client, accountId, "2026-04-06T15:00:00Z", 3, { symbol: "MSFT", openedAt: "2026-04-06T13:50:00Z" }); // Mon 09:50
    const trades = (await get(client, `/api/trades?accountId=${accountId}`)).trades as Array<{ id: string; symbol: string; netPnl: string }>;
    const win = trades.find((x) => x.symbol === "AAPL" && x.netPnl === "10.00")!;
    await client.request(`/api/trades/${win.id}`, { method: "PATCH", json: { tags: ["orb", "a+"], setup: "Opening range" } });

    const q = `/api/stats/breakdown?accountId=${accountId}&by=`;
    expect((await get(client, `${q}symbol`)).groups).toEqual([
      { key: "AAPL", netPnl: "5.00", trades: 2, wins: 1, winRate: "0.5000" },
      { key: "MSFT", netPnl: "3.00", trades: 1, wins: 1, winRate: "1.0000" },
    ]);
    expect((await get(client, `${q}tag`)).groups).toEqual([
      { key: "a+", netPnl: "10.00", trades: 1, wins: 1, winRate: "1.0000" },
      { key: "orb", netPnl: "10.00", trades: 1, wins: 1, winRate: "1.0000" },
    ]);
    expect((await get(client, `${q}setup`)).groups).toEqual([
      { key: "No setup", netPnl: "-2.00", trades: 2, wins: 1, winRate: "0.5000" },
      { key: "Opening range", netPnl: "10.00", trades: 1, wins: 1, winRate: "1.0000" },
    ]);
    expect((await get(client, `${q}weekday`)).groups.map((g: { key: string; trades: number }) => [g.key, g.trades])).toEqual([
      ["Monday", 2],
      ["Tuesday", 1],
    ]);
    expect((await get(client, `${q}hour`)).groups.map((g: { key: string; netPnl: string }) => [g.key, g.netPnl])).toEqual([
      ["9", "13.00"],
      ["13", "-5.00"],
    ]);
    expect((await get(client, `${q}direction`)).groups).toEqual([{ key: "Long", netPnl: "8.00", trades: 3, wins: 2, winRate: "0.6667" }]);
    // A short: sold first at 500, bought back at 507 (a 7.00 loss).
    await client.post("/api/fills", { accountId, symbol: "TSLA", side: "sell", quantity: "1", price: "500", executedAt: "2026-04-08T14:00:00Z" });
    await client.post("/api/fills", { accountId, symbol: "TSLA", side: "buy", quantity: "1", price: "507", executedAt: "2026-04-08T15:00:00Z" });
    expect((await get(client, `${q}direction`)).groups).toEqual([
      { key: "Long", netPnl: "8.00", trades: 3, wins: 2, winRate: "0.6667" },
      { key: "Short", netPnl: "-7.00", trades: 1, wins: 0, winRate: "0.0000" },
    ]);
  });
});
