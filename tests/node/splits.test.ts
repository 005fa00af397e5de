// Stock splits (docs/trading.md, "Stock splits"): a split the trader records makes trade matching read the
// fills before it in post-split shares and prices, in every account of theirs, so a position held through a
// 2-for-1 split closes flat; the ledger never moves; what is written on the trades follows; removing the split
// restores the trades. A reference model in exact scaled integers checks random fills around a split date.
// Real Postgres.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { fmt, positionModel, roundDiv, S, toS } from "../support/exact.ts";

const url = () => inject("databaseUrl");

async function trader(tag = "splits") {
  const j = await journal(url());
  const { client, userId } = await j.signUp(tag);
  const account = async (startingBalance = "100000") => {
    const res = await client.post("/api/accounts", { name: `Splits ${crypto.randomUUID()}`, currency: "USD", startingBalance, timezone: "America/New_York" });
    expect(res.status).toBe(201);
    return (await res.json()).id as string;
  };
  return { ...j, client, userId, account, accountId: await account() };
}

async function addFill(client: TestClient, accountId: string, symbol: string, side: "buy" | "sell", quantity: string, price: string, executedAt: string, fees = "0") {
  const res = await client.post("/api/fills", { accountId, symbol, side, quantity, price, fees, executedAt });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

type Trade = { id: string; symbol: string; direction: string; status: string; openQuantity: string; maxQuantity: string; averageEntryPrice: string | null; averageExitPrice: string | null; grossPnl: string; fees: string; netPnl: string; notes: string | null };
async function tradesOf(client: TestClient, accountId: string) {
  const res = await client.get(`/api/trades?accountId=${accountId}&pageSize=200`);
  expect(res.status).toBe(200);
  return ((await res.json()).trades as Trade[]).reverse();
}

async function balanceOf(client: TestClient, accountId: string) {
  return (await (await client.get(`/api/accounts/${accountId}`)).json()).balance as string;
}

async function addSplit(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post("/api/splits", body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; symbol: string; effectiveAt: string; newShares: string; oldShares: string };
}

describe("a split held through", () => {
  it("a 2-for-1 split: the long closes flat instead of turning short, cash untouched, notes kept; removing it restores both trades", async () => {
    const t = await trader();
    // 100 shares bought at 200 before NVDA's 2-for-1 split on 2026-06-10; the 200 the account holds sold at 105 after.
    await addFill(t.client, t.accountId, "NVDA", "buy", "100", "200", "2026-06-08T14:00:00Z", "1");
    await addFill(t.client, t.accountId, "NVDA", "sell", "200", "105", "2026-06-11T14:00:00Z", "1");
    const before = await tradesOf(t.client, t.accountId);
    expect(before.map((x) => [x.direction, x.status])).toEqual([
      ["long", "closed"],
      ["short", "open"],
    ]);
    const balance = await balanceOf(t.client, t.accountId);
    const entries = rowsOf(await t.db.execute(sql`select id::text, amount::text, balance_after::text from ledger_running where account_id = ${t.accountId} order by rank`));
    const noted = (await t.client.request(`/api/trades/${before[0]!.id}`, { method: "PATCH", json: { notes: "Held through the split", stopPrice: "190" } })).status;
    expect(noted).toBe(200);

    const split = await addSplit(t.client, { symbol: "nvda", date: "2026-06-10", newShares: "2", oldShares: "1" });
    // Midnight in New York on the ex-date.
    expect(split).toMatchObject({ symbol: "NVDA", effectiveAt: "2026-06-10T04:00:00.000Z", newShares: "2.00", oldShares: "1.00" });
    const after = await tradesOf(t.client, t.accountId);
    expect(after).toHaveLength(1);
    // 200 shares at 100 (post-split), sold at 105: gross 1,000, fees 2.
    expect(after[0]).toMatchObject({ direction: "long", status: "closed", maxQuantity: "200.00", averageEntryPrice: "100.00", averageExitPrice: "105.00", grossPnl: "1000.00", fees: "2.00", netPnl: "998.00", notes: "Held through the split" });
    // The stop written at 190 against the entry at 200 is converted with the split: 95 against 100.
    const detail = await (await t.client.get(`/api/trades/${after[0]!.id}`)).json();
    expect(detail.trade.risk).toMatchObject({ stopPrice: "95.00", oneR: "1000.00", rMultiple: "1.00" });
    expect(detail.fills.map((f: { quantity: string; price: string; quantityInTrade: string; splitFactor: string }) => [f.quantity, f.price, f.quantityInTrade, f.splitFactor])).toEqual([
      ["100.00", "200.00", "200.00", "2.00"],
      ["200.00", "105.00", "200.00", "1.00"],
    ]);
    // Cash never moves for a split.
    expect(await balanceOf(t.client, t.accountId)).toBe(balance);
    expect(rowsOf(await t.db.execute(sql`select id::text, amount::text, balance_after::text from ledger_running where account_id = ${t.accountId} order by rank`))).toEqual(entries);

    // The list; then the split removed: the two trades return, the note still on the first.
    expect((await (await t.client.get("/api/splits?symbol=NVDA")).json()).splits).toEqual([split]);
    expect((await t.client.delete(`/api/splits/${split.id}`)).status).toBe(204);
    const restored = await tradesOf(t.client, t.accountId);
    expect(restored.map((x) => [x.direction, x.status, x.notes])).toEqual([
      ["long", "closed", "Held through the split"],
      ["short", "open", null],
    ]);
    expect((await (await t.client.get(`/api/trades/${restored[0]!.id}`)).json()).trade.risk).toMatchObject({ stopPrice: "190.00", oneR: "1000.00" });
    expect(await balanceOf(t.client, t.accountId)).toBe(balance);
    expect((await t.client.delete(`/api/splits/${split.id}`)).status).toBe(404);
  });

  it("a 1-for-3 reverse split is exact, applies to every account of the trader and to fills added later", async () => {
    const t = await trader();
    const second = await t.account();
    await addFill(t.client, t.accountId, "SIRI", "buy", "300", "1.10", "2026-09-08T15:00:00Z");
    await addFill(t.client, second, "SIRI", "buy", "30", "1.00", "2026-09-08T15:00:00Z");
    await addSplit(t.client, { symbol: "SIRI", date: "2026-09-10", newShares: "1", oldShares: "3" });
    await addFill(t.client, t.accountId, "SIRI", "sell", "100", "3.50", "2026-09-11T15:00:00Z");
    await addFill(t.client, second, "SIRI", "sell", "10", "3.50", "2026-09-11T15:00:00Z");
    // 300 at 1.10 are 100 at 3.30: gross 100 x 0.20 = 20.
    expect((await tradesOf(t.client, t.accountId)).map((x) => [x.status, x.maxQuantity, x.averageEntryPrice, x.grossPnl])).toEqual([["closed", "100.00", "3.30", "20.00"]]);
    expect((await tradesOf(t.client, second)).map((x) => [x.status, x.grossPnl])).toEqual([["closed", "5.00"]]);
  });

  it("a fill on the ex-date itself, before the open, is already in new shares; another trader's fills never see the split", async () => {
    const t = await trader();
    await addFill(t.client, t.accountId, "AAPL", "buy", "10", "400", "2026-08-31T13:00:00Z");
    await addFill(t.client, t.accountId, "AAPL", "sell", "40", "101", "2026-09-01T08:00:00Z"); // 04:00 in New York, pre-market on the ex-date
    const other = await trader("other");
    await addFill(other.client, other.accountId, "AAPL", "buy", "10", "400", "2026-08-31T13:00:00Z");
    await addFill(other.client, other.accountId, "AAPL", "sell", "40", "101", "2026-09-01T08:00:00Z");
    await addSplit(t.client, { symbol: "AAPL", date: "2026-09-01", newShares: "4", oldShares: "1" });
    expect((await tradesOf(t.client, t.accountId)).map((x) => [x.status, x.grossPnl])).toEqual([["closed", "40.00"]]);
    expect((await tradesOf(other.client, other.accountId)).map((x) => [x.direction, x.status])).toEqual([
      ["long", "closed"],
      ["short", "open"],
    ]);
    // Theirs to list and remove only.
    const mine = (await (await t.client.get("/api/splits")).json()).splits as Array<{ id: string }>;
    expect((await (await other.client.get("/api/splits")).json()).splits).toEqual([]);
    expect((await other.client.delete(`/api/splits/${mine[0]!.id}`)).status).toBe(404);
    expect(await tradesOf(t.client, t.accountId)).toHaveLength(1);
  });
});

describe("recording a split: bad input is a clear error and writes nothing", () => {
  it("refuses options and futures, equal sides, zero, a date that is not one, an unknown zone, and a second split the same day", async () => {
    const t = await trader();
    const bad: Array<[Record<string, unknown>, number, string]> = [
      [{ symbol: "AAPL  270119C00150000", date: "2026-06-10", newShares: "2", oldShares: "1" }, 400, "symbol"],
      [{ symbol: "ESZ26", date: "2026-06-10", newShares: "2", oldShares: "1" }, 400, "symbol"],
      [{ symbol: "AAPL", date: "2026-06-10", newShares: "2", oldShares: "2.0" }, 400, "newShares"],
      [{ symbol: "AAPL", date: "2026-06-10", newShares: "0", oldShares: "1" }, 400, "newShares"],
      [{ symbol: "AAPL", date: "2026-06-10", newShares: "-2", oldShares: "1" }, 400, "newShares"],
      [{ symbol: "AAPL", date: "2026-02-30", newShares: "2", oldShares: "1" }, 400, "date"],
      [{ symbol: "AAPL", date: "10/06/2026", newShares: "2", oldShares: "1" }, 400, "date"],
      [{ symbol: "AAPL", date: "2026-06-10", newShares: 2, oldShares: "1" }, 400, "newShares"],
      [{ symbol: "AAPL", date: "2026-06-10", newShares: "2", oldShares: "1", ratio: "2" }, 400, ""],
    ];
    for (const [body, status, field] of bad) {
      const res = await t.client.post("/api/splits", body);
      const text = await res.text();
      expect(res.status, JSON.stringify(body)).toBe(status);
      const error = JSON.parse(text).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      if (field) expect(JSON.stringify(error.details ?? error), JSON.stringify(body)).toContain(field);
    }
    const zone = await t.client.post("/api/splits", { symbol: "AAPL", date: "2026-06-10", newShares: "2", oldShares: "1", timezone: "Mars/Olympus" });
    expect(zone.status).toBe(400);
    expect((await zone.json()).error.code).toBe("INVALID_TIMEZONE");
    expect((await (await t.client.get("/api/splits")).json()).splits).toEqual([]);

    await addSplit(t.client, { symbol: "AAPL", date: "2026-06-10", newShares: "2", oldShares: "1" });
    const twice = await t.client.post("/api/splits", { symbol: "AAPL", date: "2026-06-10", newShares: "3", oldShares: "1" });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.code).toBe("CONFLICT");
    expect((await (await t.client.get("/api/splits")).json()).splits).toHaveLength(1);
    expect((await t.client.delete("/api/splits/not-a-uuid")).status).toBe(400);
    expect((await t.client.get("/api/splits?symbol=")).status).toBe(400);
  });
});

describe("trade math around a split (property-based, against a reference model)", () => {
  it("random fills on days around a split of a random ratio, the split recorded before, between or after them: trades as the model, cash as the fills, the same as a full replay", async () => {
    const t = await trader("model");
    const fillArb = fc.record({
      day: fc.integer({ min: 7, max: 12 }), // June 2026; the split takes effect on the 10th
      side: fc.constantFrom("buy" as const, "sell" as const),
      qty: fc.integer({ min: 1, max: 30 }),
      cents: fc.integer({ min: 1, max: 50_000 }),
      feeCents: fc.integer({ min: 0, max: 999 }),
    });
    const ratioArb = fc.constantFrom([2n, 1n], [3n, 1n], [1n, 2n], [3n, 2n], [1n, 10n], [7n, 3n]);
    await fc.assert(
      fc.asyncProperty(fc.array(fillArb, { minLength: 1, maxLength: 10 }), ratioArb, fc.nat(), async (seq, [n, o], when) => {
        const accountId = await t.account("0");
        const symbol = `S${Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("")}`;
        const splitAt = when % (seq.length + 1);
        let split: { id: string } | null = null;
        const rows = seq.map((f, i) => ({ ...f, at: new Date(Date.UTC(2026, 5, f.day, 14, i)).toISOString(), price: (f.cents / 100).toFixed(2), fees: (f.feeCents / 100).toFixed(2) }));
        for (const [i, f] of rows.entries()) {
          if (i === splitAt) split = await addSplit(t.client, { symbol, date: "2026-06-10", newShares: String(n), oldShares: String(o) });
          await addFill(t.client, accountId, symbol, f.side, String(f.qty), f.price, f.at, f.fees);
        }
        if (!split) split = await addSplit(t.client, { symbol, date: "2026-06-10", newShares: String(n), oldShares: String(o) });

        // The reference model (tests/support/exact.ts) with fills before the split read in new shares: quantity
        // x new / old, price x old / new, each rounded half away from zero to 10 decimals, as Postgres does.
        const ordered = [...rows].sort((a, b) => a.at.localeCompare(b.at));
        const before = (f: (typeof rows)[number]) => f.day < 10;
        const expected = positionModel(
          ordered.map((f) => ({
            side: f.side,
            qty: before(f) ? roundDiv(toS(String(f.qty)) * n, o) : toS(String(f.qty)),
            price: before(f) ? roundDiv(toS(f.price) * o, n) : toS(f.price),
            fees: toS(f.fees),
          })),
        );
        const actual = await tradesOf(t.client, accountId);
        expect(actual.filter((x) => x.status === "closed").map((x) => [x.direction, x.grossPnl, x.fees, x.netPnl])).toEqual(
          expected.closed.map((c) => [c.direction, fmt(c.gross), fmt(c.fees), fmt(c.gross - c.fees)]),
        );
        expect(actual.filter((x) => x.status === "open").map((x) => [x.direction, x.openQuantity])).toEqual(expected.open ? [[expected.open.direction, fmt(expected.open.qty)]] : []);
        // Cash is the fills' own, split or not.
        const cash = rows.reduce((sum, f) => sum + ((f.side === "buy" ? -1n : 1n) * toS(String(f.qty)) * toS(f.price)) / S - toS(f.fees), 0n);
        expect(await balanceOf(t.client, accountId)).toBe(fmt(cash));
        // What the incremental rebuilds left is what a full replay leaves.
        const state = async () =>
          rowsOf(
            await t.db.execute(sql`select p.open_fill_id::text, p.direction, p.open_quantity::text, p.entry_value::text, p.exit_value::text, p.gross_pnl::text, p.fees::text,
              (select json_agg(json_build_array(pf.fill_id, pf.role, pf.quantity::text, pf.fees::text) order by pf.executed_at, pf.fill_id, pf.role) from position_fills pf where pf.position_id = p.id) as shares
              from positions p where p.account_id = ${accountId} order by p.opened_at, p.open_fill_id`),
          );
        const incremental = await state();
        await t.db.execute(sql`select positions_rebuild(${accountId}::uuid, ${symbol})`);
        expect(await state()).toEqual(incremental);
      }),
      { numRuns: 40 },
    );
  });
});
