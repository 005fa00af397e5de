import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ObjectStorageSettings } from "../../lib/storage/index.ts";
import { createFetchObjectStore } from "../../lib/storage/s3-fetch.ts";
import jobs from "../../functions/workers/jobs.ts";
import { describeObjectStoreContract } from "../support/object-store-contract.ts";
import { testSql } from "./sql.ts";

// The Workers object storage adapter (aws4fetch) inside workerd, against the local S3 stand-in the global
// setup started: the shared contract, then a CSV preview and commit staged through it end to end.
const settings = (): ObjectStorageSettings => ({
  endpoint: env.OBJECT_STORAGE_ENDPOINT,
  bucket: env.OBJECT_STORAGE_BUCKET,
  accessKeyId: env.OBJECT_STORAGE_ACCESS_KEY_ID,
  secretAccessKey: env.OBJECT_STORAGE_SECRET_ACCESS_KEY,
  region: env.OBJECT_STORAGE_REGION,
  forcePathStyle: true,
});

describeObjectStoreContract("aws4fetch inside workerd", (s) => createFetchObjectStore(s), settings);

const base = "http://journal.test";
const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
const call = (path: string, init: RequestInit & { cookie?: string } = {}) =>
  exports.default.fetch(`${base}${path}`, {
    ...init,
    headers: { "CF-Connecting-IP": ip, ...(init.cookie ? { Cookie: init.cookie } : {}), ...(init.headers as Record<string, string>) },
  });
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

/** A signed-in user with an account and one staged preview, through the routes in workerd. */
async function stagedPreview() {
  const reg = await call("/api/auth/register", { method: "POST", ...json({ email: `o-${crypto.randomUUID()}@example.com`, password: "workers password" }) });
  expect(reg.status).toBe(201);
  const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
  const userId = (await reg.json<{ user: { id: string } }>()).user.id;
  const acct = await call("/api/accounts", { method: "POST", cookie, ...json({ name: "Edge imports", currency: "USD", timezone: "Etc/UTC" }) });
  const { id: accountId } = await acct.json<{ id: string }>();

  const form = new FormData();
  const csv = ["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID", "2026-06-10T14:00:00Z,MSFT,BUY,10,400,1,W1", "2026-06-10T15:00:00Z,MSFT,SELL,10,405,1,W2"];
  form.set("file", new Blob([csv.join("\n")]), "edge.csv");
  form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
  const preview = await call("/api/csv-import/preview", { method: "POST", cookie, body: form });
  expect(preview.status, await preview.clone().text()).toBe(201);
  const { importId } = await preview.json<{ importId: string }>();
  return { cookie, accountId, importId, key: `csv-imports/${userId}/${importId}.json` };
}

describe("CSV import staged in object storage, in workerd", () => {
  it("preview stores the fills as an object; commit reads it, writes the fills and removes it", async () => {
    const { cookie, accountId, importId, key } = await stagedPreview();
    const store = createFetchObjectStore(settings());
    // One array per fill; the execution id is its ninth value (lib/imports/imports.ts stagedJson).
    const staged = JSON.parse((await store.get(key)) ?? "null") as unknown[][];
    expect(staged.map((f) => f[8])).toEqual(["W1", "W2"]);
    const sql = testSql();
    const [row] = await sql`select staged is null as inline_empty, staged_key from csv_imports where id = ${importId}`;
    expect(row).toEqual({ inline_empty: true, staged_key: key });

    const commit = await call("/api/csv-import/commit", { method: "POST", cookie, ...json({ importId }) });
    expect(commit.status).toBe(200);
    expect(await commit.json()).toMatchObject({ status: "committed", fillsCreated: 2 });
    expect(await store.get(key)).toBeNull();
    const left = await sql`select count(*)::int as n from fills where account_id = ${accountId}`;
    expect(left[0]!.n).toBe(2);
    const queued = await sql`select key from object_deletions where key = ${key}`;
    expect(queued).toEqual([]);
  });

  it("the */5 cron of the jobs Worker purges an expired preview and its object", async () => {
    const { importId, key } = await stagedPreview();
    const store = createFetchObjectStore(settings());
    expect(await store.get(key)).not.toBeNull();
    const sql = testSql();
    await sql`update csv_imports set expires_at = now() - interval '1 minute' where id = ${importId}`;

    const ctx = createExecutionContext();
    await jobs.scheduled(createScheduledController({ cron: "*/5 * * * *" }), { ...env }, ctx);
    await waitOnExecutionContext(ctx);

    expect(await sql`select id from csv_imports where id = ${importId}`).toEqual([]);
    expect(await store.get(key)).toBeNull();
    expect(await sql`select key from object_deletions where key = ${key}`).toEqual([]);
  });
});

// A 2 x 2 PNG carrying tEXt, iTXt and eXIf chunks with a GPS position (tests/support/images.ts, as base64:
// that module builds files with node:zlib, which workerd does not offer in full).
const PNG_WITH_METADATA = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAMXRFWHRDb21tZW50AEdQU0xhdGl0dWRlIDQ4Ljg1ODROIEdQU0xvbmdpdHVkZSAyLjI5NDVFrz++FgAAAFZpVFh0WE1MOmNvbS5hZG9iZS54bXAAAAAAADx4OnhtcG1ldGE+R1BTTGF0aXR1ZGUgNDguODU4NE4gR1BTTG9uZ2l0dWRlIDIuMjk0NUU8L3g6eG1wbWV0YT51jDaZAAAAMWVYSWZNTQAqAAAACEdQU0xhdGl0dWRlIDQ4Ljg1ODROIEdQU0xvbmdpdHVkZSAyLjI5NDVFw1/3QgAAABJJREFUeJxj0Kg4oVFxggFCAQAk7gWhVFVrYAAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

describe("trade screenshots in object storage, in workerd", () => {
  it("an upload lands in the bucket without its metadata, reads back, and goes with its image", async () => {
    const { cookie, importId } = await stagedPreview();
    expect((await call("/api/csv-import/commit", { method: "POST", cookie, ...json({ importId }) })).status).toBe(200);
    const trades = await (await call("/api/trades", { cookie })).json<{ trades: Array<{ id: string }> }>();
    const tradeId = trades.trades[0]!.id;
    const form = new FormData();
    form.set("file", new Blob([PNG_WITH_METADATA]), "where-i-was.png");
    const res = await call(`/api/trades/${tradeId}/images`, { method: "POST", cookie, body: form });
    expect(res.status, await res.clone().text()).toBe(201);
    const image = await res.json<{ id: string; contentType: string; bytes: number }>();
    expect(image.contentType).toBe("image/png");
    const sql = testSql();
    const [row] = await sql`select storage_key, data is null as inline_empty from trade_images where id = ${image.id}`;
    expect(row!.inline_empty).toBe(true);
    const store = createFetchObjectStore(settings());
    const stored = await store.getBytes(row!.storage_key as string);
    expect(stored!.byteLength).toBe(image.bytes);
    expect(new TextDecoder("latin1").decode(stored!)).not.toContain("GPSLatitude");
    const back = await call(`/api/trades/${tradeId}/images/${image.id}`, { cookie });
    expect(back.status).toBe(200);
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(stored);
    expect((await call(`/api/trades/${tradeId}/images/${image.id}`, { method: "DELETE", cookie })).status).toBe(204);
    expect(await store.getBytes(row!.storage_key as string)).toBeNull();
  });
});

describe("the complete archive in workerd", () => {
  it("downloads with its screenshot from the bucket, and restores for another user through the object store scratch", async () => {
    const { cookie, importId, accountId } = await stagedPreview();
    expect((await call("/api/csv-import/commit", { method: "POST", cookie, ...json({ importId }) })).status).toBe(200);
    const trades = await (await call("/api/trades", { cookie })).json<{ trades: Array<{ id: string }> }>();
    const form = new FormData();
    form.set("file", new Blob([PNG_WITH_METADATA]), "shot.png");
    const added = await call(`/api/trades/${trades.trades[0]!.id}/images`, { method: "POST", cookie, body: form });
    expect(added.status).toBe(201);
    const shot = new Uint8Array(await (await call(`/api/trades/${trades.trades[0]!.id}/images/${(await added.json<{ id: string }>()).id}`, { cookie })).arrayBuffer());

    const archive = await call("/api/archive", { cookie });
    expect(archive.status).toBe(200);
    const zip = new Uint8Array(await archive.arrayBuffer());
    // The image's bytes are in the zip (read from the bucket, not an empty file).
    expect(zip.byteLength).toBeGreaterThan(shot.byteLength);

    const reg = await call("/api/auth/register", { method: "POST", ...json({ email: `r-${crypto.randomUUID()}@example.com`, password: "workers password" }) });
    const other = reg.headers.getSetCookie()[0]!.split(";")[0]!;
    const res = await call("/api/archive", { method: "POST", cookie: other, body: zip, headers: { "Content-Type": "application/zip" } });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ accounts: 1, fills: 2, screenshots: 1, imports: 1 });
    const theirs = await (await call("/api/trades", { cookie: other })).json<{ trades: Array<{ id: string }> }>();
    const images = await (await call(`/api/trades/${theirs.trades[0]!.id}/images`, { cookie: other })).json<{ images: Array<{ id: string }> }>();
    const back = await call(`/api/trades/${theirs.trades[0]!.id}/images/${images.images[0]!.id}`, { cookie: other });
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(shot);
    const sql = testSql();
    expect(await sql`select count(*)::int as n from archive_restore_images`).toEqual([{ n: 0 }]);
    expect(accountId).toBeTruthy();
  });
});
