// Simulations and what-if through the API (issue 57, docs/simulations.md): the Monte Carlo of a trader's own R
// (seeded, the prop-firm attempts, every bad input a 400 naming its field), and the what-if on the real history:
// broke-rules against the trades list's rules=kept, the behaviour detectors, a weekday, a tag, and exits at the
// stop on hand-made bars against hand-computed P&L. Real Postgres, the real migrations.
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function json(res: Response, status = 200) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

/** A New York account risking 100 a trade by default, and its round trips. */
async function trader(tag: string) {
  const j = await journal(url());
  const { client } = await j.signUp(tag);
  const accountId = (await json(await client.post("/api/accounts", { name: `Sim ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" }), 201)).id as string;
  await json(await client.request(`/api/accounts/${accountId}`, { method: "PATCH", json: { defaultRisk: "100" } }));
  let n = 0;
  /** A long round trip of 100 shares from 50 at New York wall times: `sell` - 50 a share of P&L (no fees). */
  const trip = async (open: string, close: string, sell: string, options: { qty?: string; symbol?: string } = {}) => {
    const at = (wall: string) => `${wall.replace(" ", "T")}:00-05:00`;
    const symbol = options.symbol ?? `S${String(++n).padStart(3, "0")}`.replace(/\d/g, (d) => "ABCDEFGHIJ"[Number(d)]!);
    const qty = options.qty ?? "100";
    await json(await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: qty, price: "50", fees: "0", executedAt: at(open) }), 201);
    await json(await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: qty, price: sell, fees: "0", executedAt: at(close) }), 201);
    return (await json(await client.get(`/api/trades?accountId=${accountId}&symbol=${symbol}`))).trades[0].id as string;
  };
  return { j, client, accountId, trip };
}

/** 24 trades over 12 days (two a day): R multiples +2, -1, -1, +0.5, +1.5, -0.5, ... (net = R x 100). */
async function history(t: Awaited<ReturnType<typeof trader>>) {
  const sells = ["52", "49", "49", "50.5", "51.5", "49.5"];
  const ids: string[] = [];
  for (let i = 0; i < 24; i++) {
    const day = `2026-10-${String(5 + Math.floor(i / 2) + 2 * Math.floor(i / 10)).padStart(2, "0")}`;
    const hour = i % 2 ? "11" : "10";
    ids.push(await t.trip(`${day} ${hour}:00`, `${day} ${hour}:30`, sells[i % sells.length]!));
  }
  return ids;
}

const mc = (client: TestClient, body: Record<string, unknown>) => client.post("/api/simulations/monte-carlo", body);

describe("the Monte Carlo through the API", () => {
  it("resamples the period's own R: the same seed gives the same answer; the prop-firm attempts; another user's account is 404", async () => {
    const t = await trader("mc");
    await history(t);
    const body = { accountId: t.accountId, paths: 5000, trades: 200, riskPerTrade: "100", startingBalance: "10000", seed: 11, ruinAt: "8000", targetAt: "12000" };
    const first = await json(await mc(t.client, body));
    expect(first).toMatchObject({ sampled: 24, blockSize: 3, seed: 11, paths: 5000, trades: 200, riskPerTrade: "100.00", ruinAt: "8000.00", targetAt: "12000.00" });
    expect(await json(await mc(t.client, body))).toEqual(first);
    // The mean R is (2 - 1 - 1 + 0.5 + 1.5 - 0.5) / 6 = 0.25: over 200 trades the median path makes about 50 R.
    expect(Number(first.final.p50)).toBeGreaterThan(13_000);
    expect(Number(first.final.p50)).toBeLessThan(17_000);
    expect(Number(first.final.p5)).toBeLessThan(Number(first.final.p95));
    const [lo, hi] = first.ruinCi.map(Number);
    expect(lo).toBeLessThanOrEqual(Number(first.ruinProbability));
    expect(hi).toBeGreaterThanOrEqual(Number(first.ruinProbability));
    expect(first.fan).toHaveLength(101);
    expect(first.fan[0]).toMatchObject({ trade: 0, p50: "10000.00" });
    expect(first.sweep.levels.length).toBeGreaterThan(5);
    expect(first.assumptions.length).toBeGreaterThan(2);
    // No seed: one is chosen and returned, and gives the answer again.
    const unseeded = await json(await mc(t.client, { ...body, seed: undefined }));
    expect(await json(await mc(t.client, { ...body, seed: unseeded.seed }))).toEqual(unseeded);

    // The same paths as attempts at an evaluation: +3,000 with 2,000 of static drawdown.
    const rules = { startingBalance: "50000", profitTarget: "3000", maxDrawdown: "2000", drawdownMode: "static", dailyLossLimit: null, dailyLossIncludesOpen: false, dayStartsAt: "17:00", dayZone: "America/Chicago", minTradingDays: 5, consistencyPct: null, maxContracts: null };
    const prop = (await json(await mc(t.client, { ...body, startingBalance: "50000", ruinAt: undefined, targetAt: undefined, prop: { rules, evaluationFee: "100" } }))).prop;
    expect(prop.tradesPerDay).toBe(2);
    expect(Number(prop.passProbability) + Number(prop.breachProbability) + Number(prop.undecidedProbability)).toBeCloseTo(1, 3);
    expect(Number(prop.passProbability)).toBeGreaterThan(0.5);
    expect(Number(prop.expectedFeesUntilFunded)).toBeCloseTo(100 / Number(prop.passProbability), 1);

    // Without rules, the account's own evaluation's.
    await json(await t.client.request(`/api/accounts/${t.accountId}/evaluation`, { method: "PUT", json: { firm: "Own", phase: "evaluation", startDate: "2026-10-05", ...rules } }));
    const own = (await json(await mc(t.client, { ...body, startingBalance: "50000", ruinAt: undefined, targetAt: undefined, prop: {} }))).prop;
    expect(own).toMatchObject({ passProbability: prop.passProbability, breachProbability: prop.breachProbability, expectedFeesUntilFunded: null });

    const other = await trader("mc-other");
    expect((await mc(other.client, body)).status).toBe(404);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const t = await trader("mc-bad");
    await history(t);
    const good = { accountId: t.accountId, paths: 100, trades: 50, riskPerTrade: "100", startingBalance: "10000", seed: 1 };
    const field = async (body: Record<string, unknown>) => {
      const res = await json(await mc(t.client, body), 400);
      expect(res.error.code).toBe("VALIDATION_ERROR");
      return res.error.fields.map((f: { path: string }) => f.path);
    };
    expect(await field({ ...good, paths: 100_001 })).toEqual(["paths"]);
    expect(await field({ ...good, trades: 5_001 })).toEqual(["trades"]);
    expect(await field({ ...good, paths: 1.5 })).toEqual(["paths"]);
    expect(await field({ ...good, riskPerTrade: "-5" })).toEqual(["riskPerTrade"]);
    expect(await field({ ...good, riskPerTrade: 100 })).toEqual(["riskPerTrade"]);
    expect(await field({ ...good, ruinAt: "20000" })).toEqual(["ruinAt"]);
    expect(await field({ ...good, targetAt: "9000" })).toEqual(["targetAt"]);
    expect(await field({ ...good, blockSize: 51 })).toEqual(["blockSize"]);
    expect(await field({ ...good, seed: -1 })).toEqual(["seed"]);
    expect(await field({ ...good, surprise: true })).toHaveLength(1);
    // A period of 10 trades: too few to resample.
    expect(await field({ ...good, to: "2026-10-11T00:00:00Z" })).toEqual(["from"]);
    expect(await field({ ...good, accountId: undefined, prop: {} })).toEqual(["prop.rules"]);
    expect((await mc(t.client, { ...good, accountId: crypto.randomUUID() })).status).toBe(404);
    // An account without an evaluation, asked for its evaluation's rules.
    expect((await mc(t.client, { ...good, prop: {} })).status).toBe(404);
  });
});

describe("what-if on the real history", () => {
  const whatIf = async (client: TestClient, query: string, status = 200) => json(await client.get(`/api/stats/what-if?${query}`), status);

  it("without the trades that broke the rules equals the summary of the trades that kept them", async () => {
    const t = await trader("wi-rules");
    await history(t);
    // At most one trade a day: every day's second trade breaks it.
    await json(await t.client.post("/api/rules", { accountId: t.accountId, rule: { type: "max_trades_per_day", count: 1 } }), 201);
    const result = await whatIf(t.client, `accountId=${t.accountId}&exclude=broke-rules`);
    const { trades: kept } = await json(await t.client.get(`/api/trades?accountId=${t.accountId}&rules=kept&status=closed&pageSize=100`));
    const nets = kept.map((x: { netPnl: string }) => Number(x.netPnl));
    expect(result.removed).toBe(12);
    expect(nets.filter((v: number) => v < 0).length).toBeGreaterThan(0);
    expect(result.whatIf).toMatchObject({
      trades: kept.length,
      wins: nets.filter((v: number) => v > 0).length,
      losses: nets.filter((v: number) => v < 0).length,
      netPnl: nets.reduce((a: number, b: number) => a + b, 0).toFixed(2),
      largestWin: Math.max(...nets).toFixed(2),
      largestLoss: Math.min(...nets).toFixed(2),
    });
    // The actual side is the whole period, as the summary counts its closed trades.
    const summary = await json(await t.client.get(`/api/stats/summary?accountId=${t.accountId}`));
    for (const k of ["trades", "wins", "losses", "netPnl", "winRate", "profitFactor", "expectancy", "averageWin", "averageLoss", "largestWin", "largestLoss", "maxDrawdown"]) {
      expect(result.actual[k], k).toEqual(summary[k]);
    }
    expect(result.actual.r).toEqual(summary.r);
    expect(result.trades.every((x: { removedFor: string[] }) => x.removedFor.includes("broke-rules"))).toBe(true);
    expect(result.curves.at(-1)).toEqual({ date: "2026-10-20", actual: result.actual.netPnl, whatIf: result.whatIf.netPnl });
  });

  it("leaves out a weekday, a tag, a setup, the revenge trades; several at once", async () => {
    const t = await trader("wi-kinds");
    const ids = await history(t);
    // The Mondays 2026-10-05, 12 and 19: their six trades go with weekday:1.
    const monday = await whatIf(t.client, `accountId=${t.accountId}&exclude=weekday:1`);
    expect(monday.removed).toBe(6);
    await json(await t.client.request(`/api/trades/${ids[0]}`, { method: "PATCH", json: { tags: ["fomo"], setup: "Breakout" } }));
    await json(await t.client.request(`/api/trades/${ids[3]}`, { method: "PATCH", json: { tags: ["fomo", "late"] } }));
    expect((await whatIf(t.client, `accountId=${t.accountId}&exclude=tag:fomo`)).removed).toBe(2);
    expect((await whatIf(t.client, `accountId=${t.accountId}&exclude=setup:Breakout`)).whatIf.trades).toBe(23);
    const both = await whatIf(t.client, `accountId=${t.accountId}&exclude=tag:fomo,weekday:1`);
    expect(both.removed).toBe(7);
    expect(both.trades.find((x: { id: string }) => x.id === ids[0]).removedFor).toEqual(["tag:fomo", "weekday:1"]);
    // A loss at 10:00, then a bigger trade (1R of 300 against 100) at 10:20: revenge, as the insights find it.
    const loss = await t.trip("2026-11-02 09:40", "2026-11-02 10:00", "49");
    const revenge = await t.trip("2026-11-02 10:20", "2026-11-02 10:40", "48", { qty: "300" });
    await json(await t.client.request(`/api/trades/${revenge}`, { method: "PATCH", json: { plannedRisk: "300" } }));
    const insight = (await json(await t.client.get(`/api/insights?accountId=${t.accountId}`))).findings.find((f: { kind: string }) => f.kind === "revenge");
    const r = await whatIf(t.client, `accountId=${t.accountId}&exclude=revenge`);
    expect(r.removed).toBe(insight.count);
    expect(r.trades.map((x: { id: string }) => x.id)).toContain(revenge);
    expect(r.trades.map((x: { id: string }) => x.id)).not.toContain(loss);
    expect(Number(r.whatIf.netPnl)).toBe(Number(r.actual.netPnl) + 600);
  });

  it("replaces exits by the stop where the bars reached it, by hand-computed P&L", async () => {
    const t = await trader("wi-stop");
    // Long 100 from 50, out at 51 (+100); a stop at 49 the bars reached (low 48.9): at the stop, -100.
    const hit = await t.trip("2026-03-02 09:31", "2026-03-02 09:36", "51", { symbol: "HIT" });
    // Long 100 from 50, out at 49.5 (-50); a stop at 49 the bars never reached (low 49.2): unchanged.
    const missed = await t.trip("2026-03-02 09:31", "2026-03-02 09:36", "49.5", { symbol: "MISS" });
    // Short 100 from 50 (sold first), covered at 52 (-200); its stop at 51 reached (high 52.2): -100 at the stop.
    await json(await t.client.post("/api/fills", { accountId: t.accountId, symbol: "SHRT", side: "sell", quantity: "100", price: "50", fees: "1", executedAt: "2026-03-02T09:31:00-05:00" }), 201);
    await json(await t.client.post("/api/fills", { accountId: t.accountId, symbol: "SHRT", side: "buy", quantity: "100", price: "52", fees: "1", executedAt: "2026-03-02T09:36:00-05:00" }), 201);
    const short = (await json(await t.client.get(`/api/trades?accountId=${t.accountId}&symbol=SHRT`))).trades[0].id as string;
    for (const [id, stop] of [[hit, "49"], [missed, "49"], [short, "51"]] as const) {
      await json(await t.client.request(`/api/trades/${id}`, { method: "PATCH", json: { stopPrice: stop } }));
    }
    const upload = async (symbol: string, lows: string[], highs: string[]) => {
      const candles = ["time,open,high,low,close"];
      for (let m = 0; m < 6; m++) {
        const mid = ((Number(highs[m]) + Number(lows[m])) / 2).toFixed(3);
        candles.push(`2026-03-02T14:${String(31 + m).padStart(2, "0")}:00Z,${mid},${highs[m]},${lows[m]},${mid}`);
      }
      const form = new FormData();
      form.set("file", new Blob([candles.join("\n")]), `${symbol}.csv`);
      form.set("symbol", symbol);
      form.set("resolution", "1m");
      expect((await t.client.request("/api/bars/upload", { method: "POST", body: form })).status).toBe(201);
    };
    // The bar of the opening fill's minute adds nothing (the trade was flat at its start), nor the closing fill's.
    await upload("HIT", ["49.8", "49.5", "48.9", "49.6", "50.2", "50.8"], ["50.1", "50.2", "50.3", "50.5", "51.3", "51.1"]);
    await upload("MISS", ["49.8", "49.5", "49.2", "49.6", "49.4", "49.5"], ["50.1", "50.2", "50.3", "50.1", "49.9", "49.8"]);
    await upload("SHRT", ["49.8", "49.9", "50.1", "50.6", "51.2", "51.8"], ["50.2", "50.4", "50.9", "51.3", "52.2", "52.1"]);
    const result = await whatIf(t.client, `accountId=${t.accountId}&exit=stop`);
    expect(result).toMatchObject({ exit: "stop", removed: 0, changed: 2 });
    expect(result.actual.netPnl).toBe("-152.00"); // 100 - 50 - 202
    // HIT: (49 - 50) x 100 = -100; MISS: -50; SHRT: (50 - 51) x 100 - 2 fees = -102.
    expect(result.whatIf.netPnl).toBe("-252.00");
    const changed = Object.fromEntries(result.trades.map((x: { id: string; whatIfPnl: string }) => [x.id, x.whatIfPnl]));
    expect(changed).toEqual({ [hit]: "-100.00", [short]: "-102.00" });
    // The best exit: at the trade's MFE less its fees (HIT: the 51.3 high -> +130).
    const best = await whatIf(t.client, `accountId=${t.accountId}&exit=best`);
    expect(best.trades.find((x: { id: string }) => x.id === hit).whatIfPnl).toBe("130.00");
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const t = await trader("wi-bad");
    const field = async (query: string) => (await whatIf(t.client, query, 400)).error.fields.map((f: { path: string }) => f.path);
    expect(await field(`accountId=${t.accountId}&exclude=fridays`)).toEqual(["exclude"]);
    expect(await field(`accountId=${t.accountId}&exclude=weekday:8`)).toEqual(["exclude"]);
    expect(await field(`accountId=${t.accountId}&exclude=hour:24`)).toEqual(["exclude"]);
    expect(await field(`accountId=${t.accountId}&exit=worst`)).toEqual(["exit"]);
    expect(await field(`exclude=broke-rules`)).toEqual(["accountId"]);
    expect(await field(`accountId=nope`)).toEqual(["accountId"]);
    expect((await t.client.get(`/api/stats/what-if?accountId=${crypto.randomUUID()}`)).status).toBe(404);
  });
});
