// Moving from another journal (docs/imports.md, "Moving from another journal"): Tradervue's and TradeZella's
// own exports (tests/fixtures/brokers/tradervue.csv, tradezella.csv) through the real import pipeline and
// Postgres: each trade row becomes its open and its close, the preview reconciles the file's own P&L with
// the journal's (hand-counted below), and what the trader wrote arrives on the trades, beside what they write
// here, through an undo and a second import.
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");
const fixture = (id: string) => readFileSync(new URL(`../fixtures/brokers/${id}.csv`, import.meta.url), "utf8");

async function trader() {
  const j = await journal(url());
  const { client } = await j.signUp("migrating");
  const res = await client.post("/api/accounts", { name: `Moved ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "America/New_York" });
  return { client, accountId: (await res.json()).id as string };
}

async function preview(client: TestClient, accountId: string, presetId: string) {
  const form = new FormData();
  form.set("file", new Blob([fixture(presetId)]), `${presetId}.csv`);
  form.set("request", JSON.stringify({ accountId, presetId }));
  const res = await client.request("/api/csv-import/preview", { method: "POST", body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}
async function commit(client: TestClient, importId: string) {
  const res = await client.post("/api/csv-import/commit", { importId });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}
async function trades(client: TestClient, accountId: string) {
  return (await (await client.get(`/api/trades?accountId=${accountId}&pageSize=50`)).json()).trades as Array<{ id: string; symbol: string; netPnl: string; grossPnl?: string; notes: string | null; tags: string[]; status: string }>;
}

describe("moving from another journal", () => {
  it("Tradervue: trades become opens and closes, the P&L reconciles to the cent but for NVDA's averaged exits, and notes and tags arrive", async () => {
    const { client, accountId } = await trader();
    const first = await preview(client, accountId, "tradervue");
    expect(first.summary).toMatchObject({ rows: 4, valid: 8, invalid: 0, toImport: 8 });
    // Hand-counted: AAPL (192.25 - 191.50) x 100 + (192.00 - 193.00) x 50 = 25.00 as the file says (75.00 - 50.00);
    // TSLA short (212.40 - 210.10) x 10 = 23.00 as the file says; NVDA (605.50 - 600.00) x 20 = 110.00, where the
    // file says 115.00 (its four executions' exits, averaged in the export). Totals 163.00 and 158.00.
    expect(first.reconciliation).toEqual({ file: "163.00", journal: "158.00", matches: false, differ: [{ symbol: "NVDA", file: "115.00", journal: "110.00" }] });
    await commit(client, first.importId);
    const list = await trades(client, accountId);
    expect(list).toHaveLength(4);
    expect(list.every((t) => t.status === "closed")).toBe(true);
    const aapl = list.filter((t) => t.symbol === "AAPL");
    expect(aapl.map((t) => t.notes).sort()).toEqual(["Cut it late.", "Waited for the retest, then in."]);
    expect(aapl.find((t) => t.notes === "Waited for the retest, then in.")!.tags.sort()).toEqual(["a+ setup", "breakout"]);
    expect(list.find((t) => t.symbol === "TSLA")!.tags).toEqual(["fade"]);

    // The trader writes here too; an undo and the same file again keep both.
    const tsla = list.find((t) => t.symbol === "TSLA")!;
    expect((await client.request(`/api/trades/${tsla.id}`, { method: "PATCH", json: { notes: "Mine now.", tags: ["fade", "A+"] } })).status).toBe(200);
    expect((await client.post(`/api/csv-import/${first.importId}/undo`)).status).toBe(200);
    const again = await preview(client, accountId, "tradervue");
    await commit(client, again.importId);
    const after = await trades(client, accountId);
    expect(after.find((t) => t.symbol === "TSLA")).toMatchObject({ notes: "Mine now.", tags: ["fade", "A+"] });
    expect(after.filter((t) => t.symbol === "AAPL").map((t) => t.notes).sort()).toEqual(["Cut it late.", "Waited for the retest, then in."]);
  });

  it("TradeZella: the zone is read off the times, fees land on the closes, a backtest is left out, mistakes and playbooks become tags", async () => {
    const { client, accountId } = await trader();
    const first = await preview(client, accountId, "tradezella");
    expect(first.summary).toMatchObject({ rows: 4, skipped: 1, valid: 6, invalid: 0 });
    // Hand-counted: AAPL 0.75 x 100 = 75 (file 75), TSLA 2.30 x 10 = 23 (file 23), NVDA 5.50 x 20 = 110 (file 115).
    expect(first.reconciliation).toEqual({ file: "213.00", journal: "208.00", matches: false, differ: [{ symbol: "NVDA", file: "115.00", journal: "110.00" }] });
    await commit(client, first.importId);
    const list = await trades(client, accountId);
    expect(list).toHaveLength(3);
    expect(list.find((t) => t.symbol === "AAPL")!.tags.sort()).toEqual(["Opening drive", "breakout"]);
    expect(list.find((t) => t.symbol === "TSLA")!.tags).toEqual(["chased entry"]);
    // AAPL: 75 gross less the 1.35 of fees on its close.
    expect(Number(list.find((t) => t.symbol === "AAPL")!.netPnl)).toBe(73.65);
  });
});
