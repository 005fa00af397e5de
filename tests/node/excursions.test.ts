// Excursions (docs/charts.md): MAE/MFE in price, money and R, the best exit and the exit efficiency of closed
// trades, from hand-made 1-minute bars uploaded as a candle CSV, against values computed by hand for a long,
// a short, a scale-in with a partial exit; recomputed when a fill is edited; daily bars when no 1-minute
// ones cover a trade; the upload's bad rows listed with nothing stored. Real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { computeExcursionsJob, runJobs } from "../../lib/jobs/index.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function trader(tag = "excursions") {
  const j = await journal(url());
  const { client, userId } = await j.signUp(tag);
  const res = await client.post("/api/accounts", { name: `Bars ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "America/New_York" });
  expect(res.status).toBe(201);
  return { ...j, client, userId, accountId: (await res.json()).id as string };
}
type Trader = Awaited<ReturnType<typeof trader>>;

async function fill(t: Trader, symbol: string, side: "buy" | "sell", quantity: string, price: string, executedAt: string, fees = "0") {
  const res = await t.client.post("/api/fills", { accountId: t.accountId, symbol, side, quantity, price, fees, executedAt });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

function upload(client: TestClient, symbol: string, resolution: string, csv: string) {
  const form = new FormData();
  form.set("file", new Blob([csv]), "candles.csv");
  form.set("symbol", symbol);
  form.set("resolution", resolution);
  return client.request("/api/bars/upload", { method: "POST", body: form });
}

/** 1-minute bars from `start` (HH:MM UTC on 2026-03-02), one [open, high, low, close] per minute. */
function minuteBars(start: string, ohlc: Array<[number, number, number, number]>) {
  const base = Date.parse(`2026-03-02T${start}:00Z`);
  return ["time,open,high,low,close,volume", ...ohlc.map(([o, h, l, c], i) => `${new Date(base + i * 60_000).toISOString()},${o},${h},${l},${c},1000`)].join("\n");
}

async function tradeOf(t: Trader, symbol: string) {
  const list = (await (await t.client.get(`/api/trades?accountId=${t.accountId}&symbol=${symbol}`)).json()).trades as Array<{ id: string }>;
  expect(list).toHaveLength(1);
  const res = await t.client.get(`/api/trades/${list[0]!.id}`);
  expect(res.status).toBe(200);
  return (await res.json()).trade as { id: string; netPnl: string; excursions: Record<string, string | null> | null };
}

describe("excursions from 1-minute bars", () => {
  it("a long: price and position MAE/MFE, in R, the best exit and the efficiency", async () => {
    const t = await trader();
    const up = await upload(t.client, "AAPL", "1m", minuteBars("14:30", [[10, 10.2, 9.9, 10.1], [10.1, 10.5, 9.8, 10.4], [10.4, 10.6, 10.3, 10.5], [10.5, 10.7, 10.4, 10.6]]));
    expect(up.status, await up.clone().text()).toBe(201);
    expect(await up.json()).toEqual({ symbol: "AAPL", resolution: "1m", bars: 4, from: "2026-03-02T14:30:00.000Z", to: "2026-03-02T14:33:00.000Z" });
    await fill(t, "AAPL", "buy", "100", "10", "2026-03-02T14:30:30Z", "1");
    await fill(t, "AAPL", "sell", "100", "10.5", "2026-03-02T14:32:30Z", "1");
    const trade = await tradeOf(t, "AAPL");
    // The 14:30 bar is the opening fill's (flat at its start); 14:31 and 14:32 are held; 14:33 is after the close.
    // MAE: 9.80 -> (9.8 - 10) x 100 = -20; MFE: 10.60 -> +60; best exit 60 - 2 = 58; net 48 -> 48 / 58 = 0.8276.
    expect(trade.excursions).toEqual({
      priceMae: "9.80", priceMfe: "10.60", positionMae: "-20.00", positionMfe: "60.00", maeR: null, mfeR: null, bestExitPnl: "58.00", efficiency: "0.8276", barsFrom: "1m",
    });
    // With a stop at 9.50, 1R = 0.50 x 100 = 50: MAE -0.40 R, MFE 1.20 R.
    const planned = await t.client.request(`/api/trades/${trade.id}`, { method: "PATCH", json: { stopPrice: "9.5" } });
    expect(planned.status).toBe(200);
    expect((await tradeOf(t, "AAPL")).excursions).toMatchObject({ maeR: "-0.40", mfeR: "1.20" });
    // The list filters by them: kept at most a share of the best exit, went at least so far against in R.
    const count = async (q: string) => {
      const res = await t.client.get(`/api/trades?accountId=${t.accountId}&${q}`);
      expect(res.status, q).toBe(200);
      return ((await res.json()).trades as unknown[]).length;
    };
    expect([await count("maxEfficiency=0.8"), await count("maxEfficiency=0.83"), await count("maxMaeR=-0.5"), await count("maxMaeR=-0.4")]).toEqual([0, 1, 0, 1]);
    for (const bad of ["maxEfficiency=half", "maxMaeR=1e3"]) expect((await t.client.get(`/api/trades?${bad}`)).status).toBe(400);
    // The dashboard's scatter plots: each closed trade with excursions against its net P&L; a trade without bars counted apart.
    await fill(t, "KO", "buy", "10", "60", "2026-03-02T15:00:00Z");
    await fill(t, "KO", "sell", "10", "61", "2026-03-02T15:30:00Z");
    const points = await (await t.client.get(`/api/stats/excursions?accountId=${t.accountId}`)).json();
    expect(points).toEqual({
      currency: "USD",
      trades: 2,
      withExcursions: 1,
      points: [{ tradeId: trade.id, symbol: "AAPL", netPnl: "48.00", positionMae: "-20.00", positionMfe: "60.00", maeR: "-0.40", mfeR: "1.20", rMultiple: "0.96", efficiency: "0.8276" }],
    });
  });

  it("a short: the worst price is the highest, the best the lowest", async () => {
    const t = await trader();
    await upload(t.client, "TSLA", "1m", minuteBars("15:00", [[20, 20.1, 19.95, 20], [20.1, 20.4, 19.9, 20.2], [20.2, 20.2, 19.4, 19.6], [19.6, 19.7, 19.45, 19.5]]));
    await fill(t, "TSLA", "sell", "50", "20", "2026-03-02T15:00:10Z");
    await fill(t, "TSLA", "buy", "50", "19.5", "2026-03-02T15:03:05Z");
    // 15:01: (20 - 20.4) x 50 = -20 and (20 - 19.9) x 50 = 5; 15:02: 0 and 30; 15:03: 15 and 27.5; closed at +25.
    expect((await tradeOf(t, "TSLA")).excursions).toEqual({
      priceMae: "20.40", priceMfe: "19.40", positionMae: "-20.00", positionMfe: "30.00", maeR: null, mfeR: null, bestExitPnl: "30.00", efficiency: "0.8333", barsFrom: "1m",
    });
  });

  it("a scale-in and a partial exit: the running P&L at average cost; a corrected fill recomputes it", async () => {
    const t = await trader();
    await upload(t.client, "MSFT", "1m", minuteBars("16:00", [[10, 10.1, 9.95, 10], [10, 10.2, 9.9, 10.1], [10.1, 10.4, 10, 10.3], [10.3, 10.5, 10.2, 10.45]]));
    await fill(t, "MSFT", "buy", "100", "10", "2026-03-02T16:00:30Z");
    await fill(t, "MSFT", "buy", "100", "10.1", "2026-03-02T16:01:30Z");
    await fill(t, "MSFT", "sell", "100", "10.3", "2026-03-02T16:02:30Z");
    const last = await fill(t, "MSFT", "sell", "100", "10.45", "2026-03-02T16:03:40Z");
    // 16:01 (100 at 10): -10 / +20; the add: +10; 16:02 (200 at 10.05): -10 / +70; the partial exit realises 25 (P&L 50);
    // 16:03 (100 at 10.05 left): 25 + 15 = 40 / 25 + 45 = 70; the close: 65. Best exit 70, efficiency 65 / 70.
    expect((await tradeOf(t, "MSFT")).excursions).toEqual({
      priceMae: "9.90", priceMfe: "10.50", positionMae: "-10.00", positionMfe: "70.00", maeR: null, mfeR: null, bestExitPnl: "70.00", efficiency: "0.9286", barsFrom: "1m",
    });
    // The close was really at 10.40: the trade is rebuilt, its excursions computed again (net 60 of the best 70).
    expect((await t.client.request(`/api/fills/${last.id}`, { method: "PATCH", json: { price: "10.40" } })).status).toBe(200);
    expect((await tradeOf(t, "MSFT")).excursions).toMatchObject({ positionMfe: "70.00", efficiency: "0.8571" });
  });
});

describe("which trades have excursions", () => {
  it("daily bars when no 1-minute bar covers a swing trade; none for an open trade, an option, or without bars; another user's bars are not yours", async () => {
    const t = await trader();
    const days = ["time,open,high,low,close,volume", "2026-04-06T04:00:00Z,50,52,49,51,1", "2026-04-07T04:00:00Z,51,55,50.5,54,1", "2026-04-08T04:00:00Z,54,56,53,55,1"].join("\n");
    expect((await upload(t.client, "NVDA", "1d", days)).status).toBe(201);
    await fill(t, "NVDA", "buy", "10", "50", "2026-04-06T15:00:00Z");
    await fill(t, "NVDA", "sell", "10", "55", "2026-04-08T19:00:00Z");
    // The 6th is the opening day (flat at its start); the 7th and the 8th are held: 50.5 .. 56.
    expect((await tradeOf(t, "NVDA")).excursions).toEqual({
      priceMae: "50.00", priceMfe: "56.00", positionMae: "0.00", positionMfe: "60.00", maeR: null, mfeR: null, bestExitPnl: "60.00", efficiency: "0.8333", barsFrom: "1d",
    });
    await fill(t, "AMD", "buy", "10", "100", "2026-04-06T15:00:00Z");
    expect((await tradeOf(t, "AMD")).excursions).toBeNull(); // open, and no bars
    await fill(t, "AAPL  270115C00200000", "buy", "1", "5", "2026-04-06T15:00:00Z");
    await fill(t, "AAPL  270115C00200000", "sell", "1", "6", "2026-04-07T15:00:00Z");
    expect((await tradeOf(t, "AAPL  270115C00200000")).excursions).toBeNull();
    // Someone else's NVDA: no bars of theirs, no excursions.
    const other = await trader("other");
    await fill(other, "NVDA", "buy", "10", "50", "2026-04-06T15:00:00Z");
    await fill(other, "NVDA", "sell", "10", "55", "2026-04-08T19:00:00Z");
    expect((await tradeOf(other, "NVDA")).excursions).toBeNull();
  });

  it("the list carries them once computed: by the trade page or by the job, which also drops those of trades that are gone", async () => {
    const t = await trader();
    await upload(t.client, "AMZN", "1m", minuteBars("14:30", [[10, 10.2, 9.9, 10.1], [10.1, 10.5, 9.8, 10.4]]));
    const opening = await fill(t, "AMZN", "buy", "10", "10", "2026-03-02T14:30:30Z");
    await fill(t, "AMZN", "sell", "10", "10.4", "2026-03-02T14:31:30Z");
    const listed = async () => ((await (await t.client.get(`/api/trades?accountId=${t.accountId}`)).json()).trades as Array<{ excursions: unknown }>)[0]!.excursions;
    expect(await listed()).toBeNull();
    const outcome = await runJobs(t.t.deps, [computeExcursionsJob]);
    expect(outcome["compute-excursions"]).toBeGreaterThanOrEqual(1);
    expect(await listed()).toMatchObject({ positionMae: "-2.00", positionMfe: "5.00", barsFrom: "1m" });
    // New bars of the symbol make them stale; the list shows none until they are computed again.
    await upload(t.client, "AMZN", "1m", minuteBars("14:31", [[10.1, 10.9, 9.8, 10.4]]));
    expect(await listed()).toBeNull();
    await runJobs(t.t.deps, [computeExcursionsJob]);
    expect(await listed()).toMatchObject({ positionMfe: "9.00" });
    // The trade gone (its opening fill deleted: the sell opens a short): its row is dropped by the next run.
    const before = rowsOf(await t.db.execute(sql`select 1 from trade_excursions x where not exists (select 1 from positions p where p.id = x.position_id)`));
    expect((await t.client.delete(`/api/fills/${opening.id}`)).status).toBe(204);
    expect(rowsOf(await t.db.execute(sql`select 1 from trade_excursions x where not exists (select 1 from positions p where p.id = x.position_id)`)).length).toBeGreaterThan(before.length);
    await runJobs(t.t.deps, [computeExcursionsJob]);
    expect(await listed()).toBeNull();
    expect(rowsOf(await t.db.execute(sql`select 1 from trade_excursions x where not exists (select 1 from positions p where p.id = x.position_id)`))).toEqual([]);
  });
});

describe("the candle CSV upload", () => {
  it("lists every bad row by number and stores nothing; refuses options, a missing column, an unknown resolution", async () => {
    const t = await trader();
    const bad = [
      "time,open,high,low,close,volume",
      "2026-03-02T14:30:00Z,10,10.2,9.9,10.1,100",
      "2026-03-02 14:31,10,10.2,9.9,10.1,100", // no offset
      "2026-03-02T14:32:00Z,10,9.9,9.8,10.1,100", // high below the close
      "2026-03-02T14:33:00Z,10,10.2,10.05,10.1,100", // low above the open
      "2026-03-02T14:30:00Z,10,10.2,9.9,10.1,100", // the first row's time again
      "1772462160,abc,10.2,9.9,10.1,100", // epoch seconds are fine; the open is not a number
    ].join("\n");
    const res = await upload(t.client, "AAPL", "1m", bad);
    expect(res.status).toBe(400);
    const error = (await res.json()).error;
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.fields.map((f: { path: string }) => f.path)).toEqual(["rows.3.time", "rows.4.high", "rows.5.low", "rows.6.time", "rows.7.open"]);
    expect(rowsOf(await t.db.execute(sql`select 1 from bars where user_id = ${t.userId}::uuid`))).toEqual([]);

    const refused = [
      await upload(t.client, "AAPL  270115C00200000", "1m", minuteBars("14:30", [[1, 1, 1, 1]])),
      await upload(t.client, "AAPL", "1m", "time,open,high,close\n2026-03-02T14:30:00Z,1,1,1"),
      await upload(t.client, "AAPL", "5m", minuteBars("14:30", [[1, 1, 1, 1]])),
      await upload(t.client, "AAPL", "1m", "time,open,high,low,close,volume\n"),
    ];
    for (const r of refused) expect(r.status, await r.clone().text()).toBe(400);
    expect(rowsOf(await t.db.execute(sql`select 1 from bars where user_id = ${t.userId}::uuid`))).toEqual([]);
  });
});
