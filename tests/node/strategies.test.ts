// Option strategies on the real Postgres (DESIGN.md section 11; docs/options.md): legs opened within a minute are
// one strategy of the right kind with its figures, a roll chain of three links up with its campaign P&L, grouping by
// hand survives a rebuild, an undo and a re-import (with what was written on it), ungrouping makes singles that stay
// single, and bad requests change nothing.
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { greeks, price } from "../../lib/options/black-scholes.ts";
import { journal } from "../support/app.ts";

const url = () => inject("databaseUrl");
const occ = (root: string, expiry: string, right: "C" | "P", strike: number) =>
  `${root.padEnd(6)}${expiry.replaceAll("-", "").slice(2)}${right}${String(Math.round(strike * 1000)).padStart(8, "0")}`;

type Strategy = { id: string; kind: string; credit: boolean | null; source: string; status: string; legs: Array<{ tradeId: string; symbol: string; strike: string; right: "call" | "put"; side: string; entry: Record<string, string> | null }>; greeks: Record<string, string> | null; netPnl: string; maxProfit: string | null; maxLoss: string | null; breakevens: string[]; rollOfId: string | null; rolledIntoId: string | null; campaignNetPnl: string; notes: string | null; tags: string[]; rMultiple: string | null };

async function trader() {
  const j = await journal(url());
  const { client, userId } = await j.signUp("strategies");
  const account = async (name = "Options") => (await (await client.post("/api/accounts", { name: `${name} ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "America/New_York" })).json()).id as string;
  const accountId = await account();
  const fill = async (symbol: string, side: "buy" | "sell", price: string, at: string, quantity = "1", target = accountId) => {
    const res = await client.post("/api/fills", { accountId: target, symbol, side, quantity, price, fees: "0.65", executedAt: at });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const list = async (query = "") => {
    const res = await client.get(`/api/strategies${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { strategies: Strategy[] }).strategies;
  };
  const trades = async (target = accountId) => ((await (await client.get(`/api/trades?accountId=${target}&pageSize=200`)).json()) as { trades: Array<{ id: string; symbol: string }> }).trades;
  return { ...j, client, userId, accountId, account, fill, list, trades };
}

const condor = [
  [occ("SPY", "2027-01-15", "P", 440), "buy", "0.50"],
  [occ("SPY", "2027-01-15", "P", 445), "sell", "1.50"],
  [occ("SPY", "2027-01-15", "C", 455), "sell", "1.40"],
  [occ("SPY", "2027-01-15", "C", 460), "buy", "0.40"],
] as const;

describe("option strategies", () => {
  it("four legs opened within a minute are one iron condor with its figures; a lone contract an hour later is a single", async () => {
    const t = await trader();
    for (const [i, [symbol, side, price]] of condor.entries()) await t.fill(symbol, side, price, `2026-01-05T10:00:${String(i * 10).padStart(2, "0")}-05:00`);
    await t.fill(occ("QQQ", "2027-01-15", "C", 500), "buy", "3.00", "2026-01-05T11:00:00-05:00");
    const all = await t.list();
    expect(all.map((s) => s.kind).sort()).toEqual(["iron_condor", "single"]);
    const ic = all.find((s) => s.kind === "iron_condor")!;
    expect(ic).toMatchObject({ credit: true, source: "auto", status: "open", maxProfit: "200.00", maxLoss: "300.00", breakevens: ["443.00", "457.00"] });
    expect(ic.legs).toHaveLength(4);
    // Closed an hour later for 0.50 of its 2.00: the legs' net P&L, fees included, is the strategy's.
    const closes = [["sell", "0.10"], ["buy", "0.30"], ["buy", "0.20"], ["sell", "0.10"]] as const;
    for (const [i, [symbol]] of condor.entries()) await t.fill(symbol, closes[i]![0], closes[i]![1], `2026-01-05T12:00:0${i}-05:00`);
    const [closed] = await t.list("?kind=iron_condor&status=closed");
    // Opened for 2.00, closed for 0.30 (0.10 and 0.10 back, 0.30 and 0.20 paid): 170 - 8 x 0.65 of fees.
    expect(closed).toMatchObject({ id: ic.id, status: "closed", netPnl: "164.80", rMultiple: "0.55" });
    expect((await t.list("?status=open")).map((s) => s.kind)).toEqual(["single"]);
    // The strategy a trade is a leg of, found by the trade.
    expect((await t.list(`?tradeId=${ic.legs[2]!.tradeId}`)).map((s) => s.id)).toEqual([ic.id]);
    // The same strategy by its id; another user's id is not found.
    expect((await (await t.client.get(`/api/strategies/${ic.id}`)).json()).strategy.id).toBe(ic.id);
    const other = await trader();
    expect((await other.client.get(`/api/strategies/${ic.id}`)).status).toBe(404);
  });

  it("the summary counts a condor as one trade with countBy=strategy: three winning legs and a losing one are one loss", async () => {
    const t = await trader();
    for (const [i, [symbol, side, paid]] of condor.entries()) await t.fill(symbol, side, paid, `2026-01-05T10:00:${String(i * 10).padStart(2, "0")}-05:00`);
    // Three legs close for a profit, the 455 call for a loss larger than the three together.
    const closes = [["sell", "0.60"], ["buy", "1.40"], ["buy", "4.40"], ["sell", "0.45"]] as const;
    for (const [i, [symbol]] of condor.entries()) await t.fill(symbol, closes[i]![0], closes[i]![1], `2026-01-06T12:00:0${i}-05:00`);
    // A stock trade beside it counts as itself either way.
    await t.fill("AAPL", "buy", "100", "2026-01-07T10:00:00-05:00", "10");
    await t.fill("AAPL", "sell", "101", "2026-01-07T11:00:00-05:00", "10");
    const q = `accountId=${t.accountId}&from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`;
    const byTrade = await (await t.client.get(`/api/stats/summary?${q}`)).json();
    const byStrategy = await (await t.client.get(`/api/stats/summary?${q}&countBy=strategy`)).json();
    expect(byTrade).toMatchObject({ trades: 5, wins: 4, losses: 1, winRate: "0.8000" });
    // The condor, leg by leg (0.65 of fees each fill): +10 - 1.30, +10 - 1.30, -300 - 1.30, +5 - 1.30 = -280.20 in all;
    // AAPL +10 - 1.30 = +8.70.
    expect(byStrategy).toMatchObject({ trades: 2, wins: 1, losses: 1, winRate: "0.5000", netPnl: byTrade.netPnl, largestLoss: "-280.20", largestWin: "8.70" });
    expect((await t.client.get(`/api/stats/summary?${q}&countBy=legs`)).status).toBe(400);
  });

  it("Greeks at entry: from the underlying's 1-minute bar at each opening fill, the price paid and the time to expiry", async () => {
    const t = await trader();
    // A condor two weeks from expiry (dated ahead, so no expiry closes it while the test is kept), and SPY's bars
    // around its opening (uploaded): 449.80 at 09:59 New York, 450.00 at 10:00.
    const expiry = "2030-01-18";
    const legs = [
      [occ("SPY", expiry, "P", 440), "buy", "0.60"],
      [occ("SPY", expiry, "P", 445), "sell", "1.40"],
      [occ("SPY", expiry, "C", 455), "sell", "1.50"],
      [occ("SPY", expiry, "C", 460), "buy", "0.55"],
    ] as const;
    const candles = ["time,open,high,low,close,volume", "2030-01-03T14:59:00Z,449.5,450,449.4,449.8,1000", "2030-01-03T15:00:00Z,449.8,450.2,449.7,450,1000"];
    const form = new FormData();
    form.set("file", new Blob([candles.join("\n")]), "spy.csv");
    form.set("symbol", "SPY");
    form.set("resolution", "1m");
    expect((await t.client.request("/api/bars/upload", { method: "POST", body: form })).status).toBe(201);
    const at = (i: number) => `2030-01-03T15:00:${String(i * 10).padStart(2, "0")}Z`;
    for (const [i, [symbol, side, paid]] of legs.entries()) await t.fill(symbol, side, paid, at(i));
    await t.fill(occ("QQQ", expiry, "C", 500), "buy", "3", "2030-01-03T16:00:00Z");
    const strategies = await t.list();
    const ic = strategies.find((s) => s.kind === "iron_condor")!;
    // Each leg: the volatility its price implies prices it back, and its Greeks are the model's at that volatility.
    for (const leg of ic.legs) {
      const k = legs.findIndex(([symbol]) => symbol === leg.symbol);
      const inputs = { right: leg.right, spot: 450, strike: Number(leg.strike), rate: 0.04, years: (Date.parse("2030-01-18T21:00:00Z") - Date.parse(at(k))) / (365 * 86_400_000) };
      expect(leg.entry, leg.symbol).not.toBeNull();
      expect(leg.entry!.underlyingPrice).toBe("450.00");
      const iv = Number(leg.entry!.iv);
      expect(iv).toBeGreaterThan(0.05);
      // (The answer gives the volatility to 4 decimals: it prices the premium back to within a cent.)
      expect(price({ ...inputs, volatility: iv })).toBeCloseTo(Number(legs[k]![2]), 2);
      expect(Number(leg.entry!.delta)).toBeCloseTo(greeks({ ...inputs, volatility: iv }).delta, 3);
    }
    // The condor's delta: the legs' per unit x 100 x side, summed.
    const sum = ic.legs.reduce((s, l) => s + (l.side === "long" ? 1 : -1) * 100 * Number(l.entry!.delta), 0);
    expect(Number(ic.greeks!.delta)).toBeCloseTo(sum, 1);
    // The list filters by entry IV and delta: the condor's IV lies between its legs'; a bound above it leaves it out.
    const ivs = ic.legs.map((l) => Number(l.entry!.iv));
    const iv = Number(ic.greeks!.iv);
    expect(iv).toBeGreaterThanOrEqual(Math.min(...ivs));
    expect(iv).toBeLessThanOrEqual(Math.max(...ivs));
    expect((await t.list(`?minIv=${(iv - 0.01).toFixed(4)}&maxIv=${(iv + 0.01).toFixed(4)}`)).map((s) => s.id)).toEqual([ic.id]);
    expect(await t.list(`?minIv=${(iv + 0.01).toFixed(4)}`)).toEqual([]);
    expect((await t.list(`?minDelta=${(Number(ic.greeks!.delta) - 1).toFixed(2)}&maxDelta=${(Number(ic.greeks!.delta) + 1).toFixed(2)}`)).map((s) => s.id)).toEqual([ic.id]);
    expect((await t.client.get("/api/strategies?minIv=lots")).status).toBe(400);
    // Without the underlying's price at its fill, a leg has none, and neither has its strategy.
    const single = strategies.find((s) => s.kind === "single")!;
    expect(single.legs[0]!.entry).toBeNull();
    expect(single.greeks).toBeNull();
  });

  it("a roll chain of three: each rolled within a minute of the last one's close, the campaign's P&L added up", async () => {
    const t = await trader();
    const vertical = async (strike: number, open: string, close: string | null) => {
      const [short, long] = [occ("IWM", "2027-03-19", "P", strike), occ("IWM", "2027-03-19", "P", strike - 5)];
      await t.fill(short, "sell", "2.00", open);
      await t.fill(long, "buy", "1.00", open.replace(":00-", ":05-"));
      if (close) {
        await t.fill(short, "buy", "1.50", close);
        await t.fill(long, "sell", "0.80", close.replace(":00-", ":05-"));
      }
    };
    await vertical(200, "2026-02-02T10:00:00-05:00", "2026-02-09T10:00:00-05:00");
    await vertical(195, "2026-02-09T10:00:30-05:00", "2026-02-16T10:00:00-05:00");
    await vertical(190, "2026-02-16T10:00:20-05:00", null);
    const chain = (await t.list()).reverse();
    expect(chain.map((s) => s.kind)).toEqual(["vertical", "vertical", "vertical"]);
    const [a, b, c] = chain as [Strategy, Strategy, Strategy];
    expect([a.rollOfId, b.rollOfId, c.rollOfId]).toEqual([null, a.id, b.id]);
    expect([a.rolledIntoId, b.rolledIntoId, c.rolledIntoId]).toEqual([b.id, c.id, null]);
    // Each closed vertical: 1.00 credit, 0.70 to close: 30 - 4 x 0.65 = 27.40. The open one: -1.30 of fees so far.
    expect([a.netPnl, b.netPnl, c.netPnl]).toEqual(["27.40", "27.40", "-1.30"]);
    expect([a.campaignNetPnl, b.campaignNetPnl, c.campaignNetPnl]).toEqual(["27.40", "54.80", "53.50"]);
    // Each link's page shows the whole campaign: the chain in order, each roll's credit, the total and its days
    // (2 February 10:00 to now: still open).
    const { campaign } = await (await t.client.get(`/api/strategies/${b.id}`)).json();
    expect(campaign.strategies.map((x: { id: string; premium: string; netPnl: string }) => [x.id, x.premium, x.netPnl])).toEqual([
      [a.id, "100.00", "27.40"],
      [b.id, "100.00", "27.40"],
      [c.id, "100.00", "-1.30"],
    ]);
    expect(campaign.netPnl).toBe("53.50");
    // (The server's clock read a moment before this one: a day may turn between them.)
    const days = Math.ceil((Date.now() - Date.parse("2026-02-02T15:00:00Z")) / 86_400_000);
    expect([days - 1, days]).toContain(campaign.days);
    const lone = await t.fill(occ("IWM", "2027-06-18", "C", 250), "buy", "1.00", "2026-03-02T10:00:00-05:00");
    expect(lone).toBeTruthy();
    const single = (await t.list("?kind=single"))[0]!;
    expect((await (await t.client.get(`/api/strategies/${single.id}`)).json()).campaign).toBeNull();
  });

  it("grouped by hand: survives a rebuild, an undo and a re-import, with what was written on it; ungrouped, singles stay single", async () => {
    const t = await trader();
    const csv = [
      "Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID",
      `2026-01-05T10:00:00,${occ("AAPL", "2027-02-19", "C", 200)},BUY,1,5.00,0.65,M1`,
      `2026-01-06T14:00:00,${occ("AAPL", "2027-02-19", "C", 210)},SELL,1,2.00,0.65,M2`,
    ].join("\n");
    const importFile = async () => {
      const form = new FormData();
      form.set("file", new Blob([csv]), "legs.csv");
      form.set("request", JSON.stringify({ accountId: t.accountId, presetId: "generic" }));
      const preview = await (await t.client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
      expect((await t.client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
      return preview.importId as string;
    };
    const importId = await importFile();
    expect((await t.list()).map((s) => s.kind)).toEqual(["single", "single"]);
    const tradeIds = (await t.trades()).map((x) => x.id);
    const made = await t.client.post("/api/strategies", { tradeIds });
    expect(made.status).toBe(201);
    const grouped = ((await made.json()) as { strategy: Strategy }).strategy;
    expect(grouped).toMatchObject({ kind: "vertical", source: "manual", credit: false });
    // Its playbook too: the trader's own (another user's is refused, nothing written), kept from deletion while used.
    const bookId = (await (await t.client.post("/api/playbooks", { name: "Legging in" })).json()).id as string;
    const foreign = (await (await (await trader()).client.post("/api/playbooks", { name: "Not yours" })).json()).id as string;
    const refusedBook = await t.client.request(`/api/strategies/${grouped.id}`, { method: "PATCH", json: { notes: "never written", playbookId: foreign } });
    expect(refusedBook.status).toBe(400);
    expect((await refusedBook.json()).error.fields).toEqual([{ path: "playbookId", message: "is not one of your playbooks" }]);
    expect((await t.list())[0]!.notes).toBeNull();
    const journaled = await t.client.request(`/api/strategies/${grouped.id}`, { method: "PATCH", json: { notes: "Legged in over two days", tags: ["legging"], playbookId: bookId } });
    expect(journaled.status).toBe(200);
    expect((await journaled.json()).strategy.playbookId).toBe(bookId);
    expect((await t.client.delete(`/api/playbooks/${bookId}`)).status).toBe(409);

    // A missed scale-in before the first leg rebuilds its trade under a new id: the grouping follows.
    await t.fill(occ("AAPL", "2027-02-19", "C", 200), "buy", "4.80", "2026-01-05T09:45:00-05:00");
    const [after] = await t.list();
    expect(after).toMatchObject({ id: grouped.id, kind: "custom", source: "manual", notes: "Legged in over two days", tags: ["legging"] });
    expect((await t.list()).length).toBe(1);

    // Undone: the strategy is kept (it has writing) but listed nowhere; the same file again brings it back whole.
    expect((await t.client.post(`/api/csv-import/${importId}/undo`)).status).toBe(200);
    const left = await t.list();
    expect(left.map((s) => s.kind)).toEqual(["single"]); // the hand-added fill's trade, in no strategy of the file
    await importFile();
    const back = (await t.list()).find((s) => s.id === grouped.id);
    expect(back).toMatchObject({ source: "manual", notes: "Legged in over two days", tags: ["legging"] });
    expect(back!.legs).toHaveLength(2);

    // Ungrouped: one manual single per leg, the writing on the first; no settle groups them again.
    expect((await t.client.delete(`/api/strategies/${grouped.id}`)).status).toBe(204);
    const singles = await t.list();
    // The re-imported first leg holds the hand-added fill again (one trade of the 200 call): two legs, two singles.
    expect(singles.map((s) => [s.kind, s.source])).toEqual([["single", "manual"], ["single", "manual"]]);
    expect(singles.filter((s) => s.notes === "Legged in over two days")).toHaveLength(1);
    await t.fill(occ("AAPL", "2027-02-19", "C", 210), "sell", "2.10", "2026-01-06T14:00:20-05:00", "1");
    expect((await t.list()).every((s) => s.legs.length === 1)).toBe(true);
    expect((await t.client.delete(`/api/strategies/${grouped.id}`)).status).toBe(404);
  });

  it("a leg written by a transaction still open is grouped by the first read after it commits, never lost to a read during it", async () => {
    const t = await trader();
    await t.fill(occ("TSLA", "2027-01-15", "P", 200), "sell", "5.00", "2026-04-01T10:00:00-04:00");
    expect((await t.list()).map((s) => s.legs.length)).toEqual([1]);
    // Another connection adds the second leg of the vertical and holds its transaction open.
    const writer = new pg.Client({ connectionString: url() });
    await writer.connect();
    try {
      await writer.query("begin");
      await writer.query("select fill_add($1, $2, $3, 'option', 100, 'buy', 1, 2.00, 0.65, '2026-04-01T10:00:20-04:00', null, null)", [t.userId, t.accountId, occ("TSLA", "2027-01-15", "P", 190)]);
      // A read meanwhile sees neither the leg nor takes its note (both wait for the commit).
      expect((await t.list()).map((s) => s.legs.length)).toEqual([1]);
      const noted = await writer.query("select count(*)::int as n from strategy_pending where account_id = $1", [t.accountId]);
      expect(noted.rows[0].n).toBe(1);
      await writer.query("commit");
    } finally {
      await writer.end();
    }
    const [vertical] = await t.list();
    expect(vertical).toMatchObject({ kind: "vertical", credit: true });
    expect(rowsOf(await t.db.execute(sql`select 1 from strategy_pending where account_id = ${t.accountId}::uuid`))).toEqual([]);
  });

  it("refuses trades of two accounts or two underlyings, a future, another user's trade, and changes nothing", async () => {
    const t = await trader();
    await t.fill(occ("MSFT", "2027-01-15", "C", 400), "buy", "5", "2026-01-05T10:00:00-05:00");
    await t.fill(occ("NVDA", "2027-01-15", "C", 900), "buy", "5", "2026-01-05T11:00:00-05:00");
    await t.fill("ESH26", "buy", "6000", "2026-01-05T12:00:00-05:00");
    const second = await t.account("Second");
    await t.fill(occ("MSFT", "2027-01-15", "P", 380), "buy", "5", "2026-01-05T13:00:00-05:00", "1", second);
    const mine = await t.trades();
    const idOf = (prefix: string) => mine.find((x) => x.symbol.startsWith(prefix))!.id;
    const [msft, nvda, es] = [idOf("MSFT"), idOf("NVDA"), idOf("ESH26")] as [string, string, string];
    const msftOther = (await t.trades(second))[0]!.id;
    const before = await t.list();
    const refused = async (tradeIds: string[], status: number, message?: string) => {
      const res = await t.client.post("/api/strategies", { tradeIds });
      expect(res.status).toBe(status);
      const body = (await res.json()) as { error: { code: string; fields?: Array<{ path: string; message: string }> } };
      if (message) expect(body.error.fields).toEqual([{ path: "tradeIds", message }]);
    };
    await refused([msft, nvda], 400, "must be trades of one underlying");
    await refused([msft, msftOther], 400, "must be trades of one account");
    await refused([msft, es], 400, "must be option trades (and a covered call's shares), not futures");
    const stranger = await trader();
    await stranger.fill(occ("MSFT", "2027-01-15", "C", 410), "buy", "5", "2026-01-05T10:00:10-05:00");
    await refused([msft, (await stranger.trades())[0]!.id], 404);
    expect(await t.list()).toEqual(before);
    expect(rowsOf(await t.db.execute(sql`select 1 from strategies s join accounts a on a.id = s.account_id where a.user_id = ${t.userId}::uuid and s.source = 'manual'`))).toEqual([]);
    // Bad bodies and ids: 400, never a 5xx.
    expect((await t.client.post("/api/strategies", { tradeIds: [] })).status).toBe(400);
    expect((await t.client.post("/api/strategies", { tradeIds: ["nope"] })).status).toBe(400);
    expect((await t.client.get("/api/strategies?kind=pizza")).status).toBe(400);
    expect((await t.client.get("/api/strategies/not-a-uuid")).status).toBe(400);
    // A leg whose option symbol does not read as a contract (written past the API's checks, as an older version
    // or a hand-edited database might have): a single of unknown payoff, never a 5xx.
    await t.db.execute(sql`select fill_add(${t.userId}::uuid, ${t.accountId}::uuid, 'WEIRD1', 'option', 100, 'buy', 1, 1.00, 0, '2026-01-09T15:00:00Z', null, null)`);
    const weird = (await t.list("?underlying=WEIRD1"))[0]!;
    expect(weird).toMatchObject({ kind: "single", maxProfit: null, maxLoss: null, breakevens: [], greeks: null });
    expect(weird.legs[0]).toMatchObject({ symbol: "WEIRD1", right: null, strike: null });
    expect((await t.client.get(`/api/strategies/${weird.id}`)).status).toBe(200);
  });
});
