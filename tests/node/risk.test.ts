// Risk in R (DESIGN.md section 10): a trade's stop, target and planned risk, its 1R, R-multiple and planned
// reward-to-risk against hand-computed values (a long, a short, a scale-in, a partial exit, a future, an
// option), wrong-side stops refused, the account's default risk, the summary's r block and R in the calendar,
// equity curve, breakdowns and the R distribution. Real Postgres.
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";

const url = () => inject("databaseUrl");

async function trader() {
  const j = await journal(url());
  const { client } = await j.signUp("risk");
  const res = await client.post("/api/accounts", { name: `Risk ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "Etc/UTC" });
  expect(res.status).toBe(201);
  const accountId = (await res.json()).id as string;
  let minute = 0;
  const fill = async (symbol: string, side: "buy" | "sell", quantity: string, price: string, fees = "0") => {
    minute += 1;
    const at = new Date(Date.UTC(2026, 2, 2, 14, 0) + minute * 60_000).toISOString();
    const r = await client.post("/api/fills", { accountId, symbol, side, quantity, price, fees, executedAt: at });
    expect(r.status, await r.clone().text()).toBe(201);
  };
  const trade = async (symbol: string) => {
    const list = (await (await client.get(`/api/trades?accountId=${accountId}&symbol=${encodeURIComponent(symbol)}`)).json()).trades;
    expect(list).toHaveLength(1);
    return list[0] as { id: string; risk: Record<string, string | null>; status: string };
  };
  const plan = async (id: string, body: Record<string, unknown>) => {
    const r = await client.request(`/api/trades/${id}`, { method: "PATCH", json: body });
    expect(r.status, await r.clone().text()).toBe(200);
    return (await r.json()).trade as { risk: Record<string, string | null> };
  };
  return { ...j, client, accountId, fill, trade, plan };
}

describe("a trade's plan and its figures in R", () => {
  it("a long: 1R from the stop, R from net P&L, planned R:R from the target", async () => {
    const t = await trader();
    await t.fill("AAPL", "buy", "100", "50", "1");
    await t.fill("AAPL", "sell", "100", "53", "1");
    const { id } = await t.trade("AAPL");
    // 1R = |50 - 48| x 100 x 1 = 200; net = 300 - 2 = 298 -> 1.49 R; R:R = |56 - 50| / |50 - 48| = 3.
    const after = await t.plan(id, { stopPrice: "48", targetPrice: "56" });
    expect(after.risk).toEqual({ stopPrice: "48.00", targetPrice: "56.00", plannedRisk: null, oneR: "200.00", rMultiple: "1.49", plannedRR: "3.00" });
    // The list says the same; the planned risk, when set, is 1R whatever the stop.
    expect((await t.trade("AAPL")).risk).toEqual(after.risk);
    expect((await t.plan(id, { plannedRisk: "149" })).risk).toMatchObject({ oneR: "149.00", rMultiple: "2.00", plannedRR: "3.00" });
  });

  it("a short: the stop above the entry", async () => {
    const t = await trader();
    await t.fill("TSLA", "sell", "50", "20");
    await t.fill("TSLA", "buy", "50", "21");
    const { id } = await t.trade("TSLA");
    // 1R = 1.5 x 50 = 75; net = -50 -> -0.67 R; R:R = 3 / 1.5 = 2.
    expect((await t.plan(id, { stopPrice: "21.5", targetPrice: "17" })).risk).toMatchObject({ oneR: "75.00", rMultiple: "-0.67", plannedRR: "2.00" });
  });

  it("a scale-in: the entry is the average of the opening fills, the size the largest position", async () => {
    const t = await trader();
    await t.fill("MSFT", "buy", "100", "10");
    await t.fill("MSFT", "buy", "100", "11");
    await t.fill("MSFT", "sell", "200", "12");
    const { id } = await t.trade("MSFT");
    // entry 10.5, size 200: 1R = 0.5 x 200 = 100; net = 2400 - 2100 = 300 -> 3 R.
    expect((await t.plan(id, { stopPrice: "10" })).risk).toMatchObject({ oneR: "100.00", rMultiple: "3.00" });
  });

  it("a partial exit: only fills before the first reduction open the trade; an open trade's R is what it realised so far", async () => {
    const t = await trader();
    await t.fill("NVDA", "buy", "100", "10");
    await t.fill("NVDA", "sell", "50", "12");
    const open = await t.trade("NVDA");
    // Open: realised 100 so far; 1R = |10 - 9| x 100 = 100.
    expect((await t.plan(open.id, { stopPrice: "9" })).risk).toMatchObject({ oneR: "100.00", rMultiple: "1.00" });
    await t.fill("NVDA", "buy", "50", "9"); // an add after the reduction: not part of the entry
    await t.fill("NVDA", "sell", "100", "11");
    const closed = await t.trade("NVDA");
    // entry still 10 (the add came after the first reduction), size 100: 1R = 100; net = 1700 - 1450 = 250 -> 2.5 R.
    expect(closed).toMatchObject({ status: "closed", risk: { stopPrice: "9.00", oneR: "100.00", rMultiple: "2.50" } });
  });

  it("a future and an option: the multiplier is in 1R", async () => {
    const t = await trader();
    await t.fill("ESZ26", "buy", "2", "5000", "2.25");
    await t.fill("ESZ26", "sell", "2", "5010", "2.25");
    const es = await t.trade("ESZ26");
    // 1R = 5 x 2 x 50 = 500; net = 10 x 2 x 50 - 4.50 = 995.50 -> 1.991 -> 1.99 R.
    expect((await t.plan(es.id, { stopPrice: "4995" })).risk).toMatchObject({ oneR: "500.00", rMultiple: "1.99" });
    await t.fill("AAPL  270119C00150000", "buy", "2", "3.5");
    await t.fill("AAPL  270119C00150000", "sell", "2", "4.5");
    const option = await t.trade("AAPL  270119C00150000");
    // 1R = |3.5 - 3| x 2 x 100 = 100; net = 1 x 2 x 100 = 200 -> 2 R.
    expect((await t.plan(option.id, { stopPrice: "3" })).risk).toMatchObject({ oneR: "100.00", rMultiple: "2.00" });
  });

  it("refuses a stop on the wrong side of the entry, naming stopPrice, and writes nothing", async () => {
    const t = await trader();
    await t.fill("AMD", "buy", "10", "150");
    const long = await t.trade("AMD");
    for (const stop of ["150", "151"]) {
      const res = await t.client.request(`/api/trades/${long.id}`, { method: "PATCH", json: { stopPrice: stop, notes: "not saved" } });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: "VALIDATION_ERROR", fields: [{ path: "stopPrice", message: "must be below the entry price 150.00 for a long trade" }] });
    }
    expect(await t.trade("AMD")).toMatchObject({ risk: { stopPrice: null }, notes: null });
    await t.fill("AMZN", "sell", "10", "200");
    const short = await t.trade("AMZN");
    const res = await t.client.request(`/api/trades/${short.id}`, { method: "PATCH", json: { stopPrice: "199.99" } });
    expect((await res.json()).error.fields).toEqual([{ path: "stopPrice", message: "must be above the entry price 200.00 for a short trade" }]);
    // Bad shapes are the schema's.
    for (const bad of [{ stopPrice: "-1" }, { plannedRisk: "0" }, { targetPrice: 12 }]) {
      const r = await t.client.request(`/api/trades/${short.id}`, { method: "PATCH", json: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    // Clearing the plan clears the figures.
    await t.plan(short.id, { stopPrice: "201", targetPrice: "190" });
    expect((await t.plan(short.id, { stopPrice: null, targetPrice: null })).risk).toEqual({
      stopPrice: null, targetPrice: null, plannedRisk: null, oneR: null, rMultiple: null, plannedRR: null,
    });
  });

  it("the account's default risk is 1R of trades without a plan; PATCH sets and clears it", async () => {
    const t = await trader();
    await t.fill("META", "buy", "10", "500");
    await t.fill("META", "sell", "10", "520");
    expect((await t.trade("META")).risk.oneR).toBeNull();
    const set = await t.client.request(`/api/accounts/${t.accountId}`, { method: "PATCH", json: { defaultRisk: "250" } });
    expect(set.status).toBe(200);
    expect((await set.json()).defaultRisk).toBe("250.00");
    expect((await t.trade("META")).risk).toMatchObject({ oneR: "250.00", rMultiple: "0.80" });
    expect((await t.client.request(`/api/accounts/${t.accountId}`, { method: "PATCH", json: { defaultRisk: "-5" } })).status).toBe(400);
    expect((await (await t.client.request(`/api/accounts/${t.accountId}`, { method: "PATCH", json: { defaultRisk: null } })).json()).defaultRisk).toBeNull();
    expect((await t.trade("META")).risk.oneR).toBeNull();
  });

  it("the plan stays with the trade when a missed fill is added, and its R follows the new entry", async () => {
    const t = await trader();
    await t.fill("QQQ", "buy", "100", "400");
    const before = await t.trade("QQQ");
    await t.plan(before.id, { stopPrice: "398" });
    // A missed scale-in before the first fill: a new opening fill, the trade rebuilt.
    const r = await t.client.post("/api/fills", { accountId: t.accountId, symbol: "QQQ", side: "buy", quantity: "100", price: "402", executedAt: "2026-03-02T13:00:00Z" });
    expect(r.status).toBe(201);
    // entry (402 + 400) / 2 = 401, size 200: 1R = 3 x 200 = 600.
    expect((await t.trade("QQQ")).risk).toMatchObject({ stopPrice: "398.00", oneR: "600.00" });
  });
});

describe("a plan from the imported file (mapping.stopPrice, mapping.targetPrice)", () => {
  it("goes onto the trade its row's fill joins, where the trade has none; a wrong-side stop or a bad cell is said, never guessed", async () => {
    const t = await trader();
    // A trade the trader already planned: the file's stop does not replace theirs.
    await t.fill("MSFT", "buy", "10", "400");
    const planned = await t.trade("MSFT");
    await t.plan(planned.id, { stopPrice: "390" });
    const header = "Time,Symbol,Side,Qty,Price,Stop,Target";
    const csv = [
      header,
      "2026-03-03T15:00:00Z,AAPL,BUY,100,50,48,56", // a long: 1R = 200, R:R 3
      "2026-03-03T15:30:00Z,AAPL,SELL,100,53,,", // the exit says nothing of the plan
      "2026-03-03T16:00:00Z,TSLA,SELL,50,20,21.5,", // a short: stop above
      "2026-03-03T16:10:00Z,TSLA,BUY,50,21,,",
      "2026-03-03T17:00:00Z,NVDA,BUY,10,100,101,110", // a stop above a long's entry: not written; the target is
      "2026-03-03T18:00:00Z,MSFT,SELL,10,405,380,420", // joins the planned trade: its stop stays 390, the target is new
    ].join("\n");
    const mapping = { executedAt: "Time", symbol: "Symbol", side: "Side", quantity: "Qty", price: "Price", stopPrice: "Stop", targetPrice: "Target" };
    const upload = (text: string) => {
      const form = new FormData();
      form.set("file", new Blob([text]), "plan.csv");
      form.set("request", JSON.stringify({ accountId: t.accountId, mapping }));
      return t.client.request("/api/csv-import/preview", { method: "POST", body: form });
    };
    // A cell that is not a price is the row's error, naming the column.
    const bad = await (await upload([header, "2026-03-03T15:00:00Z,AAPL,BUY,100,50,abc,"].join("\n"))).json();
    expect(bad.errors).toEqual([expect.objectContaining({ row: 2, column: "Stop", message: expect.stringContaining('"abc" is not a price') })]);

    const preview = await (await upload(csv)).json();
    expect(preview.errors).toEqual([]);
    expect(preview.fills[0]).toMatchObject({ symbol: "AAPL", stopPrice: "48.00", targetPrice: "56.00" });
    expect((await t.client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
    expect((await t.trade("AAPL")).risk).toMatchObject({ stopPrice: "48.00", targetPrice: "56.00", oneR: "200.00", rMultiple: "1.50", plannedRR: "3.00" });
    expect((await t.trade("TSLA")).risk).toMatchObject({ stopPrice: "21.50", oneR: "75.00", rMultiple: "-0.67" });
    expect((await t.trade("NVDA")).risk).toMatchObject({ stopPrice: null, targetPrice: "110.00", oneR: null });
    expect((await t.trade("MSFT")).risk).toMatchObject({ stopPrice: "390.00", targetPrice: "420.00" });
  });
});

describe("statistics in R", () => {
  it("the summary's r block, R per day and cumulative, per group, and the R distribution", async () => {
    const t = await trader();
    // Three closed trades: +1.49 R (AAPL), -0.67 R (TSLA), and one without a 1R (IBM).
    await t.fill("AAPL", "buy", "100", "50", "1");
    await t.fill("AAPL", "sell", "100", "53", "1");
    await t.fill("TSLA", "sell", "50", "20");
    await t.fill("TSLA", "buy", "50", "21");
    await t.fill("IBM", "buy", "1", "200");
    await t.fill("IBM", "sell", "1", "201");
    await t.plan((await t.trade("AAPL")).id, { stopPrice: "48" });
    await t.plan((await t.trade("TSLA")).id, { stopPrice: "21.5" });
    const q = `accountId=${t.accountId}`;
    const summary = await (await t.client.get(`/api/stats/summary?${q}`)).json();
    // R: 298/200 = 1.49, -50/75 = -0.6667: total 0.8233 -> 0.82; expectancy 0.41; best 1.49; worst -0.67.
    expect(summary.r).toEqual({ trades: 3, withRisk: 2, total: "0.82", expectancy: "0.41", averageWin: "1.49", averageLoss: "-0.67", best: "1.49", worst: "-0.67" });
    const days = (await (await t.client.get(`/api/stats/calendar?${q}`)).json()).days;
    expect(days).toEqual([{ date: "2026-03-02", netPnl: "249.00", trades: 3, rTotal: "0.82", withRisk: 2 }]);
    const points = (await (await t.client.get(`/api/stats/equity?${q}&bucket=day`)).json()).points;
    expect(points).toEqual([{ start: "2026-03-02", netPnl: "249.00", equity: "249.00", trades: 3, rTotal: "0.82", withRisk: 2, rEquity: "0.82" }]);
    const groups = (await (await t.client.get(`/api/stats/breakdown?${q}&by=symbol`)).json()).groups;
    expect(groups.map((g: Record<string, unknown>) => [g.key, g.rTotal, g.withRisk])).toEqual([
      ["AAPL", "1.49", 1],
      ["IBM", null, 0],
      ["TSLA", "-0.67", 1],
    ]);
    const dist = await (await t.client.get(`/api/stats/r-distribution?${q}`)).json();
    expect(dist).toMatchObject({ currency: "USD", trades: 3, withRisk: 2 });
    expect(dist.buckets).toHaveLength(18);
    expect(dist.buckets[0]).toEqual({ from: null, to: "-3.00", trades: 0 });
    expect(dist.buckets[17]).toEqual({ from: "5.00", to: null, trades: 0 });
    expect(dist.buckets.filter((b: { trades: number }) => b.trades > 0)).toEqual([
      { from: "-1.00", to: "-0.50", trades: 1 },
      { from: "1.00", to: "1.50", trades: 1 },
    ]);
    // With no trade risked the figures are null, not zero.
    const fresh = await trader();
    expect((await (await fresh.client.get(`/api/stats/summary?accountId=${fresh.accountId}`)).json()).r).toEqual({
      trades: 0, withRisk: 0, total: null, expectancy: null, averageWin: null, averageLoss: null, best: null, worst: null,
    });
  });

  it("one R total: the curve's end is the summary's total, the buckets summed before rounding (a third of an R three days running is 1.00, not 0.99)", async () => {
    const t = await trader();
    for (const day of [2, 3, 4]) {
      for (const [side, price, hour] of [["buy", "100", 14], ["sell", "101", 15]] as const) {
        const r = await t.client.post("/api/fills", { accountId: t.accountId, symbol: "MSFT", side, quantity: "10", price, fees: "0", executedAt: new Date(Date.UTC(2026, 2, day, hour)).toISOString() });
        expect(r.status).toBe(201);
      }
    }
    const { trades } = await (await t.client.get(`/api/trades?accountId=${t.accountId}`)).json();
    expect(trades).toHaveLength(3);
    for (const tr of trades as Array<{ id: string }>) await t.plan(tr.id, { plannedRisk: "30" });
    const q = `accountId=${t.accountId}`;
    const summary = await (await t.client.get(`/api/stats/summary?${q}`)).json();
    expect(summary.r.total).toBe("1.00");
    const points = (await (await t.client.get(`/api/stats/equity?${q}&bucket=day`)).json()).points as Array<{ rTotal: string; rEquity: string }>;
    expect(points.map((p) => p.rTotal)).toEqual(["0.33", "0.33", "0.33"]);
    expect(points.map((p) => p.rEquity)).toEqual(["0.33", "0.67", "1.00"]);
    const weeks = (await (await t.client.get(`/api/stats/equity?${q}&bucket=week`)).json()).points as Array<{ rEquity: string }>;
    expect(weeks.at(-1)!.rEquity).toBe("1.00");
  });
});
