// The bar provider and the trade chart (docs/charts.md), against a local stand-in for Polygon.io's aggregates
// (tests/support/bars-server.ts): the key saved probed and sealed; a trade's chart fetched once per symbol and
// day however many views (20 at once included); a 429, a 500, a hang and a refused key leave a chart that
// says what is missing, never a 5xx; the fetch-bars job drains the rest; coarser resolutions read from the
// 1-minute bars; without a key the path through the fills; options by their fills only. Real Postgres.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fetchBarsJob, runJobs } from "../../lib/jobs/index.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { journal } from "../support/app.ts";
import { minuteOpen, startBarsServer, type BarsServer } from "../support/bars-server.ts";

const url = () => inject("databaseUrl");
let provider: BarsServer;
beforeAll(async () => {
  provider = await startBarsServer();
});
afterAll(async () => {
  await provider?.close();
});

const GOOD_KEY = "pk-good-0123456789abcdef";

async function trader(key: string | null = GOOD_KEY) {
  const j = await journal(url(), provider.env);
  const { client, userId } = await j.signUp("bars");
  if (key) {
    const saved = await client.request("/api/bars/key", { method: "PUT", json: { apiKey: key } });
    expect(saved.status, await saved.clone().text()).toBe(200);
  }
  const res = await client.post("/api/accounts", { name: `Chart ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "America/New_York" });
  const accountId = (await res.json()).id as string;
  const fill = async (symbol: string, side: "buy" | "sell", quantity: string, price: string, executedAt: string) => {
    const r = await client.post("/api/fills", { accountId, symbol, side, quantity, price, fees: "0", executedAt });
    expect(r.status, await r.clone().text()).toBe(201);
  };
  const tradeId = async (symbol: string) => ((await (await client.get(`/api/trades?accountId=${accountId}&symbol=${encodeURIComponent(symbol)}`)).json()).trades as Array<{ id: string }>)[0]!.id;
  const chart = async (id: string, query = "") => {
    const r = await client.get(`/api/trades/${id}/chart${query}`);
    expect(r.status, await r.clone().text()).toBe(200);
    return r.json();
  };
  return { ...j, client, userId, accountId, fill, tradeId, chart };
}

// Monday 2026-03-02: regular hours 09:30-16:00 New York = 14:30-21:00 UTC; minute i opens at (10000 + i) / 100.
const at = (minute: number, second = 0) => new Date(Date.parse("2026-03-02T14:30:00Z") + minute * 60_000 + second * 1000).toISOString();

describe("the bar provider key", () => {
  it("is probed, stored sealed and shown by its last four characters; a refused one is 422 BARS_KEY_INVALID", async () => {
    const t = await trader(null);
    expect(await (await t.client.get("/api/bars/key")).json()).toEqual({ configured: false });
    const bad = await t.client.request("/api/bars/key", { method: "PUT", json: { apiKey: "pk-invalid401-abcd" } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.code).toBe("BARS_KEY_INVALID");
    const good = await t.client.request("/api/bars/key", { method: "PUT", json: { apiKey: GOOD_KEY } });
    expect(await good.json()).toEqual({ configured: true, keyHintTail: "cdef", verified: true });
    const [stored] = rowsOf<{ ciphertext: string }>(await t.db.execute(sql`select ciphertext from stored_keys where user_id = ${t.userId}::uuid and provider = 'bars'`));
    expect(stored!.ciphertext).not.toContain(GOOD_KEY);
    expect(provider.urls.some((u) => u.includes(GOOD_KEY))).toBe(false);
    // The advisor's market-data key is another key: untouched.
    expect(await (await t.client.get("/api/advisor/market-data-key")).json()).toEqual({ configured: false });
    expect((await t.client.delete("/api/bars/key")).status).toBe(204);
    expect((await t.client.delete("/api/bars/key")).status).toBe(404);
  });
});

describe("a trade's chart", () => {
  it("fetches the day once on the trader's key and draws the bars, fills, average cost and running P&L", async () => {
    const t = await trader();
    await t.fill("AAPL", "buy", "100", "100.05", at(5, 30));
    await t.fill("AAPL", "buy", "100", "100.15", at(15, 10));
    await t.fill("AAPL", "sell", "200", "100.25", at(25, 0));
    const id = await t.tradeId("AAPL");
    const chart = await t.chart(id);
    expect(chart).toMatchObject({ symbol: "AAPL", resolution: "1m", direction: "long", stopPrice: null, note: null, coverage: { sources: ["provider"], key: true, missing: [] } });
    // 30 bars before the open's minute (the day starts at minute 0) .. 30 after the close's: minutes 0 to 55.
    expect(chart.bars).toHaveLength(56);
    expect(chart.bars[0]).toEqual({ t: at(0), open: minuteOpen(0).toFixed(2), high: "100.02", low: "99.98", close: "100.01", volume: "1000.00" });
    expect(chart.fills.map((f: { side: string; quantity: string; price: string }) => [f.side, f.quantity, f.price])).toEqual([
      ["buy", "100.00", "100.05"],
      ["buy", "100.00", "100.15"],
      ["sell", "200.00", "100.25"],
    ]);
    expect(chart.averageCost.map((a: { price: string | null }) => a.price)).toEqual(["100.05", "100.10", null]);
    // The running P&L is drawn by the browser (web/src/pages/trades/chart-data.ts): the chart carries what it needs.
    expect(chart).toMatchObject({ multiplier: "1.00", closedAt: at(25) });
    expect(provider.requests.get("AAPL minute 2026-03-02")).toBe(1);
    // Cached: another view, another resolution, another trade of the symbol that day: no new request.
    await t.chart(id);
    const five = await t.chart(id, "?resolution=5m&before=2&after=1");
    expect(five.bars[0]).toEqual({ t: at(0), open: "100.00", high: "100.06", low: "99.98", close: "100.05", volume: "5000.00" });
    expect(provider.requests.get("AAPL minute 2026-03-02")).toBe(1);
    // The trade's excursions came with the bars.
    const detail = await (await t.client.get(`/api/trades/${id}`)).json();
    expect(detail.trade.excursions).toMatchObject({ barsFrom: "1m" });
  });

  it("a trade held overnight: the window cut out of both days, its first bar in, the bar at its end out", async () => {
    const t = await trader();
    const tuesday = (minute: number) => new Date(Date.parse("2026-03-03T14:30:00Z") + minute * 60_000).toISOString();
    await t.fill("NVDA", "buy", "10", "103.00", at(300, 20));
    await t.fill("NVDA", "sell", "10", "100.30", tuesday(30));
    const id = await t.tradeId("NVDA");
    const chart = await t.chart(id, "?resolution=1m&before=10&after=10");
    // Monday from 10 minutes before the open's minute to the last minute (389), Tuesday from 09:30 to 10 minutes after the close's.
    expect(chart).toMatchObject({ from: at(290), to: tuesday(41), coverage: { missing: [] } });
    const times = chart.bars.map((b: { t: string }) => b.t);
    expect(times).toEqual([...Array.from({ length: 100 }, (_, i) => at(290 + i)), ...Array.from({ length: 41 }, (_, i) => tuesday(i))]);
    expect(chart.bars[100]).toEqual({ t: tuesday(0), open: "100.00", high: "100.02", low: "99.98", close: "100.01", volume: "1000.00" });
    expect(provider.requests.get("NVDA minute 2026-03-02")).toBe(1);
    expect(provider.requests.get("NVDA minute 2026-03-03")).toBe(1);
    // Hours binned over both days: from the hour before the open's (18:00 UTC) to the close's (15:00 UTC on Tuesday).
    const hours = await t.chart(id, "?resolution=1h&before=1&after=0");
    expect(hours.bars.map((b: { t: string }) => b.t)).toEqual(["2026-03-02T18:00:00.000Z", "2026-03-02T19:00:00.000Z", "2026-03-02T20:00:00.000Z", "2026-03-03T14:00:00.000Z", "2026-03-03T15:00:00.000Z"]);
    // Tuesday's first hour bin holds its minutes 0 to 29: opened by the first, closed by the last, their volumes summed.
    expect(hours.bars[3]).toEqual({ t: "2026-03-03T14:00:00.000Z", open: "100.00", high: "100.31", low: "99.98", close: "100.30", volume: "30000.00" });
  });

  it("a day with a gap: the bars there are drawn, the missing minutes are simply absent", async () => {
    const t = await trader();
    await t.fill("GAPS", "buy", "10", "100.05", at(5, 30));
    await t.fill("GAPS", "sell", "10", "100.25", at(25));
    const chart = await t.chart(await t.tradeId("GAPS"));
    // Minutes 0 to 55 less the stand-in's gap (10 to 19).
    expect(chart.bars).toHaveLength(46);
    expect(chart.bars.some((b: { t: string }) => b.t === at(12))).toBe(false);
    expect(chart.coverage.missing).toEqual([]);
  });

  it("twenty views at once of a trade whose day is not there yet make one request to the provider", async () => {
    const t = await trader();
    await t.fill("MSFT", "sell", "10", "100.10", at(10));
    await t.fill("MSFT", "buy", "10", "100.00", at(40));
    const id = await t.tradeId("MSFT");
    const charts = await Promise.all(Array.from({ length: 20 }, () => t.client.get(`/api/trades/${id}/chart`)));
    expect(charts.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(provider.requests.get("MSFT minute 2026-03-02")).toBe(1);
    // Whoever lost the race was told the day is on its way; the next view has it.
    expect((await t.chart(id)).bars.length).toBeGreaterThan(0);
  });

  it("a 429 leaves the day queued with the provider's wait; the fetch-bars job then fetches it", async () => {
    const t = await trader();
    await t.fill("RATE", "buy", "10", "100", at(100));
    await t.fill("RATE", "sell", "10", "101", at(110));
    const id = await t.tradeId("RATE");
    const first = await t.chart(id);
    expect(first.bars).toEqual([]);
    expect(first.coverage.missing).toEqual([{ day: "2026-03-02", status: "queued", detail: "rate limited (429)" }]);
    expect(first.note).toMatch(/on their way/);
    await new Promise((r) => setTimeout(r, 1100));
    const outcome = await runJobs(t.t.deps, [fetchBarsJob]);
    expect(outcome["fetch-bars"]).toBeGreaterThanOrEqual(1);
    const later = await t.chart(id);
    expect(later.coverage.missing).toEqual([]);
    expect(later.bars.length).toBeGreaterThan(0);
    expect(provider.requests.get("RATE minute 2026-03-02")).toBe(2);
  });

  it("a 500, a hang, a day beyond the plan and a refused key: a chart that says why, never a 5xx", async () => {
    const t = await trader();
    for (const symbol of ["FAIL", "NOPLAN"]) {
      await t.fill(symbol, "buy", "1", "100", at(0));
      await t.fill(symbol, "sell", "1", "101", at(5));
    }
    const fail = await t.chart(await t.tradeId("FAIL"));
    expect(fail.coverage.missing).toEqual([{ day: "2026-03-02", status: "queued", detail: "status 500" }]);
    // After the last try it is given up, saying why.
    await t.db.execute(sql`update bar_days set attempts = 6, next_attempt_at = now() where user_id = ${t.userId}::uuid and symbol = 'FAIL'`);
    await runJobs(t.t.deps, [fetchBarsJob]);
    expect((await t.chart(await t.tradeId("FAIL"))).coverage.missing).toEqual([
      { day: "2026-03-02", status: "failed", detail: expect.stringMatching(/did not answer \(status 500\)/) },
    ]);
    expect((await t.chart(await t.tradeId("NOPLAN"))).coverage.missing).toEqual([
      { day: "2026-03-02", status: "failed", detail: expect.stringMatching(/not in the key's plan/) },
    ]);

    await t.fill("HANG", "buy", "1", "100", at(0));
    await t.fill("HANG", "sell", "1", "101", at(5));
    const started = Date.now();
    const hang = await t.chart(await t.tradeId("HANG"));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(hang.coverage.missing).toEqual([{ day: "2026-03-02", status: "queued", detail: "timed out" }]);

    // A key the provider stops accepting: marked unverified, its days failed with the reason.
    const revoked = await trader("pk-revoked-abcd");
    await revoked.fill("AMD", "buy", "1", "100", at(0));
    await revoked.fill("AMD", "sell", "1", "101", at(5));
    const refused = await revoked.chart(await revoked.tradeId("AMD"));
    expect(refused.coverage.missing).toEqual([{ day: "2026-03-02", status: "failed", detail: expect.stringMatching(/refused the key/) }]);
    expect(await (await revoked.client.get("/api/bars/key")).json()).toMatchObject({ configured: true, verified: false });
  });

  it("without a key: uploaded bars, else the path through the fills; options by their fills only; minute bars up to 30 days", async () => {
    const t = await trader(null);
    await t.fill("NVDA", "buy", "10", "100", at(0));
    await t.fill("NVDA", "sell", "10", "101", at(5));
    const id = await t.tradeId("NVDA");
    const bare = await t.chart(id);
    expect(bare).toMatchObject({ bars: [], coverage: { key: false, sources: [] }, note: expect.stringMatching(/path through its fills/) });
    expect(bare.coverage.missing[0]).toMatchObject({ day: "2026-03-02", status: "none", detail: expect.stringMatching(/bar provider key|candle CSV/) });
    expect(bare.fills).toHaveLength(2);
    const form = new FormData();
    form.set("file", new Blob([["time,open,high,low,close,volume", `${at(1)},100,100.5,99.5,100.2,10`].join("\n")]), "nvda.csv");
    form.set("symbol", "NVDA");
    form.set("resolution", "1m");
    expect((await t.client.request("/api/bars/upload", { method: "POST", body: form })).status).toBe(201);
    const uploaded = await t.chart(id);
    expect(uploaded).toMatchObject({ coverage: { sources: ["upload"], missing: [] }, note: null });
    expect(uploaded.bars).toHaveLength(1);

    await t.fill("AAPL  270115C00200000", "buy", "1", "5", at(0));
    const option = await t.chart(await t.tradeId("AAPL  270115C00200000"));
    expect(option).toMatchObject({ bars: [], note: expect.stringMatching(/Options are charted by their fills only/) });

    await t.fill("AMZN", "buy", "1", "100", "2026-01-05T15:00:00Z");
    await t.fill("AMZN", "sell", "1", "101", "2026-03-02T15:00:00Z");
    const long = await t.client.get(`/api/trades/${await t.tradeId("AMZN")}/chart?resolution=1m`);
    expect(long.status).toBe(400);
    expect((await long.json()).error.fields).toEqual([{ path: "resolution", message: expect.stringMatching(/choose 1d/) }]);
    expect((await t.chart(await t.tradeId("AMZN"))).resolution).toBe("1d");
    for (const bad of ["?resolution=2m", "?before=501", "?after=-1"]) expect((await t.client.get(`/api/trades/${id}/chart${bad}`)).status).toBe(400);
  });
});
