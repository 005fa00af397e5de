// The prop-firm engine (lib/prop/engine.ts, docs/prop-firms.md) against hand-computed floors on hand-written
// fills: every drawdown mode and daily-loss variant, the trading day from 17:00 Chicago across a daylight-saving
// change, a breach that recovers, consistency at its threshold and a cent past it.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { runEvaluation, tradingDay, type PropBar, type PropFill, type PropRules } from "../../lib/prop/engine.ts";
import { PROP_PRESETS } from "../../lib/prop/presets.ts";
import { CANONICAL_TIME_ZONES } from "../../lib/time/zones.ts";

const RULES: PropRules = {
  startingBalance: "50000",
  profitTarget: "3000",
  maxDrawdown: "2000",
  drawdownMode: "static",
  dailyLossLimit: null,
  dailyLossIncludesOpen: false,
  dayStartsAt: "17:00",
  dayZone: "America/Chicago",
  minTradingDays: 0,
  consistencyPct: null,
  maxContracts: null,
};
const NOW = new Date("2026-06-01T12:00:00Z");

let n = 0;
/** One fill of 1 contract of a 50x future. */
const fill = (at: string, side: "buy" | "sell", price: string, quantity = "1", multiplier = "50", fees = "0"): PropFill => ({
  id: `f${++n}`, at, symbol: "ESM6", side, quantity, price, fees, multiplier,
});
/** A round trip of one 1x unit making `pnl` (to the cent), bought at `at` and sold a minute later. */
const trip = (at: string, pnl: string): PropFill[] => {
  const sold = new Date(Date.parse(at) + 60_000).toISOString();
  return [fill(at, "buy", "1000", "1", "1"), fill(sold, "sell", (1000 + Number(pnl)).toFixed(2), "1", "1")];
};
const run = (rules: Partial<PropRules>, fills: PropFill[], bars: PropBar[] = [], now = NOW) => runEvaluation({ ...RULES, ...rules }, fills, bars, now);

describe("the trading day", () => {
  it("starts at 17:00 in Chicago on either side of the daylight-saving change (CST = UTC-6, CDT = UTC-5 from 2026-03-08)", () => {
    const day = (at: string) => tradingDay(Date.parse(at), "17:00", "America/Chicago");
    expect(day("2026-03-05T22:59:00Z")).toBe("2026-03-05"); // 16:59 CST
    expect(day("2026-03-05T23:00:00Z")).toBe("2026-03-06"); // 17:00 CST: the next day's session
    expect(day("2026-03-09T21:59:00Z")).toBe("2026-03-09"); // 16:59 CDT
    expect(day("2026-03-09T22:00:00Z")).toBe("2026-03-10"); // 17:00 CDT
    expect(day("2026-03-09T22:30:00Z")).toBe("2026-03-10"); // 16:30 in CST terms: wrong on a fixed offset
    expect(tradingDay(Date.parse("2026-03-09T23:30:00Z"), "00:00", "Europe/Prague")).toBe("2026-03-10");
    expect(tradingDay(Date.parse("2026-03-09T22:30:00Z"), "00:00", "Europe/Prague")).toBe("2026-03-09");
  });
});

describe("drawdown modes", () => {
  // Day 1 (Tue 3 March): +1,500 then -1,500 (a peak at 51,500 closing back at 50,000). Day 2: -750.
  const history = () => [
    fill("2026-03-03T15:00:00Z", "buy", "5000"),
    fill("2026-03-03T16:00:00Z", "sell", "5030"),
    fill("2026-03-03T17:00:00Z", "buy", "5030"),
    fill("2026-03-03T18:00:00Z", "sell", "5000"),
    fill("2026-03-04T15:00:00Z", "buy", "5000"),
    fill("2026-03-04T16:00:00Z", "sell", "4985"),
  ];

  it("static: the floor is the start less the drawdown, always", () => {
    const { status, days } = run({ drawdownMode: "static" }, history());
    expect(status).toMatchObject({ state: "active", balance: "49250.00", floor: "48000.00", distanceToFloor: "1250.00", tradingDays: 2 });
    expect(days.map((d) => [d.day, d.endBalance, d.floor])).toEqual([["2026-03-03", "50000.00", "48000.00"], ["2026-03-04", "49250.00", "48000.00"]]);
  });

  it("end-of-day trailing ignores the intraday peak: the day closed at 50,000, so the floor stays 48,000", () => {
    const { status } = run({ drawdownMode: "eod_trailing" }, history());
    expect(status).toMatchObject({ state: "active", floor: "48000.00", balance: "49250.00" });
  });

  it("end-of-day trailing follows the highest close: after a day closing at 51,000 the floor is 49,000", () => {
    const fills = [fill("2026-03-03T15:00:00Z", "buy", "5000"), fill("2026-03-03T16:00:00Z", "sell", "5020"), fill("2026-03-04T15:00:00Z", "buy", "5000"), fill("2026-03-04T16:00:00Z", "sell", "4960")];
    const { status, days } = run({ drawdownMode: "eod_trailing" }, fills);
    expect(days.map((d) => d.floor)).toEqual(["49000.00", "49000.00"]);
    // 51,000 - 2,000 = 49,000 reached on day 2's loss (balance 49,000): at the floor is breached.
    expect(status).toMatchObject({ state: "breached", breachRule: "max_drawdown", breachFillId: fills[3]!.id, breachedAt: "2026-03-04T16:00:00Z" });
  });

  it("intraday trailing follows the peak of 51,500 to a floor of 49,500: day 2's loss breaches it on its fill", () => {
    const fills = history();
    const { status } = run({ drawdownMode: "intraday_trailing" }, fills);
    expect(status).toMatchObject({ state: "breached", breachRule: "max_drawdown", breachFillId: fills[5]!.id, floor: "49500.00", balance: "49250.00", distanceToFloor: "-250.00" });
  });

  it("trailing then locked: the floor stops at the starting balance once it reaches it", () => {
    // +2,500 (peak 52,500: floor 50,500, past the start: locked at 50,000), then -2,400 and -200.
    const fills = [
      fill("2026-03-03T15:00:00Z", "buy", "5000"),
      fill("2026-03-03T16:00:00Z", "sell", "5050"),
      fill("2026-03-04T15:00:00Z", "buy", "5000"),
      fill("2026-03-04T16:00:00Z", "sell", "4952"),
      fill("2026-03-05T15:00:00Z", "buy", "5000"),
      fill("2026-03-05T16:00:00Z", "sell", "4996"),
    ];
    const locked = run({ drawdownMode: "trailing_lock" }, fills);
    expect(locked.days.map((d) => [d.endBalance, d.floor])).toEqual([["52500.00", "50000.00"], ["50100.00", "50000.00"], ["49900.00", "50000.00"]]);
    expect(locked.status).toMatchObject({ state: "breached", breachFillId: fills[5]!.id, floor: "50000.00" });
    // Without the lock the floor trails to 50,500 and the first loss breaches it.
    expect(run({ drawdownMode: "intraday_trailing" }, fills).status).toMatchObject({ state: "breached", breachFillId: fills[3]!.id, floor: "50500.00" });
  });

  it("stops trailing where the firm locks it: at the start after an end-of-day trail (Topstep), at the start + 100 intraday (Apex)", () => {
    // +2,500 on day 1 (close 52,500), +1,000 on day 2 (close 53,500).
    const fills = [...trip("2026-03-03T15:00:00Z", "2500"), ...trip("2026-03-04T15:00:00Z", "1000")];
    expect(run({ drawdownMode: "eod_trailing", floorLocksAt: "0" }, fills).days.map((d) => d.floor)).toEqual(["50000.00", "50000.00"]);
    expect(run({ drawdownMode: "eod_trailing" }, fills).days.map((d) => d.floor)).toEqual(["50500.00", "51500.00"]);
    expect(run({ drawdownMode: "intraday_trailing", floorLocksAt: "100" }, fills).status.floor).toBe("50100.00");
    expect(run({ drawdownMode: "trailing_lock" }, fills).status.floor).toBe("50000.00");
  });

  it("an open position's low from the bars breaches intraday, and the breach stands after the trade recovers", () => {
    // Long 1 at 5,000; a bar makes 5,010 high (equity 50,500: floor 48,500) and 4,965 low (equity 48,250:
    // under the floor its own high raised, above the 48,000 it started at).
    const fills = [fill("2026-03-03T15:00:00Z", "buy", "5000"), fill("2026-03-03T15:30:00Z", "sell", "5020")];
    const bars: PropBar[] = [{ at: "2026-03-03T15:10:00Z", symbol: "ESM6", high: "5010", low: "4965", close: "4990" }];
    const { status } = run({ drawdownMode: "intraday_trailing" }, fills, bars);
    expect(status).toMatchObject({ state: "breached", breachRule: "max_drawdown", breachFillId: null, breachedAt: "2026-03-03T15:10:00Z", balance: "51000.00" });
    // The end-of-day rule measures the balance only: no breach.
    expect(run({ drawdownMode: "eod_trailing" }, fills, bars).status.state).toBe("active");
  });
});

describe("daily loss", () => {
  it("counts from the day's starting balance, realised only or with open P&L, and a day that recovers is still breached", () => {
    // Realised -1,100 then +1,500 the same day: the limit of 1,000 was reached at -1,100.
    const fills = [...trip("2026-03-03T15:00:00Z", "-1100"), ...trip("2026-03-03T16:00:00Z", "1500")];
    const realised = run({ dailyLossLimit: "1000" }, fills);
    expect(realised.status).toMatchObject({ state: "breached", breachRule: "daily_loss", breachFillId: fills[1]!.id, balance: "50400.00" });
    expect(realised.days[0]).toMatchObject({ worstLoss: "1100.00", pnl: "400.00", breached: "daily_loss" });
    // Open P&L of -900 at a fill: counted only when the rules say so. Long 2 at 5,000 then a sale of 1 at 4,991 (-450 realised, -450 open).
    const open = [fill("2026-03-03T15:00:00Z", "buy", "5000", "2"), fill("2026-03-03T15:05:00Z", "sell", "4991"), fill("2026-03-03T15:10:00Z", "sell", "5010")];
    expect(run({ dailyLossLimit: "900", dailyLossIncludesOpen: true }, open).status).toMatchObject({ state: "breached", breachRule: "daily_loss", breachFillId: open[1]!.id });
    expect(run({ dailyLossLimit: "900", dailyLossIncludesOpen: false }, open).status).toMatchObject({ state: "active", balance: "50050.00" });
  });

  it("splits the days at 17:00 Chicago after the change to daylight time: two losses of 600 either side of 22:00 UTC are two days", () => {
    const fills = [...trip("2026-03-09T21:30:00Z", "-600"), ...trip("2026-03-09T22:30:00Z", "-600")];
    const { status, days } = run({ dailyLossLimit: "1000" }, fills);
    expect(days.map((d) => [d.day, d.pnl])).toEqual([["2026-03-09", "-600.00"], ["2026-03-10", "-600.00"]]);
    expect(status.state).toBe("active");
  });

  it("measures from the higher of the day's starting balance and equity when the firm does (The5ers): an open profit carried in is room to lose", () => {
    // Day 1: long 2 at 5,000, one sold at 5,040 (+2,000; the other +2,000 open at 5,040). Day 2 starts at a
    // balance of 52,000 and an equity of 54,000; the other is sold at 5,015 (+750): balance 52,750.
    const fills = [fill("2026-03-03T15:00:00Z", "buy", "5000", "2"), fill("2026-03-03T16:00:00Z", "sell", "5040"), fill("2026-03-04T15:00:00Z", "sell", "5015")];
    expect(run({ dailyLossLimit: "1000", dailyLossIncludesOpen: true }, fills).status).toMatchObject({ state: "active", balance: "52750.00" });
    const higher = run({ dailyLossLimit: "1000", dailyLossIncludesOpen: true, dailyLossFrom: "higher_of_balance_and_equity" }, fills);
    expect(higher.status).toMatchObject({ state: "breached", breachRule: "daily_loss", breachFillId: fills[2]!.id });
    expect(higher.days[1]).toMatchObject({ startBalance: "52000.00", worstLoss: "1250.00" });
  });

  it("uses today's loss for dailyLossUsed until the next trading day begins", () => {
    const fills = trip("2026-03-09T15:00:00Z", "-300");
    expect(run({ dailyLossLimit: "1000" }, fills, [], new Date("2026-03-09T20:00:00Z")).status.dailyLossUsed).toBe("300.00");
    expect(run({ dailyLossLimit: "1000" }, fills, [], new Date("2026-03-09T22:00:00Z")).status.dailyLossUsed).toBe("0.00");
  });
});

describe("passing", () => {
  it("passes at the target with the trading days and the best day within the consistency share; a cent past it does not", () => {
    const rules = { minTradingDays: 3, consistencyPct: 40 };
    // 1,200 + 1,000 + 800 = 3,000: the best day is 40% exactly.
    const at = (d: number) => `2026-03-0${d}T15:00:00Z`;
    const exact = run(rules, [...trip(at(3), "1200"), ...trip(at(4), "1000"), ...trip(at(5), "800")]);
    expect(exact.status).toMatchObject({ state: "passed", profitToTarget: "0.00", tradingDays: 3, bestDayPct: "40.00", consistencyOk: true });
    // 1,200.01 of 3,000.01 is 40.0001%.
    const past = run(rules, [...trip(at(3), "1200.01"), ...trip(at(4), "1000"), ...trip(at(5), "800")]);
    expect(past.status).toMatchObject({ state: "active", consistencyOk: false, bestDayPct: "40.00" });
    // Two days are too few, whatever the profit.
    expect(run(rules, [...trip(at(3), "1500"), ...trip(at(4), "1500")]).status).toMatchObject({ state: "active", tradingDays: 2 });
    // A funded account has no target: never passed.
    expect(run({ profitTarget: null }, trip(at(3), "5000")).status).toMatchObject({ state: "active", profitToTarget: null });
  });

  it("matches lots first in, first out, and breaches on too many open contracts", () => {
    const fills = [fill("2026-03-03T15:00:00Z", "buy", "100", "1", "1"), fill("2026-03-03T15:01:00Z", "buy", "110", "1", "1"), fill("2026-03-03T15:02:00Z", "sell", "120", "1", "1")];
    // The first lot (100) is closed: +20; the one at 110 stays open.
    expect(run({}, fills).status.balance).toBe("50020.00");
    const three = [fill("2026-03-03T15:00:00Z", "buy", "5000", "3")];
    expect(run({ maxContracts: 2 }, three).status).toMatchObject({ state: "breached", breachRule: "max_contracts", breachFillId: three[0]!.id });
    expect(run({ maxContracts: 3 }, three).status.state).toBe("active");
  });
});

describe("the presets", () => {
  it("are ten firms or more, each checked on a date, with its sources, in a real zone, starting active at the start less the drawdown", () => {
    expect(new Set(PROP_PRESETS.map((p) => p.firm)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(PROP_PRESETS.map((p) => p.id)).size).toBe(PROP_PRESETS.length);
    for (const p of PROP_PRESETS) {
      expect(p.checkedOn, p.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.sources.length, p.id).toBeGreaterThan(0);
      for (const url of p.sources) expect(url, p.id).toMatch(/^https:\/\/[a-z0-9.-]+\//);
      expect(CANONICAL_TIME_ZONES.has(p.rules.dayZone), `${p.id} ${p.rules.dayZone}`).toBe(true);
      expect(p.rules.dayStartsAt, p.id).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      if (p.rules.dailyLossLimit !== null) expect(Number(p.rules.dailyLossLimit), p.id).toBeLessThan(Number(p.rules.maxDrawdown) + 1);
      const { status } = runEvaluation(p.rules, [], [], NOW);
      expect(status, p.id).toMatchObject({ state: "active", tradingDays: 0, breachRule: null });
      expect(Number(status.floor), p.id).toBe(Number(p.rules.startingBalance) - Number(p.rules.maxDrawdown));
    }
  });
});

describe("a run taken up where an earlier one stopped", () => {
  it("gives the same status and days as one run over every fill, whatever the split (property, every mode)", () => {
    const fillArb = fc.record({
      minutes: fc.integer({ min: 1, max: 900 }),
      side: fc.constantFrom("buy" as const, "sell" as const),
      quantity: fc.integer({ min: 1, max: 3 }),
      price: fc.integer({ min: 4900, max: 5100 }),
    });
    fc.assert(
      fc.property(
        fc.array(fillArb, { minLength: 1, maxLength: 60 }),
        fc.nat(),
        fc.constantFrom(...(["static", "eod_trailing", "intraday_trailing", "trailing_lock"] as const)),
        fc.boolean(),
        fc.constantFrom("balance" as const, "higher_of_balance_and_equity" as const),
        (steps, cut, drawdownMode, includesOpen, dailyLossFrom) => {
          let at = Date.parse("2026-03-06T20:00:00Z");
          const fills = steps.map((s, i) => {
            at += s.minutes * 60_000;
            return { id: `p${i}`, at: new Date(at).toISOString(), symbol: "ESM6", side: s.side, quantity: String(s.quantity), price: String(s.price), fees: "2.5", multiplier: "50" };
          });
          const rules = { drawdownMode, dailyLossLimit: "1500", dailyLossIncludesOpen: includesOpen, dailyLossFrom, maxContracts: 4, minTradingDays: 2, consistencyPct: 50 };
          const now = new Date(at + 3 * 86_400_000);
          const whole = run(rules, fills, [], now);
          const k = cut % (fills.length + 1);
          const first = runEvaluation({ ...RULES, ...rules }, fills.slice(0, k), [], new Date(Date.parse(fills[Math.max(0, k - 1)]!.at)));
          // Through JSON, as it is kept.
          const kept = JSON.parse(JSON.stringify(first.state));
          const resumed = runEvaluation({ ...RULES, ...rules }, fills.slice(k), [], now, kept);
          expect(resumed.status).toEqual(whole.status);
          expect(resumed.days).toEqual(whole.days);
          expect(resumed.passedOn).toEqual(whole.passedOn);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the firms' readings of the rules", () => {
  // One contract bought at 5,000; a bar whose low (4,957) puts it 2,150 down (equity 47,850, under the 48,000
  // floor); sold at 4,990 (-500 realised): the balance never comes near the floor.
  const dip = () => ({
    fills: [fill("2026-03-03T15:00:00Z", "buy", "5000"), fill("2026-03-03T16:00:00Z", "sell", "4990")],
    bars: [{ at: "2026-03-03T15:30:00Z", symbol: "ESM6", high: "5001", low: "4957", close: "4990" }],
  });

  it("measures a static floor on the balance by default, on the equity (open losses at the bar's low) with drawdownOn: equity", () => {
    const { fills, bars } = dip();
    expect(run({}, fills, bars).status).toMatchObject({ state: "active", balance: "49500.00", floor: "48000.00", distanceToFloor: "1500.00" });
    expect(run({ drawdownOn: "equity" }, fills, bars).status).toMatchObject({
      state: "breached", breachRule: "max_drawdown", breachedAt: "2026-03-03T15:30:00Z", breachFillId: null, balance: "49500.00",
    });
    // The end-of-day floor too (Earn2Trade's): the same dip breaches it only when measured on equity.
    expect(run({ drawdownMode: "eod_trailing" }, fills, bars).status.state).toBe("active");
    expect(run({ drawdownMode: "eod_trailing", drawdownOn: "equity" }, fills, bars).status.breachRule).toBe("max_drawdown");
  });

  it("a soft daily loss limit ends the day, not the account; a hard one breaches", () => {
    const fills = [...trip("2026-03-03T15:00:00Z", "-999.99"), ...trip("2026-03-03T16:00:00Z", "-0.01"), ...trip("2026-03-04T15:00:00Z", "200")];
    const hard = run({ dailyLossLimit: "1000" }, fills);
    expect(hard.status).toMatchObject({ state: "breached", breachRule: "daily_loss" });
    const soft = run({ dailyLossLimit: "1000", dailyLossSoft: true }, fills);
    expect(soft.status).toMatchObject({ state: "active", breachRule: null, balance: "49200.00" });
    expect(soft.days.map((d) => [d.day, d.limitHit ?? false, d.breached])).toEqual([
      ["2026-03-03", true, null],
      ["2026-03-04", false, null],
    ]);
    // A cent short of the limit: no day is marked.
    const short = run({ dailyLossLimit: "1000", dailyLossSoft: true }, trip("2026-03-03T15:00:00Z", "-999.99"));
    expect(short.days[0]!.limitHit).toBeUndefined();
  });

  it("with minDayProfitPct, a day counts toward the minimum only when it made that share of the start: at it counts, a cent under does not", () => {
    // 0.5% of 50,000 is 250.
    const fills = [
      ...trip("2026-03-02T15:00:00Z", "300"),
      ...trip("2026-03-03T15:00:00Z", "250"),
      ...trip("2026-03-04T15:00:00Z", "249.99"),
      ...trip("2026-03-05T15:00:00Z", "-50"),
    ];
    expect(run({}, fills).status.tradingDays).toBe(4);
    expect(run({ minDayProfitPct: 0.5 }, fills).status.tradingDays).toBe(2);
    // The pass waits for the profitable days: target 700 reached on the 4th with 3 days traded, but only 2 profitable.
    expect(run({ profitTarget: "700", minTradingDays: 3 }, fills).passedOn).toBe("2026-03-04");
    expect(run({ profitTarget: "700", minTradingDays: 3, minDayProfitPct: 0.5 }, fills).passedOn).toBeNull();
  });
});
