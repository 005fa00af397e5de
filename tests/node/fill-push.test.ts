// The fill push API (docs/imports.md, "Pushing fills from a script"): a batch with an Idempotency-Key goes
// through the import pipeline (duplicates skipped, all or nothing, undoable), the same batch twice adds nothing
// (also as 10 concurrent requests), the same key with another batch is refused, bad fills are named and write
// nothing. Authenticated by a personal access token with fills:write, on the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { testApp } from "../support/app.ts";
import { pngImage } from "../support/images.ts";
import { PASSWORD, uniqueEmail, type TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");

type PushAnswer = { importId: string; imported: number; duplicates: number; fills: Array<{ index: number; status: string; fillId: string | null }> };

async function setup() {
  const t = await testApp(url(), {}, { peer: "per-request" });
  const client = t.client();
  expect((await client.post("/api/auth/register", { email: uniqueEmail("push"), password: PASSWORD })).status).toBe(201);
  const account = await client.post("/api/accounts", { name: "Bot", currency: "USD", startingBalance: "10000", timezone: "America/New_York" });
  const accountId = ((await account.json()) as { id: string }).id;
  const made = await client.post("/api/auth/tokens", { name: "platform", scopes: ["fills:write"], password: PASSWORD });
  const { token } = (await made.json()) as { token: string };
  const bot = (): TestClient => {
    const c = t.client();
    c.headers = { Authorization: `Bearer ${token}` };
    return c;
  };
  const pushTo = (target: string, key: string | undefined, fills: unknown[]) =>
    bot().request("/api/fills/push", { method: "POST", json: { accountId: target, fills }, headers: key === undefined ? {} : { "Idempotency-Key": key } });
  const push = (key: string | undefined, fills: unknown[]) => pushTo(accountId, key, fills);
  const fillCount = async () => rowsOf(await t.deps.db.execute(sql`select 1 from fills where account_id = ${accountId}::uuid`)).length;
  return { t, client, accountId, push, pushTo, fillCount };
}

const BATCH = [
  { symbol: "AAPL", side: "buy", quantity: "100", price: "190.50", fees: "1", executedAt: "2026-11-23T14:31:05Z", executionId: "ex-1" },
  { symbol: "AAPL", side: "sell", quantity: "100", price: "191.25", fees: "1", executedAt: "2026-11-23T15:02:10Z", executionId: "ex-2" },
  { symbol: "MSFT", side: "buy", quantity: "10", price: "420", executedAt: "2026-11-23T10:00:00-05:00" },
];

describe("the fill push API", () => {
  it("imports a batch through the import pipeline; the same batch again answers the same and adds nothing; undoable", async () => {
    const s = await setup();
    const first = await s.push("batch-1", BATCH);
    expect(first.status).toBe(201);
    const answer = (await first.json()) as PushAnswer;
    expect(answer).toMatchObject({ imported: 3, duplicates: 0 });
    expect(answer.fills.map((f) => f.status)).toEqual(["imported", "imported", "imported"]);
    expect(new Set(answer.fills.map((f) => f.fillId)).size).toBe(3);
    expect(await s.fillCount()).toBe(3);
    // The AAPL round trip is a closed trade worth (191.25 - 190.50) x 100 - 2 = 73.00.
    const trades = (await (await s.client.get(`/api/trades?accountId=${s.accountId}&symbol=AAPL`)).json()) as { trades: Array<{ netPnl: string }> };
    expect(trades.trades.map((tr) => tr.netPnl)).toEqual(["73.00"]);

    const again = await s.push("batch-1", BATCH);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(answer);
    expect(await s.fillCount()).toBe(3);

    // The same key with another batch: refused, nothing written.
    const other = await s.push("batch-1", BATCH.slice(0, 1));
    expect(other.status).toBe(409);
    expect(await s.fillCount()).toBe(3);

    // A new key overlapping what is there: the old fills are duplicates, the new one imported, in order.
    const overlap = [BATCH[0], { symbol: "NVDA", side: "buy", quantity: "5", price: "150", executedAt: "2026-11-24T15:00:00Z" }, BATCH[2]];
    const mixed = (await (await s.push("batch-2", overlap)).json()) as PushAnswer;
    expect(mixed.fills.map((f) => f.status)).toEqual(["duplicate", "imported", "duplicate"]);
    expect(mixed.fills[1]!.fillId).toEqual(expect.any(String));
    expect(await s.fillCount()).toBe(4);

    // Listed in the import history, and undone like a file.
    const history = (await (await s.client.get(`/api/csv-import/history?accountId=${s.accountId}`)).json()) as { imports: Array<{ id: string; fileName: string; status: string }> };
    expect(history.imports.filter((i) => i.fileName === "API push").map((i) => i.status)).toEqual(["committed", "committed"]);
    expect((await s.client.post(`/api/csv-import/${answer.importId}/undo`, {})).status).toBe(200);
    expect(await s.fillCount()).toBe(1);
  });

  it("ten concurrent requests with one key and one batch: one import, every answer the same", async () => {
    const s = await setup();
    const batch = Array.from({ length: 50 }, (_, i) => ({
      symbol: "SPY",
      side: i % 2 ? "sell" : "buy",
      quantity: "10",
      price: `${600 + (i % 7)}`,
      executedAt: new Date(Date.UTC(2026, 10, 20, 15, 0, i)).toISOString(),
      executionId: `c-${i}`,
    }));
    const answers = await Promise.all(Array.from({ length: 10 }, () => s.push("same-batch", batch)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as PushAnswer[];
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]!.imported).toBe(50);
    expect(await s.fillCount()).toBe(50);
    const imports = rowsOf(await s.t.deps.db.execute(sql`select 1 from csv_imports where account_id = ${s.accountId}::uuid`));
    expect(imports).toHaveLength(1);
  });

  it("a bad fill is named and nothing is written; the key stays free; the header is required", async () => {
    const s = await setup();
    const bad = await s.push("batch-bad", [BATCH[0], { ...BATCH[1], quantity: "-3" }]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: Array<{ path: string }> } }).error.fields.map((f) => f.path)).toContain("fills.1.quantity");
    // An unknown futures root is caught by the importer's instrument rules, row by row.
    const future = await s.push("batch-bad", [BATCH[0], { symbol: "/QQZ6", side: "buy", quantity: "1", price: "10", executedAt: "2026-11-23T15:00:00Z" }]);
    expect(future.status).toBe(400);
    const fields = ((await future.json()) as { error: { fields: Array<{ path: string }> } }).error.fields.map((f) => f.path);
    expect(fields.some((p) => p.startsWith("fills.1"))).toBe(true);
    expect(await s.fillCount()).toBe(0);
    expect((await s.push("batch-bad", BATCH)).status).toBe(201);

    const missing = await s.push(undefined, BATCH);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { fields: unknown } }).error.fields).toEqual([
      { path: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" },
    ]);
    expect((await s.push("x".repeat(256), BATCH)).status).toBe(400);
    // Someone else's account: not found, and nothing written there.
    const stranger = await setup();
    expect((await stranger.pushTo(s.accountId, "k", BATCH.slice(2))).status).toBe(404);
    expect(await s.fillCount()).toBe(3);
  });

  it("a missed fill pushed later, and undoing pushes, keep what the trader wrote: notes, tags, stop, screenshot", async () => {
    const s = await setup();
    const first = (await (await s.push("journal-1", [{ symbol: "MSFT", side: "buy", quantity: "10", price: "420", executedAt: "2026-11-24T15:00:00Z", executionId: "m1" }])).json()) as PushAnswer;
    const tradeOf = async () => (await (await s.client.get(`/api/trades?accountId=${s.accountId}&symbol=MSFT`)).json()).trades as Array<{ id: string }>;
    const [trade] = await tradeOf();
    expect((await s.client.request(`/api/trades/${trade!.id}`, { method: "PATCH", json: { notes: "Bought the dip", tags: ["dip"], stopPrice: "410" } })).status).toBe(200);
    const form = new FormData();
    form.set("file", new Blob([pngImage() as BlobPart], { type: "image/png" }), "chart.png");
    expect((await s.client.request(`/api/trades/${trade!.id}/images`, { method: "POST", body: form })).status).toBe(201);
    const written = async (id: string) => {
      const detail = (await (await s.client.get(`/api/trades/${id}`)).json()).trade;
      const images = (await (await s.client.get(`/api/trades/${id}/images`)).json()).images as unknown[];
      return { notes: detail.notes, tags: detail.tags, stop: detail.risk.stopPrice, images: images.length };
    };
    const kept = { notes: "Bought the dip", tags: ["dip"], stop: "410.00", images: 1 };
    expect(await written(trade!.id)).toEqual(kept);

    // A missed fill from before, pushed later: the trade is rebuilt around both fills, its journal with it.
    const missed = (await (await s.push("journal-2", [{ symbol: "MSFT", side: "buy", quantity: "5", price: "418", executedAt: "2026-11-24T14:30:00Z", executionId: "m0" }])).json()) as PushAnswer;
    expect(missed.imported).toBe(1);
    const [rebuilt] = await tradeOf();
    expect(await written(rebuilt!.id)).toEqual(kept);

    // Undoing that push: the journal stays on the trade that is left.
    expect((await s.client.post(`/api/csv-import/${missed.importId}/undo`, {})).status).toBe(200);
    const [after] = await tradeOf();
    expect(await written(after!.id)).toEqual(kept);

    // Undoing the first too: no trade is left, and what was written is kept as a detached note with its screenshot.
    expect((await s.client.post(`/api/csv-import/${first.importId}/undo`, {})).status).toBe(200);
    expect(await tradeOf()).toEqual([]);
    const detached = (await (await s.client.get(`/api/journals/detached?accountId=${s.accountId}`)).json()).journals as Array<{ notes: string; tags: string[]; images: unknown[] }>;
    expect(detached).toEqual([expect.objectContaining({ notes: "Bought the dip", tags: ["dip"], images: [expect.anything()] })]);
  });
});
