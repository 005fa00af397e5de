// Prop-firm evaluations through the API (issue 56, docs/prop-firms.md): the presets, an account's evaluation
// set from one and its status after the trader's fills, the breach on its fill, and rules that cannot hold
// together refused with nothing written. Real Postgres, the real migrations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import pg from "pg";
import { testApp, signUp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { rowsOf } from "../../lib/db/rows.ts";

let db: { name: string; url: string };
let t: TestApp;

beforeAll(async () => {
  db = await createMigratedDatabase("journal_prop");
  t = await testApp(db.url, {}, { now: () => new Date("2026-03-20T12:00:00Z"), peer: "per-request" });
});
afterAll(async () => {
  if (db) await dropDatabase(db.name);
});

async function json(res: Response, status = 200) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

async function account(client: TestClient, currency = "USD") {
  return (await json(await client.post("/api/accounts", { name: `Eval ${crypto.randomUUID()}`, currency, timezone: "America/Chicago" }), 201)).id as string;
}

const put = (client: TestClient, accountId: string, body: unknown) => client.request(`/api/accounts/${accountId}/evaluation`, { method: "PUT", json: body });

/** The preset's rules as a PUT body, with the trader's start and changes. */
async function fromPreset(client: TestClient, id: string, changes: Record<string, unknown> = {}) {
  const { firms } = await json(await client.get("/api/prop-firms"));
  const preset = firms.find((f: { id: string }) => f.id === id);
  return { firm: preset.firm, phase: preset.phase, startDate: "2026-03-03", currency: preset.currency, ...preset.rules, ...changes };
}

describe("prop-firm evaluations", () => {
  it("lists the presets, each with its date checked and sources", async () => {
    const { client } = await signUp(t, "prop");
    const { firms } = await json(await client.get("/api/prop-firms"));
    expect(new Set(firms.map((f: { firm: string }) => f.firm)).size).toBeGreaterThanOrEqual(10);
    expect(firms.find((f: { id: string }) => f.id === "topstep-combine-50k")).toMatchObject({
      firm: "Topstep", currency: "USD", checkedOn: "2026-11-29",
      rules: { startingBalance: "50000.00", maxDrawdown: "2000.00", drawdownMode: "eod_trailing", floorLocksAt: "0.00", dayStartsAt: "17:00", dayZone: "America/Chicago" },
    });
  });

  it("runs the account's fills under the rules: the intraday peak's floor, the breach on its fill, the status after each fill", async () => {
    const { client } = await signUp(t, "prop");
    const id = await account(client);
    const body = await fromPreset(client, "apex-full-50k");
    const set = await json(await put(client, id, body));
    expect(set.evaluation).toMatchObject({ accountId: id, firm: "Apex Trader Funding", phase: "evaluation", startDate: "2026-03-03", drawdownMode: "intraday_trailing", maxDrawdown: "2500.00" });
    expect((await json(await client.get(`/api/accounts/${id}/evaluation`))).status).toMatchObject({ state: "active", balance: "50000.00", floor: "47500.00", tradingDays: 0 });

    const fill = async (side: "buy" | "sell", price: string, executedAt: string) =>
      (await json(await client.post("/api/fills", { accountId: id, symbol: "ESM6", side, quantity: "1", price, executedAt }), 201)).id as string;
    // A fill before the start does not count.
    await fill("buy", "5000", "2026-03-02T15:00:00Z");
    await fill("sell", "4900", "2026-03-02T16:00:00Z");
    // +3,000 (peak 53,000: floor 50,500), then -2,750: 50,250 is under the floor.
    await fill("buy", "5000", "2026-03-03T15:00:00Z");
    await fill("sell", "5060", "2026-03-03T16:00:00Z");
    let status = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
    expect(status).toMatchObject({ state: "active", balance: "53000.00", floor: "50500.00", distanceToFloor: "2500.00", profitToTarget: "0.00", tradingDays: 1 });
    await fill("buy", "5060", "2026-03-04T15:00:00Z");
    const breaking = await fill("sell", "5005", "2026-03-04T16:00:00Z");
    status = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
    expect(status).toMatchObject({ state: "breached", breachRule: "max_drawdown", breachFillId: breaking, breachedAt: "2026-03-04T16:00:00.000Z", balance: "50250.00", floor: "50500.00" });

    // The replay of the same trades under the same rules gives the live status, day by day.
    const { firm: _f, phase: _p, startDate: _s, currency: _c, ...rules } = body;
    const replay = await json(await client.post("/api/prop-firms/replay", { accountId: id, rules, from: "2026-03-03", to: "2026-03-19" }));
    expect(replay).toMatchObject({ passedOn: null, breachedOn: "2026-03-04", breachRule: "max_drawdown" });
    expect(replay.status).toEqual(status);
    expect(replay.days.map((d: { day: string; endBalance: string; floor: string }) => [d.day, d.endBalance, d.floor])).toEqual([
      ["2026-03-03", "53000.00", "50500.00"],
      ["2026-03-04", "50250.00", "50500.00"],
    ]);
    // Under a static floor with one day needed: passed on the first day.
    expect(await json(await client.post("/api/prop-firms/replay", { accountId: id, rules: { ...rules, drawdownMode: "static", minTradingDays: 1 }, from: "2026-03-03", to: "2026-03-19" }))).toMatchObject({
      passedOn: "2026-03-03", breachedOn: null, status: { state: "passed" },
    });
    expect((await json(await client.post("/api/prop-firms/replay", { accountId: id, rules, from: "2026-03-19", to: "2026-03-03" }), 400)).error.fields[0].path).toBe("to");
    expect((await json(await client.post("/api/prop-firms/replay", { accountId: id, rules: { ...rules, dailyLossLimit: "9000" }, from: "2026-03-03", to: "2026-03-19" }), 400)).error.fields[0].path).toBe("rules.dailyLossLimit");
    const stranger = await signUp(t, "prop-stranger");
    expect((await json(await stranger.client.post("/api/prop-firms/replay", { accountId: id, rules, from: "2026-03-03", to: "2026-03-19" }), 404)).error.code).toBe("NOT_FOUND");

    // The status is kept after its fills, and follows every change: a fill written before where it stops, one
    // deleted, one after it; each time the same as a run over every fill (the replay).
    const kept = async () => rowsOf<{ through: string | null }>(await t.deps.db.execute(sql`select through_id::text as through from prop_evaluations where account_id = ${id}::uuid`))[0]!.through;
    expect(await kept()).toBe(breaking);
    const fresh = async () => (await json(await client.post("/api/prop-firms/replay", { accountId: id, rules, from: "2026-03-03", to: "2026-03-19" }))).status;
    const backdated = await fill("buy", "5000", "2026-03-03T15:30:00Z");
    expect(await kept()).toBeNull();
    const afterBackdated = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
    expect(afterBackdated).toEqual(await fresh());
    expect(afterBackdated.balance).not.toBe(status.balance);
    expect(await kept()).not.toBeNull();
    expect((await client.request(`/api/fills/${backdated}`, { method: "DELETE" })).status).toBe(204);
    expect((await json(await client.get(`/api/accounts/${id}/evaluation`))).status).toEqual(status);
    await fill("buy", "5000", "2026-03-05T15:00:00Z");
    await client.get(`/api/accounts/${id}/evaluation`);
    await fill("sell", "5010", "2026-03-05T15:05:00Z");
    const afterMore = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
    expect(afterMore).toEqual(await fresh());
    expect(afterMore.balance).toBe("50750.00");

    // The same fills under an end-of-day trail: day 1 closed at 53,000, so the floor is 50,500 on day 2: breached
    // on the same fill; under a static floor, active (7 days needed).
    await json(await put(client, id, { ...body, drawdownMode: "eod_trailing" }));
    expect((await json(await client.get(`/api/accounts/${id}/evaluation`))).status).toMatchObject({ state: "breached", breachFillId: breaking, floor: "50500.00" });
    await json(await put(client, id, { ...body, drawdownMode: "static" }));
    expect((await json(await client.get(`/api/accounts/${id}/evaluation`))).status).toMatchObject({ state: "active", floor: "47500.00", tradingDays: 3 });
    await json(await put(client, id, { ...body, drawdownMode: "static", minTradingDays: 1 }));
    // With one day needed, the evaluation was passed at the end of day 1 (+3,000): passed it stays, though the
    // profit is 750 now.
    expect((await json(await client.get(`/api/accounts/${id}/evaluation`))).status).toMatchObject({ state: "passed", profitToTarget: "2250.00" });

    expect(await json(await client.delete(`/api/accounts/${id}/evaluation`), 204)).toBeNull();
    expect((await json(await client.get(`/api/accounts/${id}/evaluation`), 404)).error.code).toBe("NOT_FOUND");
    expect((await json(await client.delete(`/api/accounts/${id}/evaluation`), 404)).error.code).toBe("NOT_FOUND");
    // The trades stay.
    expect((await json(await client.get(`/api/trades?accountId=${id}`))).trades).toHaveLength(4);
  });

  it("reads the trader's 1-minute bars between fills for the intraday modes: a dip under the floor breaches at its bar, and bars uploaded later drop the kept state", async () => {
    const { client } = await signUp(t, "prop");
    const id = await account(client);
    const body = await fromPreset(client, "apex-full-50k"); // intraday trailing, 2,500
    await json(await put(client, id, body));
    const fill = async (side: "buy" | "sell", price: string, executedAt: string) =>
      (await json(await client.post("/api/fills", { accountId: id, symbol: "ESM6", side, quantity: "1", price, executedAt }), 201)).id as string;
    // Long 1 from 15:00:30 to 15:10:30; the minute bars between say it fell to 4,948 (-2,600) at 15:05.
    await fill("buy", "5000", "2026-03-03T15:00:30Z");
    await fill("sell", "5010", "2026-03-03T15:10:30Z");
    const before = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
    expect(before).toMatchObject({ state: "active", balance: "50500.00" });
    const minute = (m: number) => `2026-03-03T15:${String(m).padStart(2, "0")}:00Z`;
    const rows = ["time,open,high,low,close,volume"];
    for (let m = 0; m <= 11; m++) rows.push(`${minute(m)},5000,${m === 5 ? "5001" : "5002"},${m === 5 ? "4948" : m === 0 ? "4900" : "4999"},5000,10`);
    const form = new FormData();
    form.set("file", new Blob([rows.join("\n")]), "es.csv");
    form.set("symbol", "ESM6");
    form.set("resolution", "1m");
    expect((await client.request("/api/bars/upload", { method: "POST", body: form })).status).toBe(201);
    // The bar of 15:00 holds the opening fill (left out: its 4,900 may have come before it); 15:05's does not.
    const after = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
    expect(after).toMatchObject({ state: "breached", breachRule: "max_drawdown", breachFillId: null, breachedAt: "2026-03-03T15:05:00.000Z", balance: "50500.00" });
    // The end-of-day mode does not read them.
    await json(await put(client, id, { ...body, drawdownMode: "eod_trailing" }));
    expect((await json(await client.get(`/api/accounts/${id}/evaluation`))).status).toMatchObject({ state: "active" });
    // The replay reads them as the status does.
    const { firm: _f, phase: _p, startDate: _s, currency: _c, ...rules } = body;
    expect((await json(await client.post("/api/prop-firms/replay", { accountId: id, rules, from: "2026-03-03", to: "2026-03-19" }))).status).toEqual(after);
  });

  it("never keeps a state that misses a fill written while the status ran (real concurrency)", async () => {
    const { client } = await signUp(t, "prop");
    const id = await account(client);
    const body = await fromPreset(client, "apex-full-50k");
    await json(await put(client, id, body));
    const { firm: _f, phase: _p, startDate: _s, currency: _c, ...rules } = body;
    const fill = (side: "buy" | "sell", price: string, executedAt: string) => client.post("/api/fills", { accountId: id, symbol: "ESM6", side, quantity: "1", price, executedAt });
    await fill("buy", "5000", "2026-03-04T15:00:00Z");
    await fill("sell", "5020", "2026-03-04T16:00:00Z");
    // Deterministically: a backdated fill's transaction still open while a status runs past the kept state;
    // the status's keeping waits on it, and must not keep a state without it once it commits.
    await client.get(`/api/accounts/${id}/evaluation`);
    await fill("buy", "5000", "2026-03-05T15:00:00Z");
    const writer = new pg.Client({ connectionString: db.url });
    await writer.connect();
    try {
      await writer.query("begin");
      await writer.query(`insert into fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at)
        values ($1, 'ESM6', 'future', 50, 'sell', 1, 5100, 0, '2026-03-03T20:00:00Z')`, [id]);
      const reading = client.get(`/api/accounts/${id}/evaluation`);
      await new Promise((r) => setTimeout(r, 300));
      await writer.query("commit");
      expect((await reading).status).toBe(200);
    } finally {
      await writer.end();
    }
    const after = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
    expect(after).toEqual((await json(await client.post("/api/prop-firms/replay", { accountId: id, rules, from: "2026-03-03", to: "2026-03-19" }))).status);

    for (let i = 0; i < 10; i++) {
      // Each round a round trip earlier than the fills already run, written beside two reads of the status.
      const at = (m: number) => `2026-03-03T${String(14 + Math.floor(i / 2)).padStart(2, "0")}:${String((i % 2) * 30 + m).padStart(2, "0")}:00Z`;
      await Promise.all([client.get(`/api/accounts/${id}/evaluation`), fill("buy", "5000", at(0)), client.get(`/api/accounts/${id}/evaluation`), fill("sell", String(5001 + i), at(5))]);
      const status = (await json(await client.get(`/api/accounts/${id}/evaluation`))).status;
      const replayed = (await json(await client.post("/api/prop-firms/replay", { accountId: id, rules, from: "2026-03-03", to: "2026-03-19" }))).status;
      expect(status, `round ${i}`).toEqual(replayed);
    }
  });

  it("keeps a firm's fees and payouts as ledger entries and sums them per account and currency; only cash counts, never a breached balance", async () => {
    const { client } = await signUp(t, "prop");
    const breached = await account(client);
    const funded = await account(client);
    await account(client); // no evaluation, no fee: not in the summary
    const body = await fromPreset(client, "apex-full-50k");
    await json(await put(client, breached, body));
    await json(await put(client, funded, { ...body, phase: "funded", profitTarget: null }));
    // The breached one lost past its floor: 50,000 - 2,750.
    await client.post("/api/fills", { accountId: breached, symbol: "ESM6", side: "buy", quantity: "1", price: "5000", executedAt: "2026-03-03T15:00:00Z" });
    await client.post("/api/fills", { accountId: breached, symbol: "ESM6", side: "sell", quantity: "1", price: "4945", executedAt: "2026-03-03T16:00:00Z" });
    const entry = (accountId: string, type: string, amount: string, note: string) =>
      client.post(`/api/ledger/${accountId}/entries`, { type, amount, occurredAt: "2026-03-02T12:00:00Z", note });
    expect((await json(await entry(breached, "prop_fee", "150", "Evaluation"), 201))).toMatchObject({ type: "prop_fee", amount: "-150.00", note: "Evaluation" });
    const reset = await json(await entry(breached, "prop_fee", "100", "Reset"), 201);
    await json(await entry(funded, "prop_fee", "130", "Activation"), 201);
    await json(await entry(funded, "payout", "1000", "First payout"), 201);
    // A fee is a positive amount; its sign is the type's.
    expect((await json(await entry(funded, "payout", "-5", "wrong"), 400)).error.fields[0].path).toBe("amount");
    // The evaluation's balance is its fills' only.
    expect((await json(await client.get(`/api/accounts/${breached}/evaluation`))).status).toMatchObject({ state: "breached", balance: "47250.00" });

    const summary = await json(await client.get("/api/prop-firms/summary"));
    expect(summary.accounts.map((a: { accountId: string }) => a.accountId).sort()).toEqual([breached, funded].sort());
    expect(summary.accounts.find((a: { accountId: string }) => a.accountId === breached)).toMatchObject({ state: "breached", phase: "evaluation", feesPaid: "250.00", payoutsReceived: "0.00", netCash: "-250.00", roi: "-1.0000" });
    expect(summary.accounts.find((a: { accountId: string }) => a.accountId === funded)).toMatchObject({ state: "active", phase: "funded", feesPaid: "130.00", payoutsReceived: "1000.00", netCash: "870.00", roi: "6.6923" });
    // 620 / 380 = 1.63157...
    expect(summary.totals).toEqual([{ currency: "USD", accounts: 2, feesPaid: "380.00", payoutsReceived: "1000.00", netCash: "620.00", roi: "1.6316" }]);

    // A fee written by mistake is deleted like any entry of the trader's.
    expect((await client.request(`/api/ledger/${breached}/entries/${reset.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await json(await client.get("/api/prop-firms/summary"))).totals[0]).toMatchObject({ feesPaid: "280.00" });
  });

  it("refuses rules that cannot hold together, naming the field, and writes nothing; another user's account is 404", async () => {
    const { client, userId } = await signUp(t, "prop");
    const id = await account(client);
    const body = await fromPreset(client, "topstep-combine-50k");
    for (const [change, path] of [
      [{ dailyLossLimit: "2500" }, "dailyLossLimit"],
      [{ profitTarget: null }, "profitTarget"],
      [{ profitTarget: "0" }, "profitTarget"],
      [{ maxDrawdown: "60000" }, "maxDrawdown"],
      [{ dayZone: "Mars/Olympus" }, "dayZone"],
      [{ dayZone: "US/Central" }, "dayZone"],
      [{ dayStartsAt: "25:00" }, "dayStartsAt"],
      [{ drawdownMode: "trailing" }, "drawdownMode"],
      [{ consistencyPct: 0 }, "consistencyPct"],
      [{ maxContracts: 0 }, "maxContracts"],
      [{ startDate: "2026-02-30" }, "startDate"],
      [{ startingBalance: "abc" }, "startingBalance"],
      [{ drawdownMode: "static", floorLocksAt: "0" }, "floorLocksAt"],
      [{ drawdownOn: "margin" }, "drawdownOn"],
      [{ dailyLossSoft: "yes" }, "dailyLossSoft"],
      [{ minDayProfitPct: 0 }, "minDayProfitPct"],
      [{ minDayProfitPct: 101 }, "minDayProfitPct"],
      [{ currency: "EUR" }, "currency"],
      [{ colour: "blue" }, "colour"],
    ] as const) {
      const error = (await json(await put(client, id, { ...body, ...change }), 400)).error;
      expect(error.code, JSON.stringify(change)).toBe("VALIDATION_ERROR");
      expect(error.fields.map((f: { path: string }) => f.path), JSON.stringify(change)).toContain(path);
    }
    // A funded account needs no target.
    expect((await json(await put(client, id, { ...body, phase: "funded", profitTarget: null }))).evaluation.profitTarget).toBeNull();
    await json(await client.delete(`/api/accounts/${id}/evaluation`), 204);
    const [row] = rowsOf<{ n: number }>(await t.deps.db.execute(sql`select count(*)::int as n from prop_evaluations where user_id = ${userId}::uuid`));
    expect(row!.n).toBe(0);
    // A EUR account under USD rules.
    const eur = await account(client, "EUR");
    expect((await json(await put(client, eur, body), 400)).error.fields[0].path).toBe("currency");

    const other = await signUp(t, "prop-other");
    expect((await json(await put(other.client, id, body), 404)).error.code).toBe("NOT_FOUND");
    expect((await json(await other.client.get(`/api/accounts/${id}/evaluation`), 404)).error.code).toBe("NOT_FOUND");
  });
});
