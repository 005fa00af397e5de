// Behaviour findings (docs/discipline.md, "Insights"): each detector on hand-made sequences of a New York
// account: found, and not found one step past its threshold. On the real Postgres.
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";

const url = () => inject("databaseUrl");

async function trader() {
  const j = await journal(url());
  const { client } = await j.signUp("insights");
  const res = await client.post("/api/accounts", { name: `Insights ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "America/New_York" });
  const accountId = (await res.json()).id as string;
  let n = 0;
  /** A long round trip of `qty` shares at New York wall times. */
  const trip = async (open: string, close: string, qty: string, buy: string, sell: string, symbolGiven?: string) => {
    const at = (wall: string) => `${wall.replace(" ", "T")}:00-05:00`;
    const symbol = symbolGiven ?? `S${String(++n).padStart(3, "0")}`.replace(/\d/g, (d) => "ABCDEFGHIJ"[Number(d)]!);
    expect((await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: qty, price: buy, fees: "0", executedAt: at(open) })).status).toBe(201);
    expect((await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: qty, price: sell, fees: "0", executedAt: at(close) })).status).toBe(201);
    return ((await (await client.get(`/api/trades?accountId=${accountId}&symbol=${symbol}`)).json()).trades[0].id) as string;
  };
  const find = async (kind: string, query = "") => {
    const res = await client.get(`/api/insights?accountId=${accountId}${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()).findings as Array<{ kind: string; found: boolean; count: number; netPnl: string; trades: Array<{ id: string; afterLoss?: string }> } & Record<string, unknown>>).find((f) => f.kind === kind)!;
  };
  const plan = async (id: string, plannedRisk: string) =>
    expect((await client.request(`/api/trades/${id}`, { method: "PATCH", json: { plannedRisk } })).status).toBe(200);
  return { client, accountId, trip, find, plan };
}

describe("behaviour findings", () => {
  it("revenge: a larger trade 30 minutes after a loss is found; 31 minutes after, or no larger, is not", async () => {
    const t = await trader();
    const loss = await t.trip("2026-11-23 09:40", "2026-11-23 10:00", "10", "50", "49");
    const revenge = await t.trip("2026-11-23 10:30", "2026-11-23 10:40", "20", "50", "48");
    await t.trip("2026-11-24 09:40", "2026-11-24 10:00", "10", "50", "49");
    await t.trip("2026-11-24 10:31", "2026-11-24 10:40", "20", "50", "51"); // a minute past the window
    await t.trip("2026-11-25 09:40", "2026-11-25 10:00", "10", "50", "49");
    await t.trip("2026-11-25 10:05", "2026-11-25 10:40", "10", "50", "51"); // soon, but not larger
    const f = await t.find("revenge");
    expect(f).toMatchObject({ found: true, count: 1, netPnl: "-40.00" });
    expect(f.trades).toEqual([expect.objectContaining({ id: revenge, afterLoss: loss, netPnl: "-40.00" })]);
    // A window the trader sets: 31 minutes finds the second day too.
    expect((await t.find("revenge", "&revengeMinutes=31")).count).toBe(2);
    expect((await t.client.get(`/api/insights?accountId=${t.accountId}&revengeMinutes=0`)).status).toBe(400);
  });

  it("overtrading: a day with more trades than the account's 90th percentile is found, once there are 10 trading days", async () => {
    const t = await trader();
    for (let d = 2; d <= 10; d++) {
      const day = `2026-11-${String(d).padStart(2, "0")}`;
      await t.trip(`${day} 10:00`, `${day} 10:10`, "10", "50", "51");
      await t.trip(`${day} 11:00`, `${day} 11:10`, "10", "50", "51");
    }
    const busy = [];
    for (const h of ["09:35", "10:00", "10:30", "11:00", "11:30"]) busy.push(await t.trip(`2026-11-11 ${h}`, `2026-11-11 ${h.replace(/:(\d)/, ":4")}`, "10", "50", "49"));
    // Ten trading days: nine of 2 trades, one of 5. The 90th percentile is 2: the busy day is found.
    const f = await t.find("overtrading");
    expect(f).toMatchObject({ found: true, count: 5, netPnl: "-50.00", days: [{ day: "2026-11-11", trades: 5 }] });
    expect(f.trades.map((x) => x.id).sort()).toEqual([...busy].sort());
    // The same record with a day fewer has no percentile yet.
    const short = await trader();
    for (let d = 2; d <= 9; d++) await short.trip(`2026-11-${String(d).padStart(2, "0")} 10:00`, `2026-11-${String(d).padStart(2, "0")} 10:10`, "10", "50", "51");
    for (const h of ["09:35", "10:00", "10:30"]) await short.trip(`2026-11-11 ${h}`, `2026-11-11 ${h.replace(/:(\d)/, ":4")}`, "10", "50", "49");
    expect(await short.find("overtrading")).toMatchObject({ found: false, count: 0 });
  });

  it("size-up after a loss: the next trade at 1.5 times the loss's size is found; at 1.48 times, or not the next, it is not", async () => {
    const t = await trader();
    const loss = await t.trip("2026-11-23 09:40", "2026-11-23 10:00", "100", "50", "49"); // size 5000
    const up = await t.trip("2026-11-23 13:00", "2026-11-23 13:10", "150", "50", "51"); // 7500: 1.5x
    await t.trip("2026-11-24 09:40", "2026-11-24 10:00", "100", "50", "49");
    await t.trip("2026-11-24 13:00", "2026-11-24 13:10", "148", "50", "51"); // 1.48x
    await t.trip("2026-11-25 09:40", "2026-11-25 10:00", "100", "50", "49");
    await t.trip("2026-11-25 11:00", "2026-11-25 11:10", "100", "50", "51");
    await t.trip("2026-11-25 13:00", "2026-11-25 13:10", "200", "50", "51"); // larger, but not the next trade
    const f = await t.find("size_up_after_loss");
    expect(f).toMatchObject({ found: true, count: 1, netPnl: "150.00" });
    expect(f.trades).toEqual([expect.objectContaining({ id: up, afterLoss: loss })]);
  });

  it("size-up after a loss, futures and risk: contracts x multiplier, never notional; both trades risked, their 1Rs", async () => {
    // One ES contract lost at 4000, then one at 6100: 1.525 times the notional, the same size. Not a size-up.
    const t = await trader();
    await t.trip("2026-11-23 09:40", "2026-11-23 10:00", "1", "4000", "3990", "ESZ26");
    await t.trip("2026-11-23 13:00", "2026-11-23 13:10", "1", "6100", "6105", "ESZ26");
    expect(await t.find("size_up_after_loss")).toMatchObject({ found: false, count: 0 });
    // Two contracts after a one-contract loss is; two micros (a tenth each) after it is not.
    const up = await t.trip("2026-11-24 09:40", "2026-11-24 10:00", "1", "6100", "6090", "ESZ26");
    const two = await t.trip("2026-11-24 13:00", "2026-11-24 13:10", "2", "6100", "6105", "ESZ26");
    expect((await t.find("size_up_after_loss")).trades).toEqual([expect.objectContaining({ id: two, afterLoss: up })]);
    await t.trip("2026-11-25 09:40", "2026-11-25 10:00", "1", "6100", "6090", "ESZ26");
    await t.trip("2026-11-25 13:00", "2026-11-25 13:10", "2", "6100", "6105", "MESZ26");
    expect((await t.find("size_up_after_loss")).count).toBe(1);

    // Both risked: their 1Rs decide. Twice the shares on the same planned risk (a tighter stop) is no size-up;
    // the same shares on twice the risk is.
    const r = await trader();
    const lossA = await r.trip("2026-11-23 09:40", "2026-11-23 10:00", "100", "50", "49");
    const tighter = await r.trip("2026-11-23 13:00", "2026-11-23 13:10", "200", "50", "51");
    await r.plan(lossA, "100");
    await r.plan(tighter, "100");
    expect((await r.find("size_up_after_loss")).count).toBe(0);
    const lossB = await r.trip("2026-11-24 09:40", "2026-11-24 10:00", "100", "50", "49");
    const riskier = await r.trip("2026-11-24 13:00", "2026-11-24 13:10", "100", "50", "51");
    await r.plan(lossB, "100");
    await r.plan(riskier, "200");
    expect((await r.find("size_up_after_loss")).trades).toEqual([expect.objectContaining({ id: riskier, afterLoss: lossB })]);
  });

  it("losers held longer than winners: found with five of each, citing the losers held past the average winner; not with four losers", async () => {
    const t = await trader();
    for (let d = 2; d <= 6; d++) await t.trip(`2026-11-0${d} 10:00`, `2026-11-0${d} 10:10`, "10", "50", "51"); // winners: 10 minutes
    const losers = [];
    for (let d = 2; d <= 5; d++) losers.push(await t.trip(`2026-11-0${d} 11:00`, `2026-11-0${d} 11:30`, "10", "50", "49")); // 30 minutes
    expect(await t.find("losers_held_longer")).toMatchObject({ found: false, count: 0, averageWinnerMinutes: 10, averageLoserMinutes: 30 });
    losers.push(await t.trip("2026-11-06 11:00", "2026-11-06 11:05", "10", "50", "49")); // a quick loser: not cited
    const f = await t.find("losers_held_longer");
    expect(f).toMatchObject({ found: true, count: 4, netPnl: "-40.00", averageWinnerMinutes: 10, averageLoserMinutes: 25, detail: "Losers held 25m on average, winners 10m." });
    expect(f.trades.map((x) => x.id).sort()).toEqual(losers.slice(0, 4).sort());
  });
});
