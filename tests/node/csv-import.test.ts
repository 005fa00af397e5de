import { and, eq, isNull, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { csvImports, fills } from "../../lib/db/schema.ts";
import { IMPORT_PART_FILLS, purgeExpiredImports, recoverOrphanedImports } from "../../lib/imports/imports.ts";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { readProcessEnv } from "../../lib/config/index.ts";
import { journal, signUp, testApp } from "../support/app.ts";
import { baseTestEnv } from "../support/env.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_HEADER, GENERIC_SAMPLE } from "../support/csv.ts";

const url = () => inject("databaseUrl");
const HEADER = GENERIC_HEADER;

function upload(client: TestClient, csv: string | Uint8Array<ArrayBuffer>, request: unknown, fileName = "trades.csv") {
  const form = new FormData();
  form.set("file", new Blob([csv]), fileName);
  form.set("request", typeof request === "string" ? request : JSON.stringify(request));
  return client.request("/api/csv-import/preview", { method: "POST", body: form });
}

async function setup(env: Record<string, string> = {}, timezone = "America/New_York") {
  const j = await journal(url(), env);
  const { client } = await j.signUp("importer");
  const res = await client.post("/api/accounts", { name: `Import ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone });
  const accountId = (await res.json()).id as string;
  return { ...j, client, accountId };
}

const sample = GENERIC_SAMPLE;

async function preview(client: TestClient, accountId: string, csv = sample, extra: Record<string, unknown> = {}) {
  const res = await upload(client, csv, { accountId, presetId: "generic", ...extra });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** The fills an account got from its files (not those the journal generated to close expired options). */
async function fillCount(db: Awaited<ReturnType<typeof setup>>["db"], accountId: string) {
  return (await db.select().from(fills).where(and(eq(fills.accountId, accountId), isNull(fills.generated)))).length;
}

/** Each broker sample imported into an empty account: the cash it moves, added up by hand by the money rules. */
const FIXTURE_CASH: Record<string, string> = {
  generic: "506.00", // AAPL -19,151 + 19,224; ES: -2.25, then short covered 8.75 points x 50 = 437.50 - 2.25
  "ibkr-flex": "-41141.0036445", // AAPL -19,151 + 19,223.9963555; call -690 - 1.30; ES short opened: -2.05 (not its notional); MSFT call -520.65, exercised: 0 and 100 MSFT at 400 -40,000
  "ibkr-activity": "-414831.1536445", // AAPL as above; MSFT -396,105; ES -2.05; AAPL put +248.95, assigned: 0 and 100 AAPL at 190 -19,000; SPY call -46.05, expired: 0
  "schwab-tos": "9683.41", // the statement's own cash change (25,000 -> 34,683.41); the ES short moves nothing (no fee)
  webull: "4096.20",
  robinhood: "-12410.04", // the sum of Amount
  fidelity: "-12005.06", // the sum of Amount ($)
  etrade: "-11932.51", // the sum of Amount $ over the trades
  tastytrade: "-18580.13", // the sum of Total
  tradestation: "-760.72",
  tradovate: "321.44", // MES 5.25 x 2 x 5 = 52.50, NQ 13.75 x 20 = 275, fees 6.06
  ninjatrader: "197.06", // ES 212.50 then -75 (the close realises the rest of 137.50), MNQ 70.50, fees 10.94
  das: "147.50",
  tradezero: "146.89",
  schwab: "-10166.41", // the sum of Amount over the trades: AAPL +7,689.96 - 19,150; SPY call -831.32; TSLA short +2,124.95
  vanguard: "-46878.04", // AAPL +7,689.96 - 19,150; VTI -35,418
  firstrade: "-9335.09", // AAPL +7,689.96 - 19,150; TSLA short +2,124.95
  zerodha: "-40403.25", // INFY -82,012.50 + 82,645; RELIANCE -27,355 - 13,680.75 (no charges in a tradebook)
  kraken: "-4567.02343", // BTC -4,125 - 6.60 + 2,094.505 - 5.44571; ETH -2,520.45 - 4.03272
  coinbase: "-5032.102932", // the sum of total
  trading212: "-11991.25", // AAPL -19,150 + 7,690; TSLA -531.25
  degiro: "-6584.30", // the sum of Total (a euro account): ASML +3,445 - 6,814; SAP -3,215.30
};
/** The account's currency for each sample: DEGIRO's rows are in euros. */
const FIXTURE_CURRENCY: Record<string, string> = { degiro: "EUR" };

describe("CSV import: every broker sample moves the cash the money rules give", () => {
  it.each(Object.entries(FIXTURE_CASH))("%s: %s", async (presetId, cash) => {
    const { client, db } = await setup();
    const created = await client.post("/api/accounts", { name: `Empty ${crypto.randomUUID()}`, currency: FIXTURE_CURRENCY[presetId] ?? "USD", timezone: "America/New_York" });
    const accountId = (await created.json()).id as string;
    const { readFileSync } = await import("node:fs");
    const csv = readFileSync(new URL(`../fixtures/brokers/${presetId}.csv`, import.meta.url), "utf8");
    const res = await upload(client, csv, { accountId, presetId, ...(presetId === "das" ? { options: { tradeDate: "2024-01-19" } } : {}) });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = await res.json();
    expect(body.summary.cashEffect).toBe(cash);
    expect(body.summary.invalid).toBe(0);
    const skipped = body.rows.filter((r: { status: string }) => r.status === "skipped");
    expect(skipped).toHaveLength(body.summary.skipped);
    for (const r of skipped) expect(r.reason).toEqual(expect.any(String));
    expect((await client.post("/api/csv-import/commit", { importId: body.importId })).status).toBe(200);
    expect((await (await client.get(`/api/ledger/${accountId}`)).json()).runningBalanceAtFirstRow).toBe(cash);
    expect(await fillCount(db, accountId)).toBe(body.summary.toImport);
  });

  it("the same executions from two formats, with execution ids and without, are one set of fills", async () => {
    const { client, accountId, db } = await setup();
    const { readFileSync } = await import("node:fs");
    const flex = readFileSync(new URL("../fixtures/brokers/ibkr-flex.csv", import.meta.url), "utf8");
    const first = await upload(client, flex, { accountId, presetId: "ibkr-flex" });
    const firstBody = await first.json();
    await client.post("/api/csv-import/commit", { importId: firstBody.importId });
    const balance = (await (await client.get(`/api/ledger/${accountId}`)).json()).runningBalanceAtFirstRow;

    // The same seven executions in the generic format, without ids (times in New York, as IBKR wrote them).
    const generic = [
      HEADER,
      "2024-01-19T09:30:15,AAPL,BUY,100,191.50,1,",
      "2024-01-19T10:02:41,AAPL,SELL,100,192.25,1.0036445,",
      "2024-01-19T10:31:07,AAPL  240216C00195000,BUY,2,3.45,1.30,",
      "2024-01-19T11:05:00,ESH24,SELL,1,4812.25,2.05,",
      "2024-01-19T11:15:00,MSFT  240216C00400000,BUY,1,5.2,0.65,",
      "2024-02-16T16:20:00,MSFT  240216C00400000,SELL,1,0,0,",
      "2024-02-16T16:20:00,MSFT,BUY,100,400,0,",
    ].join("\n");
    const second = await preview(client, accountId, generic);
    expect(second.summary).toMatchObject({ valid: 7, duplicate: 7, toImport: 0 });
    await client.post("/api/csv-import/commit", { importId: second.importId });
    expect(await fillCount(db, accountId)).toBe(7);
    expect((await (await client.get(`/api/ledger/${accountId}`)).json()).runningBalanceAtFirstRow).toBe(balance);

    // The other way round, in a fresh account, and with the commit racing a later arrival: the file with ids
    // after the one without.
    const other = await client.post("/api/accounts", { name: `Other ${crypto.randomUUID()}`, currency: "USD" });
    const otherId = (await other.json()).id as string;
    const noIds = await preview(client, otherId, generic);
    const withIds = await (await upload(client, flex, { accountId: otherId, presetId: "ibkr-flex" })).json();
    expect(withIds.summary).toMatchObject({ duplicate: 0 }); // nothing committed yet
    await client.post("/api/csv-import/commit", { importId: noIds.importId });
    // The commit applies the rule again against what arrived since the preview.
    const commit = await client.post("/api/csv-import/commit", { importId: withIds.importId });
    expect(await commit.json()).toMatchObject({ status: "committed", fillsCreated: 0 });
    expect(await fillCount(db, otherId)).toBe(7);
  });

  it("a multi-currency broker file: each row goes to an account in its own currency, never into another's as if it were in it", async () => {
    const { client, db } = await setup();
    const { readFileSync } = await import("node:fs");
    const flex = readFileSync(new URL("../fixtures/brokers/ibkr-flex.csv", import.meta.url), "utf8");
    // The fixture's rows are in USD; one more, SAP bought on Xetra in euros.
    const header = flex.split("\n")[0]!.split(",");
    const sap = header.map((h) => {
      const column = h.replaceAll('"', "");
      const cells: Record<string, string> = {
        ClientAccountID: "U1234567", CurrencyPrimary: "EUR", AssetClass: "STK", Symbol: "SAP", Description: "SAP SE", Multiplier: "1",
        DateTime: "20240119;110000", TradeDate: "20240119", Exchange: "IBIS", Quantity: "10", TradePrice: "160.5", IBCommission: "-3",
        IBCommissionCurrency: "EUR", "Buy/Sell": "BUY", IBExecID: "0000e0d5.65a9e3c1.01.01", LevelOfDetail: "EXECUTION",
      };
      return `"${cells[column] ?? ""}"`;
    });
    const file = `${flex.trimEnd()}\n${sap.join(",")}\n`;
    const accounts: Record<string, string> = {};
    for (const currency of ["USD", "EUR"]) {
      accounts[currency] = (await (await client.post("/api/accounts", { name: `IBKR ${currency} ${crypto.randomUUID()}`, currency })).json()).id;
    }

    // Into the USD account: the euro row is an error of that row, the rest imports as before.
    const usd = await (await upload(client, file, { accountId: accounts.USD, presetId: "ibkr-flex" })).json();
    expect(usd.summary).toMatchObject({ invalid: 1, cashEffect: FIXTURE_CASH["ibkr-flex"] });
    expect(usd.errors).toEqual([
      {
        row: 10,
        column: "CurrencyPrimary",
        message: '"EUR" is not this account\'s currency (USD): the journal does not convert currencies, so import this row into an account in EUR',
      },
    ]);
    expect((await client.post("/api/csv-import/commit", { importId: usd.importId })).status).toBe(200);
    expect(await fillCount(db, accounts.USD!)).toBe(usd.summary.toImport);

    // Into the EUR account: the other way round, the SAP buy alone, its cash in euros.
    const eur = await (await upload(client, file, { accountId: accounts.EUR, presetId: "ibkr-flex" })).json();
    expect(eur.summary).toMatchObject({ valid: 1, invalid: 7, toImport: 1, cashEffect: "-1608.00" });
    expect(new Set(eur.errors.map((e: { column: string }) => e.column))).toEqual(new Set(["CurrencyPrimary"]));
    expect((await client.post("/api/csv-import/commit", { importId: eur.importId })).status).toBe(200);
    const fillsInEur = await db.select().from(fills).where(eq(fills.accountId, accounts.EUR!));
    expect(fillsInEur.map((f) => [f.symbol, f.quantity])).toEqual([["SAP", "10.0000000000"]]);
  });

  it("two executions at the same second with different ids stay two, in either format pairing", async () => {
    const { client, accountId, db } = await setup();
    const twins = [HEADER, "2026-03-03T10:00:00Z,MSFT,BUY,10,400,0,X1", "2026-03-03T10:00:00.500Z,MSFT,BUY,10,400,0,X2"].join("\n");
    const first = await preview(client, accountId, twins);
    expect(first.summary).toMatchObject({ valid: 2, duplicate: 0 });
    await client.post("/api/csv-import/commit", { importId: first.importId });
    // Without ids, the same second, side, quantity and price: already there.
    const plain = await preview(client, accountId, [HEADER, "2026-03-03T10:00:00.900Z,MSFT,BUY,10,400,0,"].join("\n"));
    expect(plain.summary).toMatchObject({ duplicate: 1, toImport: 0 });
    // A third id at that second: a different execution.
    const third = await preview(client, accountId, [HEADER, "2026-03-03T10:00:00Z,MSFT,BUY,10,400,0,X3"].join("\n"));
    expect(third.summary).toMatchObject({ duplicate: 0, toImport: 1 });
    expect(await fillCount(db, accountId)).toBe(2);
  });
});

describe("CSV import: preview and commit", () => {
  it("previews the generic preset (naive times in the account's zone), then commits fills, cash and trades", async () => {
    const { client, accountId, db } = await setup();
    const body = await preview(client, accountId);
    expect(body.summary).toEqual({ rows: 4, skipped: 0, valid: 4, invalid: 0, duplicate: 0, toImport: 4, deletedByHand: 0, cashEffect: "681.00" });
    expect(body.errors).toEqual([]);
    expect(body.fills[0]).toMatchObject({ row: 2, symbol: "AAPL", side: "buy", quantity: "100.00", executedAt: "2026-03-02T14:31:00.000Z", duplicate: false });
    expect(body.symbols).toEqual([
      { symbol: "AAPL", fills: 2, netQuantity: "0.00" },
      { symbol: "ESZ26", fills: 2, netQuantity: "0.00" },
    ]);
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect(await fillCount(db, accountId)).toBe(0);

    const commit = await client.post("/api/csv-import/commit", { importId: body.importId });
    expect(commit.status).toBe(200);
    expect(await commit.json()).toMatchObject({ status: "committed", fillsCreated: 4, fileName: "trades.csv" });
    expect(await fillCount(db, accountId)).toBe(4);
    const trades = (await (await client.get(`/api/trades?accountId=${accountId}`)).json()).trades;
    expect(trades.map((t: { symbol: string; netPnl: string }) => [t.symbol, t.netPnl]).sort()).toEqual([
      ["AAPL", "173.00"],
      ["ESZ26", "508.00"],
    ]);
    expect((await (await client.get(`/api/ledger/${accountId}`)).json()).runningBalanceAtFirstRow).toBe("10681.00");
  });

  it("re-importing the same file changes nothing; distinct execution ids at the same second and price stay distinct", async () => {
    const { client, accountId, db } = await setup();
    const twins = [HEADER, "2026-03-03T10:00:00Z,MSFT,BUY,10,400,0,X1", "2026-03-03T10:00:00Z,MSFT,BUY,10,400,0,X2"].join("\n");
    const first = await preview(client, accountId, twins);
    expect(first.summary).toMatchObject({ valid: 2, duplicate: 0 });
    await client.post("/api/csv-import/commit", { importId: first.importId });
    expect(await fillCount(db, accountId)).toBe(2);

    const again = await preview(client, accountId, twins);
    expect(again.summary).toMatchObject({ valid: 2, duplicate: 2, toImport: 0 });
    expect(again.fills.every((f: { duplicate: boolean }) => f.duplicate)).toBe(true);
    const commit = await client.post("/api/csv-import/commit", { importId: again.importId });
    expect((await commit.json()).fillsCreated).toBe(0);
    expect(await fillCount(db, accountId)).toBe(2);
  });

  it("without execution ids, duplicates are found by content, within the file and against the account", async () => {
    const { client, accountId, db } = await setup();
    const noIds = ["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID", "2026-03-04T10:00:00Z,AMD,BUY,5,100,0,", "2026-03-04T10:00:00Z,AMD,BUY,5,100,0,"].join("\n");
    const body = await preview(client, accountId, noIds);
    expect(body.summary).toMatchObject({ valid: 2, duplicate: 1, toImport: 1 });
    await client.post("/api/csv-import/commit", { importId: body.importId });
    expect(await fillCount(db, accountId)).toBe(1);
    const again = await preview(client, accountId, noIds);
    expect(again.summary).toMatchObject({ duplicate: 2, toImport: 0 });
    // Opting in imports them anyway.
    const forced = await client.post("/api/csv-import/commit", { importId: again.importId, includeDuplicates: true });
    expect((await forced.json()).fillsCreated).toBe(2);
    expect(await fillCount(db, accountId)).toBe(3);
  });

  it("reports per-row, per-cell errors with spreadsheet row numbers and stages only the good rows", async () => {
    const { client, accountId } = await setup();
    const messy = [
      HEADER,
      "2026-03-05T10:00:00Z,SPY,BUY,1,500,0,G1",
      "not a date,SPY,BUY,1,500,0,B1",
      "2026-03-05T10:01:00Z,SPY,HOLD,abc,500,0,B2",
      "2026-03-05T10:02:00Z,=HYPERLINK(1),BUY,1,500,0,B3",
      '2026-03-05T10:03:00Z,SPY,SELL,1,501,0,"=1+1"',
    ].join("\n");
    const body = await preview(client, accountId, messy);
    expect(body.summary).toMatchObject({ rows: 5, valid: 2, invalid: 3 });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 3, column: "Date/Time" }),
        expect.objectContaining({ row: 4, column: "Side" }),
        expect.objectContaining({ row: 4, column: "Quantity" }),
        expect.objectContaining({ row: 5, column: "Symbol" }),
      ]),
    );
    expect(body.fills.map((f: { executionId: string }) => f.executionId)).toEqual(["G1", "=1+1"]); // stored as text
  });

  it("gives every row's fate in `rows`, in file order: valid, duplicate, or invalid with its errors", async () => {
    const { client, accountId } = await setup();
    const csv = [
      HEADER,
      "2026-03-06T10:00:00Z,QQQ,BUY,2,400,1,R1",
      "2026-03-06T10:01:00Z,QQQ,HOLD,abc,400,0,R2",
      "2026-03-06T10:02:00Z,QQQ,SELL,2,401,1,R1",
      "2026-03-06T10:03:00Z,QQQ,SELL,1,402,0,R3",
    ].join("\n");
    const body = await preview(client, accountId, csv);
    expect(body.rows).toEqual([
      { row: 2, status: "valid", fill: expect.objectContaining({ row: 2, symbol: "QQQ", side: "buy", quantity: "2.00", price: "400.00", fees: "1.00", executionId: "R1", duplicate: false }) },
      {
        row: 3,
        status: "invalid",
        errors: expect.arrayContaining([expect.objectContaining({ column: "Side" }), expect.objectContaining({ column: "Quantity" })]),
      },
      { row: 4, status: "duplicate", fill: expect.objectContaining({ row: 4, executionId: "R1", duplicate: true }) },
      { row: 5, status: "valid", fill: expect.objectContaining({ row: 5, executionId: "R3" }) },
    ]);
    expect(body.summary).toMatchObject({ rows: 4, valid: 3, invalid: 1, duplicate: 1, toImport: 2 });
  });

  it("reads European numbers, US dates with AM/PM, semicolons and a BOM", async () => {
    const { client, accountId } = await setup({}, "Europe/Berlin");
    const csv = "\uFEFFWhen;Ticker;Action;Qty;Px;Comm\n03/06/2026 9:30:15 AM;SAP;Buy;1.000;150,25;1,50\n";
    const body = await preview(client, accountId, csv, {
      presetId: undefined,
      mapping: { executedAt: "When", symbol: "Ticker", side: "Action", quantity: "Qty", price: "Px", fees: "Comm" },
      options: { dateFormat: "MM/DD/YYYY", numberFormat: "1.234,56" },
    });
    expect(body.errors).toEqual([]);
    expect(body.fills[0]).toMatchObject({ quantity: "1000.00", price: "150.25", fees: "1.50", executedAt: "2026-03-06T08:30:15.000Z" });
  });

  it("exactly one of ten concurrent commits succeeds; the rest get 409", async () => {
    const { client, accountId, db } = await setup();
    const { importId } = await preview(client, accountId);
    const results = await Promise.all(Array.from({ length: 10 }, () => client.post("/api/csv-import/commit", { importId })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    expect(await fillCount(db, accountId)).toBe(4);
  });

  it("a large preview is staged in parts, committed only whole, and leaves no part behind", async () => {
    const { client, accountId, db } = await setup({ CSV_IMPORT_MAX_ROWS: "20000" });
    // IMPORT_PART_FILLS + 1,001 round-trip fills: two parts.
    const rows = IMPORT_PART_FILLS + 1_001;
    const lines = [HEADER];
    for (let i = 0; i < rows; i++) {
      const at = new Date(Date.UTC(2026, 2, 2, 14, 30) + i * 60_000).toISOString();
      lines.push(`${at},SPY,${i % 2 ? "SELL" : "BUY"},1,${(500 + (i % 7)).toFixed(2)},0.10,P-${i}`);
    }
    const parts = async (importId: string) =>
      rowsOf<{ part: number; n: number }>(await db.execute(sql`select part, jsonb_array_length(fills) as n from csv_import_parts where import_id = ${importId}::uuid order by part`));
    const staged = async (importId: string) =>
      (await db.select({ staged: csvImports.staged, parts: csvImports.stagedParts, status: csvImports.status }).from(csvImports).where(eq(csvImports.id, importId)))[0]!;

    const first = await preview(client, accountId, lines.join("\n"));
    expect(first.summary.toImport).toBe(rows);
    expect(await parts(first.importId)).toEqual([{ part: 0, n: IMPORT_PART_FILLS }, { part: 1, n: 1_001 }]);
    expect(await staged(first.importId)).toEqual({ staged: null, parts: 2, status: "staged" });
    // A part missing (a preview still writing its parts): the commit takes nothing and says so.
    const missing = await db.execute(sql`delete from csv_import_parts where import_id = ${first.importId}::uuid and part = 1 returning fills`);
    const refused = await client.post("/api/csv-import/commit", { importId: first.importId });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toContain("still being staged");
    expect(await fillCount(db, accountId)).toBe(0);
    const part = JSON.stringify(rowsOf<{ fills: unknown }>(missing)[0]!.fills);
    await db.execute(sql`insert into csv_import_parts (import_id, part, fills) values (${first.importId}::uuid, 1, ${part}::jsonb)`);
    const done = await client.post("/api/csv-import/commit", { importId: first.importId });
    expect(done.status, await done.clone().text()).toBe(200);
    expect((await done.json()).fillsCreated).toBe(rows);
    expect(await fillCount(db, accountId)).toBe(rows);
    expect(await parts(first.importId)).toEqual([]);
    expect(await staged(first.importId)).toEqual({ staged: null, parts: null, status: "committed" });

    // A preview discarded takes its parts with it.
    const second = await preview(client, accountId, lines.join("\n"));
    expect((await parts(second.importId)).length).toBe(2);
    expect((await client.delete(`/api/csv-import/${second.importId}`)).status).toBe(204);
    expect(await parts(second.importId)).toEqual([]);
  });

  it("undo removes exactly the import's fills and cash entries and rebuilds trades; history lists it", async () => {
    const { client, accountId, db } = await setup();
    await client.post("/api/fills", { accountId, symbol: "AAPL", side: "buy", quantity: "1", price: "100", executedAt: "2026-03-01T15:00:00Z" });
    const { importId } = await preview(client, accountId);
    await client.post("/api/csv-import/commit", { importId });
    expect(await fillCount(db, accountId)).toBe(5);
    const undo = await client.post(`/api/csv-import/${importId}/undo`);
    expect(undo.status).toBe(200);
    expect((await undo.json()).status).toBe("undone");
    expect(await fillCount(db, accountId)).toBe(1);
    const ledger = await (await client.get(`/api/ledger/${accountId}`)).json();
    expect(ledger.runningBalanceAtFirstRow).toBe("9900.00");
    const trades = (await (await client.get(`/api/trades?accountId=${accountId}`)).json()).trades;
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ symbol: "AAPL", status: "open", openQuantity: "1.00" });
    expect((await client.post(`/api/csv-import/${importId}/undo`)).status).toBe(409);
    const history = await (await client.get(`/api/csv-import/history?accountId=${accountId}`)).json();
    expect(history.imports[0]).toMatchObject({ importId, status: "undone", fileName: "trades.csv", summary: { rows: 4 } });
  });

  it("a re-import after an undo says which fills the trader had deleted by hand (and when) before bringing them back", async () => {
    const { client, accountId } = await setup();
    const first = await preview(client, accountId);
    expect(first.summary.deletedByHand).toBe(0);
    expect((await client.post("/api/csv-import/commit", { importId: first.importId })).status).toBe(200);
    const { fills } = await (await client.get(`/api/fills?accountId=${accountId}`)).json();
    const gone = (fills as Array<{ id: string; executionId: string | null }>).find((f) => f.executionId === "E1")!;
    expect((await client.delete(`/api/fills/${gone.id}`)).status).toBe(204);
    // The same file again at once: the deleted fill is no duplicate now; the preview says it comes back.
    const again = await preview(client, accountId);
    expect(again.summary).toMatchObject({ duplicate: 3, toImport: 1, deletedByHand: 1 });
    const back = again.fills.find((f: { executionId: string | null }) => f.executionId === "E1");
    expect(back.deletedAt).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/));
    await client.delete(`/api/csv-import/${again.importId}`);
    // Undone, then imported again: the three it held come back unremarked, the one deleted by hand is named.
    expect((await client.post(`/api/csv-import/${first.importId}/undo`)).status).toBe(200);
    const after = await preview(client, accountId);
    expect(after.summary).toMatchObject({ duplicate: 0, toImport: 4, deletedByHand: 1 });
    expect(after.fills.filter((f: { deletedAt: string | null }) => f.deletedAt !== null).map((f: { executionId: string }) => f.executionId)).toEqual(["E1"]);
    // An undo itself leaves no such mark: another account, imported and undone, previews clean.
    const other = await setup();
    const once = await preview(other.client, other.accountId);
    await other.client.post("/api/csv-import/commit", { importId: once.importId });
    await other.client.post(`/api/csv-import/${once.importId}/undo`);
    expect((await preview(other.client, other.accountId)).summary.deletedByHand).toBe(0);
  });

  it("a Schwab file, newest first, with a sell and a buy of one stock on one date: one long 100 with 40 sold, never a short", async () => {
    const header = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
    const rows = [
      '"01/19/2024","Sell","AAPL","APPLE INC","40","$192.25","$0.04","$7,689.96"',
      '"01/19/2024","Buy","AAPL","APPLE INC","100","$191.50","","-$19,150.00"',
      '"01/17/2024","Buy","MSFT","MICROSOFT CORP","5","$390.00","","-$1,950.00"',
    ];
    for (const file of [[header, ...rows], [header, ...rows.toReversed()], [header, ...rows.slice(0, 2)]]) {
      const { client, accountId } = await setup();
      const res = await upload(client, file.join("\n"), { accountId, presetId: "schwab" });
      expect(res.status, await res.clone().text()).toBe(201);
      expect((await client.post("/api/csv-import/commit", { importId: (await res.json()).importId })).status).toBe(200);
      const trades = ((await (await client.get(`/api/trades?accountId=${accountId}&symbol=AAPL`)).json()).trades as Array<Record<string, unknown>>).filter((t) => t.symbol === "AAPL");
      expect(trades, file.join(" | ")).toHaveLength(1);
      expect(trades[0]).toMatchObject({ direction: "long", status: "open", openQuantity: "60.00" });
    }
  });

  it("a file name Postgres cannot store (a NUL) is kept without it, not a 500", async () => {
    const { client, accountId } = await setup();
    const res = await upload(client, GENERIC_SAMPLE, { accountId, presetId: "generic" }, "a\u0000b\ud800c.csv");
    expect(res.status, await res.clone().text()).toBe(201);
    const history = (await (await client.get(`/api/csv-import/history?accountId=${accountId}`)).json()).imports as Array<{ fileName: string }>;
    // The lone surrogate reaches the server as U+FFFD (the form's UTF-8 encoding); the NUL is dropped.
    expect(history[0]!.fileName).toBe("ab\ufffdc.csv");
  });

  it("a preview never committed is in the history until it expires, then out of it", async () => {
    const { client, accountId, db } = await setup();
    const { importId } = await preview(client, accountId);
    const listed = async () => ((await (await client.get(`/api/csv-import/history?accountId=${accountId}`)).json()).imports as Array<{ importId: string; status: string }>).map((i) => [i.importId, i.status]);
    expect(await listed()).toEqual([[importId, "staged"]]);
    await db.execute(sql`update csv_imports set expires_at = now() - interval '1 second' where id = ${importId}`);
    expect(await listed()).toEqual([]);
  });
});

describe("CSV import: the ledger after a commit", () => {
  async function ledgerConsistent(db: Awaited<ReturnType<typeof setup>>["db"], accountId: string) {
    const rows = rowsOf<{ rank: string; amount: string; balance_after: string }>(
      await db.execute(sql`select rank::text as rank, amount::text as amount, balance_after::text as balance_after
        from ledger_running where account_id = ${accountId} order by occurred_at, id`),
    );
    let running = 0;
    rows.forEach((r, i) => {
      running = Math.round((running + Number(r.amount)) * 100) / 100; // amounts here have 2 decimals
      expect([Number(r.rank), Number(r.balance_after)]).toEqual([i + 1, running]);
    });
    return rows.length;
  }

  it("keeps ranks and running balances right when the import appends and when it backfills history", async () => {
    const { client, accountId, db } = await setup();
    // Appending after the opening entry (dated now): every row is older, so this one backfills.
    const older = await preview(client, accountId);
    await client.post("/api/csv-import/commit", { importId: older.importId });
    expect(await ledgerConsistent(db, accountId)).toBe(5);
    // Entries after everything else: the append path.
    const later = [HEADER, "2099-01-02T10:00:00Z,IBM,BUY,1,100,0,L1", "2099-01-02T11:00:00Z,IBM,SELL,1,101,0,L2"].join("\n");
    const appended = await preview(client, accountId, later);
    await client.post("/api/csv-import/commit", { importId: appended.importId });
    expect(await ledgerConsistent(db, accountId)).toBe(7);
    // And in the middle.
    const middle = [HEADER, "2050-06-01T10:00:00Z,IBM,BUY,2,50,0,M1"].join("\n");
    const mid = await preview(client, accountId, middle);
    await client.post("/api/csv-import/commit", { importId: mid.importId });
    expect(await ledgerConsistent(db, accountId)).toBe(8);
    expect((await (await client.get(`/api/ledger/${accountId}`)).json()).runningBalanceAtFirstRow).toBe("10582.00");
  });
});

describe("CSV import: positions rebuilt from the first imported fill (property-based)", () => {
  type Db = Awaited<ReturnType<typeof setup>>["db"];
  type RandomFill = { symbol: string; buy: boolean; qty: number; cents: number; feeCents: number; minute: number };

  /** Every position and fill share of the account, keyed by opening fill (ids of new positions are random). */
  async function positionsOf(db: Db, accountId: string) {
    const positions = rowsOf<Record<string, string | null>>(
      await db.execute(sql`select id::text, open_fill_id::text, symbol, asset_class, multiplier::text, direction,
          opened_at::text, closed_at::text, open_quantity::text, max_quantity::text, entry_quantity::text, entry_value::text,
          exit_quantity::text, exit_value::text, fees::text, gross_pnl::text, net_pnl::text
        from positions where account_id = ${accountId} order by open_fill_id`),
    );
    const shares = rowsOf<Record<string, string>>(
      await db.execute(sql`select p.open_fill_id::text, pf.fill_id::text, pf.quantity::text, pf.fees::text, pf.role,
          pf.executed_at::text, pf.realized::text
        from position_fills pf join positions p on p.id = pf.position_id where p.account_id = ${accountId}
        order by p.open_fill_id, pf.fill_id`),
    );
    // The ledger too: futures fills' cash follows what their shares realised.
    const ledger = rowsOf<Record<string, string>>(
      await db.execute(sql`select id::text, type, amount::text, occurred_at::text, rank::text, balance_after::text
        from ledger_running where account_id = ${accountId} order by ledger_running.rank`),
    );
    return { positions, shares, ledger };
  }

  /** What positions_rebuild (the full replay) and a whole renumbering make of the same fills. */
  async function fullRebuild(db: Db, accountId: string) {
    await db.execute(sql`select positions_rebuild(${accountId}::uuid, s.symbol) from (select distinct symbol from fills where account_id = ${accountId}) s`);
    await db.execute(sql`select ledger_renumber(${accountId}::uuid, '-infinity', '00000000-0000-0000-0000-000000000000')`);
    return positionsOf(db, accountId);
  }
  const INSTRUMENTS: Record<string, { assetClass: string; multiplier: string }> = {
    AAA: { assetClass: "stock", multiplier: "1" },
    BBB: { assetClass: "stock", multiplier: "1" },
    ESM26: { assetClass: "future", multiplier: "50" },
  };

  const at = (minute: number) => new Date(Date.UTC(2026, 2, 2, 14, 0) + minute * 60_000).toISOString();
  const price = (f: RandomFill) => (f.cents / 100).toFixed(2);
  const fees = (f: RandomFill) => (f.feeCents / 1000).toFixed(3); // thirds of a cent: fee splits round

  it("import and undo leave exactly what a full rebuild gives, whatever the history and wherever the import lands", async () => {
    const t = await testApp(url());
    const { userId } = await signUp(t, "incremental");
    const db = t.deps.db;
    const fillArb = fc.record({
      symbol: fc.constantFrom("AAA", "BBB", "ESM26"),
      buy: fc.boolean(),
      qty: fc.integer({ min: 1, max: 30 }),
      cents: fc.integer({ min: 1, max: 50_000 }),
      feeCents: fc.integer({ min: 0, max: 2_000 }),
      minute: fc.integer({ min: 0, max: 60 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fillArb, { maxLength: 12 }), fc.array(fillArb, { minLength: 1, maxLength: 12 }), async (history, imported) => {
        const [account] = rowsOf<{ id: string }>(
          await db.execute(sql`select id::text from account_create(${userId}, ${`Inc ${crypto.randomUUID()}`}, 'USD', 100000, 'Etc/UTC', null, null)`),
        );
        const accountId = account!.id;
        for (const [i, f] of history.entries()) {
          const { assetClass, multiplier } = INSTRUMENTS[f.symbol]!;
          await db.execute(sql`select fill_add(${userId}, ${accountId}, ${f.symbol}, ${assetClass}, ${multiplier}::numeric, ${f.buy ? "buy" : "sell"},
            ${String(f.qty)}::numeric, ${price(f)}::numeric, ${fees(f)}::numeric, ${at(f.minute)}::timestamptz, ${`H${i}`}, null)`);
        }
        // A journal on every existing position: none may be lost by the import or its undo (they follow their
        // fills or are kept detached: tests/node/journals.test.ts holds the rule itself).
        await db.execute(sql`select trade_journal_write(${userId}::uuid, id, jsonb_build_object('notes', 'kept ' || open_fill_id::text))
          from positions where account_id = ${accountId}`);
        const journaled = rowsOf<{ notes: string }>(await db.execute(sql`select notes from trade_journals where account_id = ${accountId} order by notes`));
        // Staged as objects, the format of previews made before the arrays: import_apply still reads it.
        const staged = imported.map((f, i) => ({
          row: i + 2, symbol: f.symbol, asset_class: INSTRUMENTS[f.symbol]!.assetClass, multiplier: INSTRUMENTS[f.symbol]!.multiplier, side: f.buy ? "buy" : "sell",
          quantity: String(f.qty), price: price(f), fees: fees(f), executed_at: at(f.minute), execution_id: `X${i}`, duplicate: false,
        }));
        const [imp] = rowsOf<{ id: string }>(
          await db.execute(sql`insert into csv_imports (user_id, account_id, status, expires_at, summary, staged, claimed_at)
            values (${userId}, ${accountId}, 'committing', now() + interval '1 hour', '{}'::jsonb, ${JSON.stringify(staged)}::jsonb, now())
            returning id::text`),
        );
        const [applied] = rowsOf<{ n: number }>(await db.execute(sql`select import_apply(${imp!.id}::uuid, false) as n`));
        expect(applied!.n).toBe(imported.length);

        const afterImport = await positionsOf(db, accountId);
        const journals = () => db.execute(sql`select notes from trade_journals where account_id = ${accountId} order by notes`).then((r) => rowsOf<{ notes: string }>(r));
        expect(await journals()).toEqual(journaled);
        const rebuilt = await fullRebuild(db, accountId);
        expect(afterImport).toEqual(rebuilt); // ids included: the full rebuild keeps them too

        const [undone] = rowsOf<{ n: number }>(await db.execute(sql`select import_undo(${userId}::uuid, ${imp!.id}::uuid) as n`));
        expect(undone!.n).toBe(imported.length);
        expect(await journals()).toEqual(journaled);
        const afterUndo = await positionsOf(db, accountId);
        expect(afterUndo).toEqual(await fullRebuild(db, accountId));
        expect(afterUndo.shares).toHaveLength(
          rowsOf(await db.execute(sql`select 1 from position_fills pf join fills f on f.id = pf.fill_id where f.account_id = ${accountId}`)).length,
        );
      }),
      { numRuns: 40 },
    );
  });
});

describe("CSV import: lifetimes and recovery", () => {
  it("answers 410 GONE for an expired preview, and the purge job removes it", async () => {
    const { client, accountId, db, t } = await setup();
    const { importId } = await preview(client, accountId);
    await db.update(csvImports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(csvImports.id, importId));
    const res = await client.post("/api/csv-import/commit", { importId });
    expect(res.status).toBe(410);
    expect((await res.json()).error.code).toBe("GONE");
    expect(await purgeExpiredImports(t.deps)).toBeGreaterThanOrEqual(1);
    expect((await client.get(`/api/csv-import/${importId}`)).status).toBe(404);
  });

  it("a process killed (kill -9) while its commit waits in Postgres leaves the import whole: committed with every fill, never a claimed row", async () => {
    const { client, accountId, db } = await setup();
    const { importId } = await preview(client, accountId);
    const [owner] = rowsOf<{ user_id: string }>(await db.execute(sql`select user_id::text as user_id from csv_imports where id = ${importId}`));
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const blocker = new pg.Client({ connectionString: url() });
    await blocker.connect();
    try {
      // The commit's statement waits behind the account's lock while its process is killed.
      await blocker.query("begin");
      await blocker.query("select 1 from accounts where id = $1 for update", [accountId]);
      const me = (await blocker.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
      const child = spawn(process.execPath, [fileURLToPath(new URL("../support/commit-and-die.ts", import.meta.url)), owner!.user_id, importId], {
        env: { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: url() },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => child.on("exit", resolve));
      let waiting: number | undefined;
      try {
        // Read from another connection: inside the blocker's transaction pg_stat_activity is one snapshot.
        for (let i = 0; i < 400 && waiting === undefined; i++) {
          [{ pid: waiting } = { pid: undefined }] = rowsOf<{ pid: number }>(await db.execute(sql`select pid from pg_stat_activity where ${me} = any(pg_blocking_pids(pid))`));
          if (waiting === undefined) await new Promise((r) => setTimeout(r, 25));
        }
      } finally {
        child.kill("SIGKILL");
        await exited;
      }
      expect(waiting, "the commit never came to wait behind the lock").toBeDefined();
      // Nothing half-done while it waits: the claim is inside the statement, invisible until it ends.
      expect((await blocker.query("select status from csv_imports where id = $1", [importId])).rows).toEqual([{ status: "staged" }]);
      await blocker.query("commit");
      // Postgres finishes the statement for its departed client: all of it.
      for (let i = 0; i < 400; i++) {
        if (rowsOf(await db.execute(sql`select 1 from pg_stat_activity where pid = ${waiting!}`)).length === 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await blocker.end();
    }
    const [row] = await db.select().from(csvImports).where(eq(csvImports.id, importId));
    expect(row).toMatchObject({ status: "committed", fillsCreated: 4 });
    expect(await fillCount(db, accountId)).toBe(4);
    expect((await client.post("/api/csv-import/commit", { importId })).status).toBe(409);
  });

  it("a claimed row left by an earlier version (claim and apply were two statements): the recovery job removes it after the timeout", async () => {
    const { client, accountId, db, t } = await setup();
    const { importId } = await preview(client, accountId);
    // What a process of an earlier version killed between its claim statement and import_apply left behind.
    await db.update(csvImports).set({ status: "committing", claimedAt: new Date(Date.now() - 601_000) }).where(eq(csvImports.id, importId));
    expect((await client.post("/api/csv-import/commit", { importId })).status).toBe(409);
    expect(await recoverOrphanedImports(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(csvImports).where(eq(csvImports.id, importId))).toEqual([]);
    expect(await fillCount(db, accountId)).toBe(0);
    const fresh = rowsOf(await db.execute(sql`select 1 from csv_imports where status = 'committing' and claimed_at < now() - interval '600 seconds'`));
    expect(fresh).toEqual([]);
  });
});

describe("CSV import: limits and bad input (never a 5xx)", () => {
  it("refuses a file over CSV_IMPORT_MAX_FILE_BYTES with 413, counted on bytes read even without a Content-Length", async () => {
    const { client, accountId, t } = await setup({ CSV_IMPORT_MAX_FILE_BYTES: "2000", MAX_UPLOAD_SIZE: "1m" });
    const big = `${HEADER}\n${"2026-03-02T09:31:00Z,AAPL,BUY,1,1,0,\n".repeat(100)}`;
    const res = await upload(client, big, { accountId, presetId: "generic" });
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toContain("CSV_IMPORT_MAX_FILE_BYTES");

    // A streamed body with no length at all: the cap still holds.
    const form = new FormData();
    form.set("file", new Blob(["x".repeat(200_000)]), "big.csv");
    form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
    const encoded = new Response(form);
    const streamed = await client.request("/api/csv-import/preview", {
      method: "POST",
      headers: { "Content-Type": encoded.headers.get("Content-Type")! },
      body: encoded.body,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await t.deps.db.select().from(csvImports).where(eq(csvImports.accountId, accountId))).toEqual([]);
  });

  it("refuses an oversized JSON part, too many rows and an oversized staged result with 413 naming the cap", async () => {
    const small = await setup({ CSV_IMPORT_MAX_REQUEST_BYTES: "200", CSV_IMPORT_MAX_ROWS: "3", CSV_IMPORT_MAX_STAGED_BYTES: "120" });
    const json = await upload(small.client, sample, { accountId: small.accountId, presetId: "generic", options: { sides: { buy: Array(10).fill("PURCHASE") } } });
    expect(json.status).toBe(413);
    expect((await json.json()).error.message).toContain("CSV_IMPORT_MAX_REQUEST_BYTES");
    const rows = await upload(small.client, sample, { accountId: small.accountId, presetId: "generic" });
    expect(rows.status).toBe(413);
    expect((await rows.json()).error.message).toContain("CSV_IMPORT_MAX_ROWS");
    const staged = await upload(small.client, sample.split("\r\n").slice(0, 3).join("\n"), { accountId: small.accountId, presetId: "generic" });
    expect(staged.status).toBe(413);
    expect((await staged.json()).error.message).toContain("CSV_IMPORT_MAX_STAGED_BYTES");
  });

  it.each([
    ["an empty file", "", "file"],
    ["a header only", HEADER, "file"],
    ["the wrong delimiter", sample.replace(/,/g, ";"), "mapping"],
  ])("answers %s with a clear 400", async (_n, csv, field) => {
    const { client, accountId } = await setup();
    const res = await upload(client, csv, { accountId, presetId: "generic", options: { delimiter: "," } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.map((f: { path: string }) => f.path)).toContain(field);
  });

  it("refuses a non-UTF-8 file with a clear message", async () => {
    const { client, accountId } = await setup();
    const latin1 = new Uint8Array([...new TextEncoder().encode(`${HEADER}\n2026-03-02T09:31:00Z,CAF`), 0xc9, ...new TextEncoder().encode(",BUY,1,1,0,\n")]);
    const res = await upload(client, latin1, { accountId, presetId: "generic" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain("UTF-8");
  });

  it("handles quoted newlines and a huge single field without a 5xx", async () => {
    const { client, accountId } = await setup();
    const csv = [HEADER, `2026-03-02T09:31:00Z,AAPL,BUY,1,1,0,"multi\nline"`, `2026-03-02T09:32:00Z,AAPL,SELL,1,1,0,"${"z".repeat(300_000)}"`].join("\n");
    const body = await preview(client, accountId, csv);
    expect(body.summary).toMatchObject({ rows: 2, valid: 2 });
    expect(body.fills[0].executionId).toBe("multi\nline");
  });

  it("reads an upload arriving in 7-byte pieces, its request part first and sent as a file, as the whole body", async () => {
    const { client, accountId } = await setup();
    const form = new FormData();
    form.set("request", new Blob([JSON.stringify({ accountId, presetId: "generic" })], { type: "application/json" }), "request.json");
    form.set("file", new Blob([sample]), "pieces.csv");
    const encoded = new Response(form);
    const type = encoded.headers.get("Content-Type")!;
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const res = await client.request("/api/csv-import/preview", { method: "POST", headers: { "Content-Type": type }, body, duplex: "half" } as RequestInit);
    expect(res.status).toBe(201);
    const pieces = await res.json();
    const whole = await preview(client, accountId);
    expect(pieces.summary).toEqual(whole.summary);
    expect(pieces.fills).toEqual(whole.fills);
    expect((await (await client.get(`/api/csv-import/${pieces.importId}`)).json()).fileName).toBe("pieces.csv");
  });

  it.each([
    ["no file part", (accountId: string) => { const f = new FormData(); f.set("request", JSON.stringify({ accountId, presetId: "generic" })); return f; }, "file"],
    ["no request part", () => { const f = new FormData(); f.set("file", new Blob([sample]), "a.csv"); return f; }, "request"],
    ["a request part that is not JSON", () => { const f = new FormData(); f.set("file", new Blob([sample]), "a.csv"); f.set("request", "{nope"); return f; }, "request"],
    ["neither preset nor mapping", (accountId: string) => { const f = new FormData(); f.set("file", new Blob([sample]), "a.csv"); f.set("request", JSON.stringify({ accountId })); return f; }, "request.mapping"],
    ["an unknown preset", (accountId: string) => { const f = new FormData(); f.set("file", new Blob([sample]), "a.csv"); f.set("request", JSON.stringify({ accountId, presetId: "nope" })); return f; }, "presetId"],
  ])("refuses %s with 400 naming the field", async (_n, build, field) => {
    const { client, accountId } = await setup();
    const res = await client.request("/api/csv-import/preview", { method: "POST", body: build(accountId) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields.map((f: { path: string }) => f.path)).toContain(field);
  });

  it("another user's account and imports answer 404", async () => {
    const alice = await setup();
    const { importId } = await preview(alice.client, alice.accountId);
    const { client: bob } = await alice.signUp("bob");
    expect((await upload(bob, sample, { accountId: alice.accountId, presetId: "generic" })).status).toBe(404);
    expect((await bob.get(`/api/csv-import/${importId}`)).status).toBe(404);
    expect((await bob.post("/api/csv-import/commit", { importId })).status).toBe(404);
    expect((await bob.delete(`/api/csv-import/${importId}`)).status).toBe(404);
    expect((await bob.post(`/api/csv-import/${importId}/undo`)).status).toBe(404);
    expect((await bob.get(`/api/csv-import/history?accountId=${alice.accountId}`)).status).toBe(404);
    expect((await alice.client.get(`/api/csv-import/${importId}`)).status).toBe(200);
  });

  it("lists the presets with their column mappings", async () => {
    const { client } = await setup();
    const { presets } = await (await client.get("/api/csv-import/presets")).json();
    expect(presets.find((p: { id: string }) => p.id === "generic")).toMatchObject({ headers: HEADER.split(","), mapping: { symbol: "Symbol" } });
  });
});
