// Trading rules (docs/discipline.md, "Trading rules"): each rule type against hand-made days on a New York
// account, broken and kept, at its threshold and one step past it, at the time zone's day boundary; the
// compliance score by weight; the report's per-rule counts and cost, compliant trades against the others,
// day scores and streaks. Rules are scored after the fact: a fill is never refused. On the real Postgres.
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";

const url = () => inject("databaseUrl");

async function trader() {
  const j = await journal(url());
  const { client } = await j.signUp("rules");
  const res = await client.post("/api/accounts", { name: `Rules ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "America/New_York" });
  expect(res.status).toBe(201);
  const accountId = (await res.json()).id as string;
  const rule = async (rule: Record<string, unknown>, weight = "important") => {
    const r = await client.post("/api/rules", { accountId, rule, weight });
    expect(r.status, await r.clone().text()).toBe(201);
    return (await r.json()) as { id: string; label: string };
  };
  let trips = 0;
  /** A round trip of 10 shares, opened and closed at New York wall times ("2026-11-23 10:00"). */
  const trip = async (open: string, close: string | null, buy: string, sell: string, plan: Record<string, string> = {}) => {
    const at = (wall: string) => `${wall.replace(" ", "T")}:00-05:00`;
    // A symbol of its own per trip (letters only): T, then the trip's number in letters.
    const symbol = `T${String(++trips).replace(/\d/g, (d) => "ABCDEFGHIJ"[Number(d)]!)}`;
    const a = await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "10", price: buy, fees: "0", executedAt: at(open) });
    expect(a.status, await a.clone().text()).toBe(201);
    if (close) expect((await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: "10", price: sell, fees: "0", executedAt: at(close) })).status).toBe(201);
    const { trades } = await (await client.get(`/api/trades?accountId=${accountId}&symbol=${symbol}`)).json();
    const id = trades[0].id as string;
    if (Object.keys(plan).length) expect((await client.request(`/api/trades/${id}`, { method: "PATCH", json: plan })).status).toBe(200);
    return id;
  };
  const broken = async (tradeId: string) => {
    const body = await (await client.get(`/api/trades/${tradeId}`)).json();
    return (body.compliance?.broken ?? []).map((b: { label: string }) => b.label) as string[];
  };
  const report = async (query = "") => {
    const res = await client.get(`/api/rules/compliance?accountId=${accountId}${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  };
  return { ...j, client, accountId, rule, trip, broken, report };
}

describe("each rule type", () => {
  it("max daily loss: a trade opened after the day's closed trades lost the amount breaks it; the next New York day starts afresh", async () => {
    const t = await trader();
    const { label } = await t.rule({ type: "max_daily_loss", amount: "100" });
    expect(label).toBe("Max daily loss: 100.00 USD");
    const loss = await t.trip("2026-11-23 10:00", "2026-11-23 10:30", "50", "40"); // -100: the limit reached
    const after = await t.trip("2026-11-23 10:45", "2026-11-23 11:00", "50", "51");
    const before = await t.trip("2026-11-23 10:15", "2026-11-23 11:30", "50", "51"); // opened before the loss closed
    // 23:50 New York on the 24th loses 100; 00:10 on the 25th is another day.
    await t.trip("2026-11-24 23:40", "2026-11-24 23:50", "50", "40");
    const nextDay = await t.trip("2026-11-25 00:10", "2026-11-25 00:20", "50", "51");
    expect(await t.broken(loss)).toEqual([]);
    expect(await t.broken(after)).toEqual([label]);
    expect(await t.broken(before)).toEqual([]);
    expect(await t.broken(nextDay)).toEqual([]);
    const r = await t.report();
    // The 23rd broke it (a trade after the limit), the 24th too (its trades lost 100), the 25th did not.
    expect(r.days.map((d: { day: string; broken: string[] }) => [d.day, d.broken.length])).toEqual([["2026-11-23", 1], ["2026-11-24", 1], ["2026-11-25", 0]]);
  });

  it("max loss per trade, in money (a loss of exactly the amount keeps it, a cent more breaks it) and in R", async () => {
    const t = await trader();
    const money = await t.rule({ type: "max_loss_per_trade", amount: "100" });
    const atLimit = await t.trip("2026-11-23 10:00", "2026-11-23 10:30", "50", "40");
    const past = await t.trip("2026-11-23 11:00", "2026-11-23 11:30", "50", "39.999");
    expect(await t.broken(atLimit)).toEqual([]);
    expect(await t.broken(past)).toEqual([money.label]);
    const inR = await t.rule({ type: "max_loss_per_trade", r: "1" });
    // A stop 5 under the entry: 1R = 50. Losing 60 is past 1R; losing 50 is not; without a stop, no R.
    const big = await t.trip("2026-11-24 10:00", "2026-11-24 10:30", "50", "44", { stopPrice: "45" });
    const oneR = await t.trip("2026-11-24 11:00", "2026-11-24 11:30", "50", "45", { stopPrice: "45" });
    const noPlan = await t.trip("2026-11-24 12:00", "2026-11-24 12:30", "50", "44");
    expect(await t.broken(big)).toEqual([inR.label]);
    expect(await t.broken(oneR)).toEqual([]);
    expect(await t.broken(noPlan)).toEqual([]);
    expect(inR.label).toBe("Max loss per trade: 1.00 R");
  });

  it("max trades per day: the trade past the count breaks it; 23:59 New York counts in its own day", async () => {
    const t = await trader();
    const { label } = await t.rule({ type: "max_trades_per_day", count: 2 });
    const late = await t.trip("2026-11-23 23:59", "2026-11-24 00:05", "50", "51");
    const a = await t.trip("2026-11-24 09:31", "2026-11-24 09:40", "50", "51");
    const b = await t.trip("2026-11-24 09:45", "2026-11-24 09:50", "50", "51");
    const c = await t.trip("2026-11-24 10:00", "2026-11-24 10:05", "50", "51");
    expect([await t.broken(late), await t.broken(a), await t.broken(b), await t.broken(c)]).toEqual([[], [], [], [label]]);
  });

  it("max risk per trade and min planned R:R read the plan; a trade without one keeps them", async () => {
    const t = await trader();
    const risk = await t.rule({ type: "max_risk_per_trade", amount: "200" });
    const rr = await t.rule({ type: "min_planned_rr", ratio: "2" });
    // Entry 50, stop 45, 10 shares: 1R = 50. Target 57.5: 1.5 R planned; target 60: 2 R.
    const short = await t.trip("2026-11-23 10:00", "2026-11-23 10:30", "50", "51", { stopPrice: "45", targetPrice: "57.5" });
    const enough = await t.trip("2026-11-23 11:00", "2026-11-23 11:30", "50", "51", { stopPrice: "45", targetPrice: "60" });
    const tooRisky = await t.trip("2026-11-23 12:00", "2026-11-23 12:30", "50", "51", { plannedRisk: "200.01" });
    const atRisk = await t.trip("2026-11-23 13:00", "2026-11-23 13:30", "50", "51", { plannedRisk: "200" });
    const none = await t.trip("2026-11-23 14:00", "2026-11-23 14:30", "50", "51");
    expect(await t.broken(short)).toEqual([rr.label]);
    expect(await t.broken(enough)).toEqual([]);
    expect(await t.broken(tooRisky)).toEqual([risk.label]);
    expect(await t.broken(atRisk)).toEqual([]);
    expect(await t.broken(none)).toEqual([]);
  });

  it("weekdays off and trading hours, on the account's clock", async () => {
    const t = await trader();
    const friday = await t.rule({ type: "no_trading_weekdays", weekdays: [5] });
    const hours = await t.rule({ type: "trading_hours", from: "09:30", to: "11:30" });
    expect(friday.label).toBe("No trading on Friday");
    // Friday 2026-11-27 in New York; Thursday 23:30 New York is already Friday in UTC.
    const onFriday = await t.trip("2026-11-27 10:00", "2026-11-27 10:10", "50", "51");
    const thursdayNight = await t.trip("2026-11-26 23:30", "2026-11-26 23:40", "50", "51");
    expect(await t.broken(onFriday)).toEqual([friday.label]);
    expect(await t.broken(thursdayNight)).toEqual([hours.label]);
    const opens = ["09:29", "09:30", "11:29", "11:30"];
    const ids = [];
    for (const o of opens) ids.push(await t.trip(`2026-11-24 ${o}`, "2026-11-24 12:00", "50", "51"));
    expect(await Promise.all(ids.map(t.broken))).toEqual([[hours.label], [], [], [hours.label]]);
  });

  it("cooldown after a loss: a trade 14 minutes after a losing close breaks it, 15 minutes after keeps it; a winner sets no cooldown", async () => {
    const t = await trader();
    const { label } = await t.rule({ type: "cooldown_after_loss", minutes: 15 });
    await t.trip("2026-11-23 09:40", "2026-11-23 10:00", "50", "49");
    const soon = await t.trip("2026-11-23 10:14", "2026-11-23 10:20", "50", "51");
    const later = await t.trip("2026-11-23 10:35", "2026-11-23 10:40", "50", "51");
    await t.trip("2026-11-24 09:40", "2026-11-24 10:00", "50", "49");
    const atFifteen = await t.trip("2026-11-24 10:15", "2026-11-24 10:20", "50", "51");
    // After a winner closed at 10:20, a trade at 10:21 is fine.
    const afterWin = await t.trip("2026-11-24 10:21", "2026-11-24 10:30", "50", "51");
    expect([await t.broken(soon), await t.broken(later), await t.broken(atFifteen), await t.broken(afterWin)]).toEqual([[label], [], [], []]);
  });

  it("refuses a rule with bad parameters, naming the field, and stores nothing; another user's account is not found", async () => {
    const t = await trader();
    for (const [rule, path] of [
      [{ type: "max_daily_loss", amount: "-5" }, "rule.amount"],
      [{ type: "max_loss_per_trade", amount: "5", r: "1" }, "rule.amount"],
      [{ type: "trading_hours", from: "11:30", to: "09:30" }, "rule.to"],
      [{ type: "no_trading_weekdays", weekdays: [1, 2, 3, 4, 5, 6, 7] }, "rule.weekdays"],
      [{ type: "cooldown_after_loss", minutes: 0 }, "rule.minutes"],
      [{ type: "max_drawdown" }, "rule.type"],
    ] as const) {
      const res = await t.client.post("/api/rules", { accountId: t.accountId, rule });
      expect(res.status, JSON.stringify(rule)).toBe(400);
      expect((await res.json()).error.fields.map((f: { path: string }) => f.path), JSON.stringify(rule)).toContain(path);
    }
    expect((await (await t.client.get(`/api/rules?accountId=${t.accountId}`)).json()).rules).toEqual([]);
    const other = await trader();
    expect((await other.client.post("/api/rules", { accountId: t.accountId, rule: { type: "max_trades_per_day", count: 3 } })).status).toBe(404);
    expect((await other.client.get(`/api/rules/compliance?accountId=${t.accountId}`)).status).toBe(404);
  });
});

describe("the compliance report", () => {
  it("scores by weight, splits compliant trades from the others, counts what each rule cost, and the streak of clean days", async () => {
    const t = await trader();
    const hours = await t.rule({ type: "trading_hours", from: "09:30", to: "16:00" }, "critical");
    const count = await t.rule({ type: "max_trades_per_day", count: 1 }, "nice");
    // Mon: clean (+10). Tue: a second trade (nice broken, -20): score 75. Wed: clean (+10). Thu: 08:00 (critical, +30): 25. Fri: clean (+10).
    await t.trip("2026-11-23 10:00", "2026-11-23 10:30", "50", "51");
    await t.trip("2026-11-24 10:00", "2026-11-24 10:30", "50", "51");
    const second = await t.trip("2026-11-24 11:00", "2026-11-24 11:30", "50", "48");
    await t.trip("2026-11-25 10:00", "2026-11-25 10:30", "50", "51");
    const early = await t.trip("2026-11-26 08:00", "2026-11-26 10:30", "50", "53");
    await t.trip("2026-11-27 10:00", "2026-11-27 10:30", "50", "51");
    expect((await (await t.client.get(`/api/trades/${second}`)).json()).compliance).toEqual({ score: 75, rules: 2, broken: [{ ruleId: count.id, label: count.label, weight: "nice" }] });
    expect((await (await t.client.get(`/api/trades/${early}`)).json()).compliance.score).toBe(25);

    const r = await t.report();
    expect(r.days.map((d: { day: string; score: number }) => [d.day, d.score])).toEqual([
      ["2026-11-23", 100],
      ["2026-11-24", 75],
      ["2026-11-25", 100],
      ["2026-11-26", 25],
      ["2026-11-27", 100],
    ]);
    expect(r.score).toBe(80);
    expect(r.streak).toEqual({ current: 1, best: 1 });
    expect(r.trades.compliant).toEqual({ trades: 4, wins: 4, netPnl: "40.00", winRate: "1.0000", expectancy: "10.00" });
    expect(r.trades.broken).toEqual({ trades: 2, wins: 1, netPnl: "10.00", winRate: "0.5000", expectancy: "5.00" });
    const byId = Object.fromEntries(r.rules.map((x: { id: string }) => [x.id, x]));
    expect(byId[hours.id]).toMatchObject({ brokenTrades: 1, brokenDays: 1, brokenNetPnl: "30.00", weight: "critical" });
    expect(byId[count.id]).toMatchObject({ brokenTrades: 1, brokenDays: 1, brokenNetPnl: "-20.00", weight: "nice" });

    // The statistics' breakdown by rules: the same split, on the realised P&L; an account must be named.
    const split = await (await t.client.get(`/api/stats/breakdown?accountId=${t.accountId}&by=rules`)).json();
    expect(split.groups.map((g: { key: string; trades: number; netPnl: string }) => [g.key, g.trades, g.netPnl])).toEqual([
      ["Broke a rule", 2, "10.00"],
      ["Kept every rule", 4, "40.00"],
    ]);
    const noAccount = await t.client.get("/api/stats/breakdown?by=rules");
    expect(noAccount.status).toBe(400);
    expect((await noAccount.json()).error.fields).toEqual([{ path: "accountId", message: "is required to group by rules" }]);

    // A period: Wednesday to Friday. Turning the hours rule off rescores the history: Thursday is clean.
    expect((await t.report("&from=2026-11-25&to=2026-11-27")).days.map((d: { day: string }) => d.day)).toEqual(["2026-11-25", "2026-11-26", "2026-11-27"]);
    expect((await t.client.request(`/api/rules/${hours.id}`, { method: "PATCH", json: { enabled: false } })).status).toBe(200);
    const after = await t.report();
    expect(after.streak).toEqual({ current: 3, best: 3 });
    expect((await (await t.client.get(`/api/trades/${early}`)).json()).compliance).toEqual({ score: 100, rules: 1, broken: [] });
    // No rule on: no compliance.
    expect((await t.client.request(`/api/rules/${count.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await (await t.client.get(`/api/trades/${early}`)).json()).compliance).toBeNull();
  });
});
