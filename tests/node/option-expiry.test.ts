// Option expiry (docs/trading.md, "Option expiry and assignment"): an option still open after its expiry is
// closed at 0 by a fill the journal generates, marked as such; the broker's own rows replace it; deleting it
// keeps the option open for good; editing it makes it the trader's; an import undone asks again; the job
// closes options as they expire. What is written on the trade follows. Real Postgres.
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { expireOptionsJob, runJobs } from "../../lib/jobs/index.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_HEADER } from "../support/csv.ts";

const url = () => inject("databaseUrl");
const CALL = "AAPL  240216C00190000"; // expired 2024-02-16, 16:00 New York = 21:00 UTC
const PUT = "SPY   240216P00470000";
const EXPIRY = "2024-02-16T21:00:00.000Z";

async function trader() {
  const j = await journal(url());
  const { client } = await j.signUp("expiry");
  const res = await client.post("/api/accounts", { name: `Options ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" });
  expect(res.status).toBe(201);
  return { ...j, client, accountId: (await res.json()).id as string };
}
type Trader = Awaited<ReturnType<typeof trader>>;

async function addFill(t: Trader, body: Record<string, string>) {
  const res = await t.client.post("/api/fills", { accountId: t.accountId, fees: "0", ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

type Fill = { id: string; symbol: string; side: string; quantity: string; price: string; executedAt: string; generated: string | null; importId: string | null };
async function fillsOf(client: TestClient, accountId: string, symbol: string) {
  const res = await client.get(`/api/fills?accountId=${accountId}&symbol=${encodeURIComponent(symbol)}&pageSize=100`);
  expect(res.status).toBe(200);
  return ((await res.json()).fills as Fill[]).reverse();
}

async function tradesOf(client: TestClient, accountId: string, symbol: string) {
  const res = await client.get(`/api/trades?accountId=${accountId}&symbol=${encodeURIComponent(symbol)}&pageSize=100`);
  return ((await res.json()).trades as Array<{ id: string; status: string; direction: string; netPnl: string; notes: string | null; closedAt: string | null }>).reverse();
}

const balanceOf = async (client: TestClient, accountId: string) => (await (await client.get(`/api/accounts/${accountId}`)).json()).balance as string;

function importCsv(t: Trader, rows: string[]) {
  const form = new FormData();
  form.set("file", new Blob([[GENERIC_HEADER, ...rows].join("\n")]), "broker.csv");
  form.set("request", JSON.stringify({ accountId: t.accountId, presetId: "generic" }));
  return t.client.request("/api/csv-import/preview", { method: "POST", body: form }).then(async (r) => {
    expect(r.status, await r.clone().text()).toBe(201);
    const preview = await r.json();
    const commit = await t.client.post("/api/csv-import/commit", { importId: preview.importId });
    expect(commit.status, await commit.clone().text()).toBe(200);
    return preview.importId as string;
  });
}

describe("an option still open after its expiry", () => {
  it("closes at 0 on its expiry with a generated fill that moves no cash; the trade's notes stay on it", async () => {
    const t = await trader();
    await addFill(t, { symbol: CALL, side: "buy", quantity: "2", price: "3.45", fees: "1.30", executedAt: "2024-01-19T15:31:07Z" });
    const fills = await fillsOf(t.client, t.accountId, CALL);
    expect(fills.map((f) => [f.side, f.quantity, f.price, f.executedAt, f.generated])).toEqual([
      ["buy", "2.00", "3.45", "2024-01-19T15:31:07.000Z", null],
      ["sell", "2.00", "0.00", EXPIRY, "expiry"],
    ]);
    const [trade] = await tradesOf(t.client, t.accountId, CALL);
    expect(trade).toMatchObject({ status: "closed", closedAt: EXPIRY, netPnl: "-691.30" }); // 2 x 3.45 x 100 + 1.30
    expect(await balanceOf(t.client, t.accountId)).toBe("9308.70");
    const entry = rowsOf<{ amount: string }>(await t.db.execute(sql`select amount::text from ledger_entries where fill_id = ${fills[1]!.id}::uuid`));
    expect(entry).toEqual([{ amount: "0.0000000000" }]);
    // Notes written on it survive the generated fill being replaced.
    expect((await t.client.request(`/api/trades/${trade!.id}`, { method: "PATCH", json: { notes: "Bought too late in the cycle" } })).status).toBe(200);
    await importCsv(t, [`2024-02-16T22:00:00Z,${CALL},SELL,2,0,0,EXP-1`]);
    const after = await fillsOf(t.client, t.accountId, CALL);
    expect(after.map((f) => [f.side, f.price, f.executedAt, f.generated])).toEqual([
      ["buy", "3.45", "2024-01-19T15:31:07.000Z", null],
      ["sell", "0.00", "2024-02-16T22:00:00.000Z", null],
    ]);
    expect((await tradesOf(t.client, t.accountId, CALL)).map((x) => [x.status, x.netPnl, x.notes])).toEqual([["closed", "-691.30", "Bought too late in the cycle"]]);
    expect(await balanceOf(t.client, t.accountId)).toBe("9308.70");
  });

  it("the broker's assignment rows replace it: the option closes at 0, the stock opens at the strike", async () => {
    const t = await trader();
    await addFill(t, { symbol: PUT, side: "sell", quantity: "1", price: "3.85", fees: "1.00", executedAt: "2024-01-19T15:31:07Z" });
    expect((await fillsOf(t.client, t.accountId, PUT)).map((f) => f.generated)).toEqual([null, "expiry"]);
    const importId = await importCsv(t, [`2024-02-16T21:20:00Z,${PUT},BUY,1,0,0,A-1`, "2024-02-16T21:20:00Z,SPY,BUY,100,470,0,A-2"]);
    expect((await fillsOf(t.client, t.accountId, PUT)).map((f) => [f.side, f.generated, f.executedAt])).toEqual([
      ["sell", null, "2024-01-19T15:31:07.000Z"],
      ["buy", null, "2024-02-16T21:20:00.000Z"],
    ]);
    expect((await tradesOf(t.client, t.accountId, PUT)).map((x) => [x.direction, x.status, x.netPnl])).toEqual([["short", "closed", "384.00"]]);
    expect((await tradesOf(t.client, t.accountId, "SPY")).map((x) => [x.direction, x.status])).toEqual([["long", "open"]]);
    // The import undone: the put is open after its expiry again, so the journal closes it again.
    expect((await t.client.post(`/api/csv-import/${importId}/undo`)).status).toBe(200);
    expect((await fillsOf(t.client, t.accountId, PUT)).map((f) => [f.side, f.generated, f.executedAt])).toEqual([
      ["sell", null, "2024-01-19T15:31:07.000Z"],
      ["buy", "expiry", EXPIRY],
    ]);
    expect(await tradesOf(t.client, t.accountId, "SPY")).toEqual([]);
  });

  it("deleting the generated fill keeps the option open for good; editing it makes it the trader's; a later fill asks again", async () => {
    const t = await trader();
    await addFill(t, { symbol: CALL, side: "buy", quantity: "1", price: "3.00", executedAt: "2024-01-19T15:31:07Z" });
    const generated = (await fillsOf(t.client, t.accountId, CALL))[1]!;
    expect(generated.generated).toBe("expiry");
    expect((await t.client.delete(`/api/fills/${generated.id}`)).status).toBe(204);
    expect((await tradesOf(t.client, t.accountId, CALL)).map((x) => x.status)).toEqual(["open"]);
    // Neither the job nor another fill of the symbol closes it again.
    const outcome = await runJobs(t.t.deps, [expireOptionsJob]);
    expect(outcome["expire-options"]).toBeGreaterThanOrEqual(0);
    await addFill(t, { symbol: CALL, side: "buy", quantity: "1", price: "2.00", executedAt: "2024-01-22T15:00:00Z" });
    expect((await fillsOf(t.client, t.accountId, CALL)).map((f) => f.generated)).toEqual([null, null]);
    expect((await tradesOf(t.client, t.accountId, CALL)).map((x) => x.status)).toEqual(["open"]);

    // Another option: its generated close edited to what the trader really got becomes theirs.
    await addFill(t, { symbol: PUT, side: "buy", quantity: "1", price: "1.00", executedAt: "2024-01-19T15:31:07Z" });
    const close = (await fillsOf(t.client, t.accountId, PUT))[1]!;
    const edited = await t.client.request(`/api/fills/${close.id}`, { method: "PATCH", json: { price: "0.05" } });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ price: "0.05", generated: null });
    expect((await tradesOf(t.client, t.accountId, PUT)).map((x) => [x.status, x.netPnl])).toEqual([["closed", "-95.00"]]);
    // Adding a missed opening fill asks again for a generated close of the new size: none is generated over the trader's own close.
    await addFill(t, { symbol: PUT, side: "buy", quantity: "1", price: "1.00", executedAt: "2024-01-19T15:40:00Z" });
    // (The two sells share the expiry instant, so their order in the list is by id: compare them as a set.)
    const rows = (await fillsOf(t.client, t.accountId, PUT)).map((f) => [f.side, f.quantity, f.generated ?? "-"].join(" "));
    expect(rows.toSorted()).toEqual(["buy 1.00 -", "buy 1.00 -", "sell 1.00 -", "sell 1.00 expiry"]);
  });

  it("the job closes options as they expire, once, and leaves those not yet expired", async () => {
    const later = await journal(url(), {});
    const { client } = await later.signUp("expiry-job");
    const accountId = (await (await client.post("/api/accounts", { name: "Job", currency: "USD", timezone: "America/New_York" })).json()).id as string;
    // Expires 2031-01-17: open today.
    const future = "AAPL  310117C00200000";
    expect((await client.post("/api/fills", { accountId, symbol: future, side: "sell", quantity: "3", price: "12.00", fees: "0", executedAt: "2026-01-05T15:00:00Z" })).status).toBe(201);
    expect((await runJobs(later.t.deps, [expireOptionsJob]))["expire-options"]).toBe(0);
    expect((await tradesOf(client, accountId, future)).map((x) => x.status)).toEqual(["open"]);
    // On a clock past the expiry, the job closes it; run again, it has nothing to do.
    const deps = { ...later.t.deps, now: () => new Date("2031-01-20T12:00:00Z") };
    expect((await runJobs(deps, [expireOptionsJob]))["expire-options"]).toBeGreaterThanOrEqual(1);
    expect((await fillsOf(client, accountId, future)).map((f) => [f.side, f.quantity, f.price, f.executedAt, f.generated])).toEqual([
      ["sell", "3.00", "12.00", "2026-01-05T15:00:00.000Z", null],
      ["buy", "3.00", "0.00", "2031-01-17T21:00:00.000Z", "expiry"],
    ]);
    const before = await fillsOf(client, accountId, future);
    await runJobs(deps, [expireOptionsJob]);
    expect(await fillsOf(client, accountId, future)).toEqual(before);
    expect((await tradesOf(client, accountId, future)).map((x) => [x.direction, x.status, x.netPnl])).toEqual([["short", "closed", "3600.00"]]);
  });
});

describe("assignment, exercise and expiration rows of the broker samples", () => {
  it.each([
    ["tastytrade", "248.86", "-46.13"],
    ["ibkr-activity", "248.95", "-46.05"],
  ])("%s: the assigned put closes at 0 and delivers the stock at the strike; the expired call closes at 0; nothing is generated", async (presetId, putNet, callNet) => {
    const t = await trader();
    const form = new FormData();
    form.set("file", new Blob([readFileSync(new URL(`../fixtures/brokers/${presetId}.csv`, import.meta.url), "utf8")]), `${presetId}.csv`);
    form.set("request", JSON.stringify({ accountId: t.accountId, presetId }));
    const preview = await (await t.client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
    expect(preview.summary?.errors ?? 0).toBe(0);
    expect((await t.client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
    expect((await tradesOf(t.client, t.accountId, "AAPL  240216P00190000")).map((x) => [x.direction, x.status, x.netPnl])).toEqual([["short", "closed", putNet]]);
    expect((await tradesOf(t.client, t.accountId, "SPY   240216C00500000")).map((x) => [x.direction, x.status, x.netPnl])).toEqual([["long", "closed", callNet]]);
    const aapl = await tradesOf(t.client, t.accountId, "AAPL");
    expect(aapl.map((x) => [x.direction, x.status])).toEqual([
      ["long", "closed"],
      ["long", "open"],
    ]);
    const delivered = (await (await t.client.get(`/api/trades/${aapl[1]!.id}`)).json()).trade;
    expect(delivered).toMatchObject({ openQuantity: "100.00", averageEntryPrice: "190.00", openedAt: "2024-02-16T" + (presetId === "tastytrade" ? "22:00" : "21:20") + ":00.000Z" });
    const generated = rowsOf(await t.db.execute(sql`select 1 from fills where account_id = ${t.accountId}::uuid and generated is not null`));
    expect(generated).toEqual([]);
  });
});

