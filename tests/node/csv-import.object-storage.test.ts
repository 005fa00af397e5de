import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { csvImports, fills, objectDeletions } from "../../lib/db/schema.ts";
import { purgeExpiredImports, recoverOrphanedImports } from "../../lib/imports/imports.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";

// CSV previews staged in object storage (the four OBJECT_STORAGE_ variables set), through the API on Node
// with the real SDK adapter against the local S3 stand-in, and the real Postgres with the real migrations.
const url = () => inject("databaseUrl");
const sample = GENERIC_SAMPLE;

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());

function upload(client: TestClient, accountId: string, csv = sample) {
  const form = new FormData();
  form.set("file", new Blob([csv]), "trades.csv");
  form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
  return client.request("/api/csv-import/preview", { method: "POST", body: form });
}

async function setup(env: Record<string, string> = s3.env) {
  const j = await journal(url(), env);
  const { client, userId } = await j.signUp("objstore");
  const res = await client.post("/api/accounts", { name: `Obj ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000" });
  const accountId = (await res.json()).id as string;
  return { ...j, client, userId, accountId };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function preview(s: Setup) {
  const res = await upload(s.client, s.accountId);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { importId: string; summary: { toImport: number } };
}

const keyOf = (s: Setup, importId: string) => `csv-imports/${s.userId}/${importId}.json`;
const rowOf = async (s: Setup, importId: string) => (await s.db.select().from(csvImports).where(eq(csvImports.id, importId)))[0];
const fillCount = async (s: Setup) => (await s.db.select().from(fills).where(eq(fills.accountId, s.accountId))).length;
const queued = async (s: Setup, keys: string[]) =>
  (await s.db.select().from(objectDeletions).where(inArray(objectDeletions.key, keys))).map((r) => r.key);

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const text = await res.text();
  const body = JSON.parse(text) as { error: { code: string; message: string; requestId: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBeTruthy();
  // No stack, driver text or credential in the answer.
  expect(text).not.toMatch(/\bat .+\(|node_modules|ECONNREFUSED|SignatureDoesNotMatch/);
  expect(text).not.toContain(s3.credentials.secretAccessKey);
  return body.error;
}

describe("CSV import staged in object storage", () => {
  it("/api/config reports object storage on", async () => {
    const s = await setup();
    expect((await (await s.client.get("/api/config")).json()).objectStorage).toBe(true);
  });

  it("preview writes one object and a row without the fills; commit reads it, writes the fills, then removes it", async () => {
    const s = await setup();
    const { importId, summary } = await preview(s);
    const key = keyOf(s, importId);
    const object = s3.objects.get(key);
    expect(object?.contentType).toBe("application/json");
    const staged = JSON.parse(object!.body.toString("utf8")) as Array<[symbol: string, ...rest: unknown[]]>;
    expect(staged.map(([symbol]) => symbol)).toEqual(["AAPL", "AAPL", "ESZ26", "ESZ26"]);
    const row = await rowOf(s, importId);
    expect(row).toMatchObject({ status: "staged", staged: null, stagedKey: key, stagedBytes: object!.body.length });

    const commit = await s.client.post("/api/csv-import/commit", { importId });
    expect(commit.status).toBe(200);
    expect(await commit.json()).toMatchObject({ status: "committed", fillsCreated: summary.toImport });
    expect(await fillCount(s)).toBe(4);
    expect(s3.objects.has(key)).toBe(false);
    expect(await rowOf(s, importId)).toMatchObject({ status: "committed", staged: null, stagedKey: null });
    expect(await queued(s, [key])).toEqual([]);
    const trades = (await (await s.client.get(`/api/trades?accountId=${s.accountId}`)).json()).trades;
    expect(trades.map((t: { symbol: string; netPnl: string }) => [t.symbol, t.netPnl]).sort()).toEqual([
      ["AAPL", "173.00"],
      ["ESZ26", "508.00"],
    ]);
    // Undo works on the committed import as before (the object is long gone).
    expect((await s.client.post(`/api/csv-import/${importId}/undo`)).status).toBe(200);
    expect(await fillCount(s)).toBe(0);
  });

  it("exactly one of ten concurrent commits succeeds; the rest get 409", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    const answers = await Promise.all(Array.from({ length: 10 }, () => s.client.post("/api/csv-import/commit", { importId })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await fillCount(s)).toBe(4);
    expect(s3.objects.has(keyOf(s, importId))).toBe(false);
  });

  it("discarding a preview removes its row and its object", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    expect(s3.objects.has(keyOf(s, importId))).toBe(true);
    expect((await s.client.delete(`/api/csv-import/${importId}`)).status).toBe(204);
    expect(await rowOf(s, importId)).toBeUndefined();
    expect(s3.objects.has(keyOf(s, importId))).toBe(false);
    expect(await queued(s, [keyOf(s, importId)])).toEqual([]);
  });

  it("an expired preview answers 410 GONE, and the purge job removes its row and its object", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    const key = keyOf(s, importId);
    await s.db.update(csvImports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(csvImports.id, importId));
    await expectError(await s.client.post("/api/csv-import/commit", { importId }), 410, "GONE");
    expect(s3.objects.has(key)).toBe(true);
    expect(await purgeExpiredImports(s.t.deps)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(s, importId)).toBeUndefined();
    expect(s3.objects.has(key)).toBe(false);
    expect(await queued(s, [key])).toEqual([]);
    expect(await fillCount(s)).toBe(0);
  });

  it("the recovery job removes an orphaned committing row and its object", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    const key = keyOf(s, importId);
    // What a process of an earlier version killed between its claim and import_apply left behind.
    await s.db.update(csvImports).set({ status: "committing", claimedAt: new Date(Date.now() - 601_000) }).where(eq(csvImports.id, importId));
    await expectError(await s.client.post("/api/csv-import/commit", { importId }), 409, "CONFLICT");
    expect(await recoverOrphanedImports(s.t.deps)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(s, importId)).toBeUndefined();
    expect(s3.objects.has(key)).toBe(false);
    expect(await fillCount(s)).toBe(0);
  });

  it("an object deleted behind the service's back answers 410 'no longer available' and ends the import cleanly", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    s3.objects.delete(keyOf(s, importId));
    const error = await expectError(await s.client.post("/api/csv-import/commit", { importId }), 410, "GONE");
    expect(error.message).toContain("no longer available");
    expect(await rowOf(s, importId)).toBeUndefined();
    expect(await fillCount(s)).toBe(0);
    expect((await s.client.get(`/api/csv-import/${importId}`)).status).toBe(404);
  });

  it("a corrupted object is treated like a missing one (410), never a 5xx", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    s3.objects.set(keyOf(s, importId), { body: Buffer.from('[{"symbol": "AAPL", "trunc'), contentType: "application/json" });
    await expectError(await s.client.post("/api/csv-import/commit", { importId }), 410, "GONE");
    expect(await fillCount(s)).toBe(0);
    expect(s3.objects.has(keyOf(s, importId))).toBe(false);
  });

  it("a store refusing work during commit answers 503 and releases the claim; the retry commits", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    s3.unavailable(true);
    try {
      await expectError(await s.client.post("/api/csv-import/commit", { importId }), 503, "SERVICE_UNAVAILABLE");
    } finally {
      s3.unavailable(false);
    }
    expect(await rowOf(s, importId)).toMatchObject({ status: "staged", claimedAt: null });
    expect(await fillCount(s)).toBe(0);
    expect((await s.client.post("/api/csv-import/commit", { importId })).status).toBe(200);
    expect(await fillCount(s)).toBe(4);
  });

  it("a store that is down: preview answers 503 and leaves no row and no object; the queued key drains later", async () => {
    const down = await startS3Server();
    const s = await setup(down.env);
    await down.close();
    const res = await upload(s.client, s.accountId);
    const error = await expectError(res, 503, "SERVICE_UNAVAILABLE");
    expect(error.message).toMatch(/object storage is unavailable/i);
    expect(await s.db.select().from(csvImports).where(eq(csvImports.accountId, s.accountId))).toEqual([]);
    expect(down.objects.size).toBe(0);
    // The row is gone; its key is queued in case the put had reached the store after all.
    expect(await allQueuedFor(s)).toHaveLength(1);
    // Once a store answers again, the purge job clears the queue.
    const back = await setup();
    await purgeExpiredImports(back.t.deps);
    expect(await allQueuedFor(s)).toEqual([]);
  });

  it("deleting the account removes its staged objects right after; with the store down, the purge job does later", async () => {
    const s = await setup();
    const { importId } = await preview(s);
    const key = keyOf(s, importId);
    expect((await s.client.delete(`/api/accounts/${s.accountId}`)).status).toBe(204);
    await s.t.settled();
    expect(s3.objects.has(key)).toBe(false);
    expect(await queued(s, [key])).toEqual([]);

    const down = await setup();
    const staged = keyOf(down, (await preview(down)).importId);
    s3.unavailable(true);
    try {
      expect((await down.client.delete(`/api/accounts/${down.accountId}`)).status).toBe(204);
      await down.t.settled();
    } finally {
      s3.unavailable(false);
    }
    expect(await queued(down, [staged])).toEqual([staged]);
    expect(s3.objects.has(staged)).toBe(true);
    await purgeExpiredImports(down.t.deps);
    expect(s3.objects.has(staged)).toBe(false);
    expect(await queued(down, [staged])).toEqual([]);
  });

  it("the staged-size cap answers 413 before anything is written", async () => {
    const s = await setup({ ...s3.env, CSV_IMPORT_MAX_STAGED_BYTES: "300" });
    const before = s3.log.length;
    await expectError(await upload(s.client, s.accountId), 413, "PAYLOAD_TOO_LARGE");
    expect(s3.log.slice(before)).toEqual([]);
    expect(await s.db.select().from(csvImports).where(eq(csvImports.accountId, s.accountId))).toEqual([]);
  });

  it.each([
    ["three of the four variables", { OBJECT_STORAGE_SECRET_ACCESS_KEY: "" }],
    ["an empty bucket", { OBJECT_STORAGE_BUCKET: "" }],
  ])("with %s, previews stage inline in Postgres and the store is never called", async (_n, override) => {
    const s = await setup({ ...s3.env, ...override });
    const before = s3.log.length;
    expect((await (await s.client.get("/api/config")).json()).objectStorage).toBe(false);
    const { importId } = await preview(s);
    const row = await rowOf(s, importId);
    expect(row?.stagedKey).toBeNull();
    // In Postgres: in parts (csv_import_parts), all of them written.
    expect(row?.stagedParts).toBe(1);
    const parts = rowsOf<{ n: number }>(await s.db.execute(sql`select jsonb_array_length(fills) as n from csv_import_parts where import_id = ${importId}::uuid`));
    expect(parts).toEqual([{ n: 4 }]);
    expect((await s.client.post("/api/csv-import/commit", { importId })).status).toBe(200);
    expect(await fillCount(s)).toBe(4);
    expect(s3.log.slice(before)).toEqual([]);
  });
});

/** Queued keys under this user's prefix. */
async function allQueuedFor(s: Setup): Promise<string[]> {
  const rows = await s.db.select().from(objectDeletions);
  return rows.map((r) => r.key).filter((k) => k.startsWith(`csv-imports/${s.userId}/`));
}
