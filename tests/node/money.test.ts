// The money rules of DESIGN.md section 9: cash per asset class, realised P&L on the day it is realised
// (partial exits included), the opening entry kept first. Real Postgres, through the API.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { fmt, type ModelFill, roundDiv, S, toS } from "../support/exact.ts";
import { PASSWORD, type TestClient, uniqueEmail } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function trader(t: TestApp) {
  const client = t.client();
  await client.post("/api/auth/register", { email: uniqueEmail("money"), password: PASSWORD });
  return client;
}

async function account(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post("/api/accounts", { name: `M ${crypto.randomUUID()}`, currency: "USD", timezone: "Etc/UTC", ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; startingBalanceAt: string | null; createdAt: string };
}

async function fill(client: TestClient, accountId: string, body: Record<string, unknown>) {
  const res = await client.post("/api/fills", { accountId, ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

async function json(client: TestClient, path: string) {
  const res = await client.get(path);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function ledger(client: TestClient, accountId: string) {
  const page = await json(client, `/api/ledger/${accountId}?pageSize=200`);
  return page as { entries: Array<{ type: string; amount: string; occurredAt: string; fillId?: string }>; runningBalanceAtFirstRow: string };
}

const balance = async (client: TestClient, accountId: string) => (await ledger(client, accountId)).runningBalanceAtFirstRow;

describe("cash by asset class", () => {
  it("a futures fill moves cash by its fees and, when it reduces the position, by the P&L it realises", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const { id } = await account(client, { startingBalance: "10000" });
    // 1 ES (multiplier 50) bought at 5000: only the 2.25 fee leaves the account, not 250,000 of notional.
    const open = await fill(client, id, { symbol: "ESM26", side: "buy", quantity: "2", price: "5000", fees: "4.50", executedAt: "2026-03-02T14:30:00Z" });
    expect(await balance(client, id)).toBe("9995.50");
    // Half out 10 points higher: +500 realised, 2.25 fee.
    const half = await fill(client, id, { symbol: "ESM26", side: "sell", quantity: "1", price: "5010", fees: "2.25", executedAt: "2026-03-02T15:00:00Z" });
    expect(await balance(client, id)).toBe("10493.25");
    // Through zero: closes the last contract at 4990 (-500) and opens a short with the other.
    await fill(client, id, { symbol: "ESM26", side: "sell", quantity: "2", price: "4990", fees: "4.50", executedAt: "2026-03-03T15:00:00Z" });
    expect(await balance(client, id)).toBe("9988.75");
    // Covered 20 points lower: +1,000.
    await fill(client, id, { symbol: "ESM26", side: "buy", quantity: "1", price: "4970", fees: "2.25", executedAt: "2026-03-04T15:00:00Z" });
    expect(await balance(client, id)).toBe("10986.50");
    const byFill = Object.fromEntries((await ledger(client, id)).entries.filter((e) => e.fillId).map((e) => [e.fillId, e.amount]));
    expect(byFill[open.id]).toBe("-4.50");
    expect(byFill[half.id]).toBe("497.75");

    // Editing the opening price re-derives the cash of every later fill it changes.
    const patched = await client.request(`/api/fills/${open.id}`, { method: "PATCH", json: { price: "5005" } });
    expect(patched.status).toBe(200);
    // The long now realises -750 over its two contracts instead of 0: 250 (first exit) - 750 (second) + ...
    expect(await balance(client, id)).toBe("10486.50");
    expect((await client.delete(`/api/fills/${half.id}`)).status).toBe(204);
    // Long 2 @5005 closed by the 2 sold at 4990 (-1,500); the last buy opens a new long (its fee only).
    expect(await balance(client, id)).toBe("8488.75");
  });

  it("an option fill moves cash by premium x quantity x multiplier, a stock fill by price x quantity", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const { id } = await account(client);
    await fill(client, id, { symbol: "AAPL  260320C00200000", side: "buy", quantity: "2", price: "3.45", fees: "1.30", executedAt: "2026-03-02T14:30:00Z" });
    expect(await balance(client, id)).toBe("-691.30");
    await fill(client, id, { symbol: "AAPL", side: "sell", quantity: "10", price: "191.5", fees: "0", executedAt: "2026-03-02T14:31:00Z" });
    expect(await balance(client, id)).toBe("1223.70");
  });
});

describe("realised P&L on the day it is realised", () => {
  it("a partial exit counts in the summary, the calendar, the equity curve and the breakdown; per-trade figures wait for the close", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const { id } = await account(client);
    await fill(client, id, { symbol: "XYZ", side: "buy", quantity: "100", price: "10", executedAt: "2026-04-01T14:00:00Z" });
    await fill(client, id, { symbol: "XYZ", side: "sell", quantity: "50", price: "12", executedAt: "2026-04-02T14:00:00Z" });

    const summary = await json(client, `/api/stats/summary?accountId=${id}`);
    expect(summary).toMatchObject({ netPnl: "100.00", grossPnl: "100.00", trades: 0, winRate: null });
    expect((await json(client, `/api/stats/calendar?accountId=${id}`)).days).toEqual([{ date: "2026-04-02", netPnl: "100.00", trades: 0, rTotal: null, withRisk: 0 }]);
    expect((await json(client, `/api/stats/equity?accountId=${id}`)).points).toEqual([{ start: "2026-04-02", netPnl: "100.00", equity: "100.00", trades: 0, rTotal: null, rEquity: "0.00", withRisk: 0 }]);
    expect((await json(client, `/api/stats/breakdown?accountId=${id}&by=symbol`)).groups).toEqual([{ key: "XYZ", netPnl: "100.00", trades: 0, wins: 0, winRate: null, rTotal: null, withRisk: 0 }]);
    const [open] = (await json(client, `/api/trades?accountId=${id}`)).trades;
    expect(open).toMatchObject({ status: "open", openQuantity: "50.00", grossPnl: "100.00", netPnl: "100.00" });

    await fill(client, id, { symbol: "XYZ", side: "sell", quantity: "50", price: "9", fees: "1", executedAt: "2026-04-03T14:00:00Z" });
    expect(await json(client, `/api/stats/summary?accountId=${id}`)).toMatchObject({ netPnl: "49.00", trades: 1, wins: 1, winRate: "1.0000" });
    expect((await json(client, `/api/stats/calendar?accountId=${id}`)).days).toEqual([
      { date: "2026-04-02", netPnl: "100.00", trades: 0, rTotal: null, withRisk: 0 },
      { date: "2026-04-03", netPnl: "-51.00", trades: 1, rTotal: null, withRisk: 0 },
    ]);
    // A range holding only the second day counts only what was realised then.
    expect(await json(client, `/api/stats/summary?accountId=${id}&from=2026-04-03T00:00:00Z`)).toMatchObject({ netPnl: "-51.00", trades: 1 });
    expect(await json(client, `/api/stats/summary?accountId=${id}&to=2026-04-03T00:00:00Z`)).toMatchObject({ netPnl: "100.00", trades: 0 });
  });
});

describe("the opening entry stays the oldest", () => {
  it("moves before older history when it arrives, so the running balance never starts from nothing", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const created = await account(client, { startingBalance: "25000", timezone: "America/New_York" });
    expect(created.startingBalanceAt).toBe(created.createdAt);
    // History from 2024, older than the account.
    await fill(client, created.id, { symbol: "AAPL", side: "buy", quantity: "100", price: "191.50", executedAt: "2024-01-19T14:30:15Z" });
    await fill(client, created.id, { symbol: "AAPL", side: "sell", quantity: "100", price: "192.25", executedAt: "2024-01-19T15:02:41Z" });
    const { entries } = await ledger(client, created.id);
    expect(entries.map((e) => e.type)).toEqual(["fill", "fill", "opening"]);
    // The start of the older entry's day in the account's zone.
    expect(entries[2]!.occurredAt).toBe("2024-01-19T05:00:00.000Z");
    expect((await json(client, `/api/accounts/${created.id}`)).startingBalanceAt).toBe("2024-01-19T05:00:00.000Z");
    const balances = rowsOf<{ balance: string }>(
      await t.deps.db.execute(sql`select balance_after::text as balance from ledger_running where account_id = ${created.id} order by rank`),
    );
    expect(balances.map((b) => Number(b.balance) >= 0)).toEqual([true, true, true]);

    // At midnight exactly, it goes just before.
    await fill(client, created.id, { symbol: "MSFT", side: "buy", quantity: "1", price: "1", executedAt: "2023-06-01T04:00:00Z" });
    const again = await ledger(client, created.id);
    expect(again.entries.at(-1)).toMatchObject({ type: "opening", occurredAt: "2023-06-01T03:59:59.999Z" });
  });

  it("can be dated by the user, never after another entry; the answer names the field", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const created = await account(client, { startingBalance: "100", startingBalanceAt: "2025-12-31T00:00:00Z" });
    expect(created.startingBalanceAt).toBe("2025-12-31T00:00:00.000Z");
    await client.post(`/api/ledger/${created.id}/entries`, { type: "deposit", amount: "50", occurredAt: "2026-01-05T12:00:00Z" });

    const ok = await client.request(`/api/accounts/${created.id}`, { method: "PATCH", json: { startingBalanceAt: "2026-01-01T00:00:00Z" } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).startingBalanceAt).toBe("2026-01-01T00:00:00.000Z");

    const late = await client.request(`/api/accounts/${created.id}`, { method: "PATCH", json: { startingBalanceAt: "2026-02-01T00:00:00Z", name: "Renamed" } });
    expect(late.status).toBe(400);
    const body = await late.json();
    expect(body.error).toMatchObject({ code: "VALIDATION_ERROR", fields: [{ path: "startingBalanceAt" }] });
    expect(body.error.message).toContain("2026-01-05T12:00:00.000Z");
    // Nothing changed, the name included.
    expect(await json(client, `/api/accounts/${created.id}`)).toMatchObject({ name: expect.stringMatching(/^M /), startingBalanceAt: "2026-01-01T00:00:00.000Z" });

    const none = await account(client);
    const refused = await client.request(`/api/accounts/${none.id}`, { method: "PATCH", json: { startingBalanceAt: "2026-01-01T00:00:00Z" } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toEqual([{ path: "startingBalanceAt", message: expect.stringContaining("starting balance") }]);
  });
});

// A plain reference model of the rules, in exact scaled integers (10 decimals), independent of the SQL.
type Instrument = { symbol: string; assetClass: "stock" | "option" | "future"; multiplier: bigint };

/** Per fill: the gross P&L it realises (average cost) and its cash effect; plus the realised total. */
function model(instrument: Instrument, fills: ModelFill[]) {
  const m = instrument.multiplier;
  let dir = 0n;
  let open = 0n;
  let entryQ = 0n; // scaled
  let entryV = 0n; // scaled twice
  let exitV = 0n; // scaled twice
  let gross = 0n; // scaled: what the open position has realised
  let cash = 0n;
  let realisedNet = 0n;
  for (const f of fills) {
    const s = f.side === "buy" ? 1n : -1n;
    let q = f.qty;
    let fee = f.fees;
    let realised = 0n;
    if (dir !== 0n && s !== dir) {
      const closing = q < open ? q : open;
      const part = closing === q ? fee : roundDiv(fee * closing, q);
      open -= closing;
      exitV += closing * f.price;
      let gain: bigint;
      if (open === 0n) {
        gain = roundDiv((exitV - entryV) * m * dir, S * S) - gross;
        dir = 0n;
      } else {
        gain = roundDiv(closing * (f.price * entryQ - entryV) * m * dir, S * S * entryQ);
        gross += gain;
      }
      realised += gain;
      q -= closing;
      fee -= part;
      if (q === 0n) {
        cash += instrument.assetClass === "future" ? realised - f.fees : (-s * f.qty * f.price * m) / (S * S) - f.fees;
        realisedNet += realised - f.fees;
        continue;
      }
    } else if (dir !== 0n) {
      entryQ += q;
      entryV += q * f.price;
      open += q;
      cash += instrument.assetClass === "future" ? -f.fees : (-s * f.qty * f.price * m) / (S * S) - f.fees;
      realisedNet += -f.fees;
      continue;
    }
    dir = s;
    open = q;
    entryQ = q;
    entryV = q * f.price;
    exitV = 0n;
    gross = 0n;
    cash += instrument.assetClass === "future" ? realised - f.fees : (-s * f.qty * f.price * m) / (S * S) - f.fees;
    realisedNet += realised - f.fees;
  }
  return { cash, realisedNet };
}

describe("money (property-based, against a reference model)", () => {
  const instruments: Instrument[] = [
    { symbol: "XYZ", assetClass: "stock", multiplier: toS("1") },
    { symbol: "XYZ   301220C00100000", assetClass: "option", multiplier: toS("100") },
    { symbol: "ESM26", assetClass: "future", multiplier: toS("50") },
    { symbol: "MYMM26", assetClass: "future", multiplier: toS("0.5") },
  ];

  it("cash and realised P&L match the model for random fill sequences of every asset class, partial exits included", async () => {
    const t = await testApp(url());
    const client = await trader(t);
    const fillArb = fc.record({
      side: fc.constantFrom("buy" as const, "sell" as const),
      qty: fc.integer({ min: 1, max: 30 }),
      ticks: fc.integer({ min: 1, max: 40_000 }), // quarter points
      feeCents: fc.integer({ min: 0, max: 999 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...instruments), fc.array(fillArb, { minLength: 1, maxLength: 10 }), async (instrument, seq) => {
        const { id } = await account(client);
        const modelFills: ModelFill[] = [];
        let minute = 0;
        for (const f of seq) {
          const price = (f.ticks / 4).toFixed(2);
          const fees = (f.feeCents / 100).toFixed(2);
          const executedAt = new Date(Date.UTC(2026, 2, 2, 14) + ++minute * 60_000).toISOString();
          await fill(client, id, { symbol: instrument.symbol, side: f.side, quantity: String(f.qty), price, fees, executedAt });
          modelFills.push({ side: f.side, qty: toS(String(f.qty)), price: toS(price), fees: toS(fees) });
        }
        const expected = model(instrument, modelFills);
        expect(await balance(client, id)).toBe(fmt(expected.cash));
        expect((await json(client, `/api/stats/summary?accountId=${id}`)).netPnl).toBe(fmt(expected.realisedNet));
        // Shares of each fill add up to what the ledger says a futures fill moved.
        const trades = (await json(client, `/api/trades?accountId=${id}&pageSize=200`)).trades as Array<{ netPnl: string }>;
        expect(fmt(trades.reduce((sum, x) => sum + toS(x.netPnl), 0n))).toBe(fmt(expected.realisedNet));
      }),
      { numRuns: 40 },
    );
  });
});
