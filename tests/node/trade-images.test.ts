// Trade screenshots (POST/GET/DELETE /api/trades/:id/images): type by content, caps, metadata removed,
// ownership, deletion cascades; inline in the real Postgres and in the local S3 stand-in through the real
// SDK adapter, including a store that is down and a switch between the two.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { IMAGE_MAX_BYTES } from "../../lib/trades/images.ts";
import { journal } from "../support/app.ts";
import { PASSWORD, type TestClient } from "../support/client.ts";
import { GPS_MARK, jpegImage, pngImage, webpImage } from "../support/images.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";

const url = () => inject("databaseUrl");
let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3?.close());

function upload(client: TestClient, tradeId: string, bytes: Uint8Array | string, name = "chart.png", type = "application/octet-stream") {
  const form = new FormData();
  form.set("file", new Blob([bytes as BlobPart], { type }), name);
  return client.request(`/api/trades/${tradeId}/images`, { method: "POST", body: form });
}

/** A trader with one account and one open trade (a stock buy). */
async function trader(env: Record<string, string> = {}, tag = "shots") {
  const j = await journal(url(), env);
  const { client, userId } = await j.signUp(tag);
  const account = await (await client.post("/api/accounts", { name: `Shots ${crypto.randomUUID()}`, currency: "USD" })).json();
  const fill = await client.post("/api/fills", { accountId: account.id, symbol: "AAPL", side: "buy", quantity: "10", price: "100", executedAt: "2026-03-02T15:00:00Z" });
  expect(fill.status).toBe(201);
  const fillId = (await fill.json()).id as string;
  const trades = await (await client.get(`/api/trades?accountId=${account.id}`)).json();
  return { ...j, client, userId, accountId: account.id as string, fillId, tradeId: trades.trades[0].id as string };
}

type Trader = Awaited<ReturnType<typeof trader>>;

const imageRows = async (t: Trader, tradeId = t.tradeId) =>
  rowsOf<{ id: string; content_type: string; bytes: number; width: number; height: number; data: string | null; storage_key: string | null }>(
    await t.db.execute(sql`select id::text, content_type, bytes, width, height, encode(data, 'base64') as data, storage_key
      from trade_images where journal_id = (select id from trade_journals where position_id = ${tradeId}::uuid) order by created_at`),
  );

async function added(t: Trader, bytes: Uint8Array, name?: string) {
  const res = await upload(t.client, t.tradeId, bytes, name);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; contentType: string; bytes: number; createdAt: string };
}

describe("inline in Postgres (no object storage)", () => {
  it.each([
    ["PNG", pngImage({ metadata: true }), "image/png", 64, 48],
    ["JPEG", jpegImage({ metadata: true }), "image/jpeg", 800, 600],
    ["WebP", webpImage({ metadata: true }), "image/webp", 320, 200],
  ])("a %s is stored without its metadata and served back with cache headers", async (_n, file, type, width, height) => {
    const t = await trader();
    expect(file.includes(GPS_MARK)).toBe(true);
    const image = await added(t, file);
    expect(image).toEqual({ id: expect.any(String), contentType: type, bytes: expect.any(Number), createdAt: expect.stringMatching(/Z$/) });
    expect(image.bytes).toBeLessThan(file.length);
    const [row] = await imageRows(t);
    expect(row).toMatchObject({ id: image.id, content_type: type, width, height, storage_key: null });
    const stored = Buffer.from(row!.data!, "base64");
    expect(stored.length).toBe(image.bytes);
    expect(stored.includes(GPS_MARK)).toBe(false);
    expect(stored.includes("Exif")).toBe(false);

    const res = await t.client.get(`/api/trades/${t.tradeId}/images/${image.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    // Revalidated on every use (a 304 costs no bytes): after signing out on a shared computer, a fresh load
    // shows no screenshot from the browser's cache.
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    // Its own policy, not the shell's: a stored picture never runs as a page.
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    const served = Buffer.from(await res.arrayBuffer());
    expect(served.equals(stored)).toBe(true);
    // The same tag again: 304 and no body.
    const again = await t.client.get(`/api/trades/${t.tradeId}/images/${image.id}`, { headers: { "If-None-Match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(await (await t.client.get(`/api/trades/${t.tradeId}/images`)).json()).toEqual({ images: [image] });
  });

  it("a progressive JPEG loses the metadata between its scans; a multi-picture file is cut at its first frame's end", async () => {
    const t = await trader();
    const progressive = jpegImage({ progressive: true });
    expect(progressive.includes(GPS_MARK)).toBe(true);
    const p = await added(t, progressive, "progressive.jpg");
    // Stored: SOI, JFIF, the tables, the frame, both scans (stuffed byte and restart marker untouched) and the
    // table between them, EOI; not the EXIF segment nor the comment between the scans.
    const stored = async (id: string) => Buffer.from((await imageRows(t)).find((r) => r.id === id)!.data!, "base64");
    const kept = await stored(p.id);
    expect(kept.includes(GPS_MARK)).toBe(false);
    expect(kept.includes(Buffer.from("Exif"))).toBe(false);
    expect(kept.includes(Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]))).toBe(true);
    expect(kept.includes(Buffer.from([0x78, 0x9a, 0xff, 0xd9]))).toBe(true);
    expect(kept.length).toBe(progressive.length - (4 + 6 + 8 + GPS_MARK.length) - (4 + `between scans ${GPS_MARK}`.length));

    const first = jpegImage();
    const twoPictures = jpegImage({ appended: true });
    expect(twoPictures.includes(GPS_MARK)).toBe(true);
    const m = await added(t, twoPictures, "camera.jpg");
    const cut = await stored(m.id);
    expect(cut.equals(first)).toBe(true); // the first frame exactly, ending at its EOI
    expect(cut.includes(GPS_MARK)).toBe(false);
  });

  it("the type comes from the content: a PNG named .jpg is a PNG; a text file named .png is refused 415 and nothing is stored", async () => {
    const t = await trader();
    const png = await added(t, pngImage(), "renamed.jpg");
    expect(png.contentType).toBe("image/png");
    for (const [bytes, name, type] of [
      ["just some text, not an image", "fake.png", "image/png"],
      ["%PDF-1.7 not an image either", "chart.webp", "image/webp"],
      ["GIF89a\x01\x00\x01\x00", "anim.gif", "image/gif"],
    ] as const) {
      const res = await upload(t.client, t.tradeId, bytes, name, type);
      expect(res.status).toBe(415);
      const body = await res.json();
      expect(body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      expect(body.error.message).toMatch(/PNG, JPEG and WebP/);
    }
    const broken = await upload(t.client, t.tradeId, jpegImage({ truncated: true }), "cut.jpg");
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringMatching(/damaged or cut short/) });
    const halfPng = pngImage().subarray(0, 40);
    expect((await upload(t.client, t.tradeId, halfPng)).status).toBe(400);
    expect((await imageRows(t)).map((r) => r.id)).toEqual([png.id]);
  });

  it("413 names the cap: one file over 5 MB, an 11th image; under racing uploads the trade still holds exactly 10", async () => {
    const t = await trader();
    const big = Buffer.concat([pngImage(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const tooBig = await upload(t.client, t.tradeId, big);
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: expect.stringMatching(/5 MB/) });

    const results = await Promise.all(Array.from({ length: 14 }, (_, i) => upload(t.client, t.tradeId, pngImage({ rgb: [i, 0, 0] }))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 413)).toHaveLength(4);
    const refused = results.find((r) => r.status === 413)!;
    expect((await refused.json()).error.message).toMatch(/at most 10 images/);
    expect(await imageRows(t)).toHaveLength(10);
  });

  it("another user's trade or image is 404 on every route, and nothing changes", async () => {
    const owner = await trader({}, "owner");
    const image = await added(owner, pngImage());
    const other = await trader({}, "other");
    const paths = [`/api/trades/${owner.tradeId}/images`, `/api/trades/${owner.tradeId}/images/${image.id}`, `/api/trades/${other.tradeId}/images/${image.id}`];
    for (const path of paths) expect((await other.client.get(path)).status, path).toBe(404);
    expect((await other.client.delete(`/api/trades/${owner.tradeId}/images/${image.id}`)).status).toBe(404);
    expect((await other.client.delete(`/api/trades/${other.tradeId}/images/${image.id}`)).status).toBe(404);
    expect((await upload(other.client, owner.tradeId, pngImage())).status).toBe(404);
    expect((await owner.client.get(`/api/trades/${owner.tradeId}/images/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await imageRows(owner)).map((r) => r.id)).toEqual([image.id]);
    expect(await imageRows(other)).toEqual([]);
  });

  it("bad requests: not multipart 415, no file part 400, a bad id 400, signed out 401", async () => {
    const t = await trader();
    const json = await t.client.request(`/api/trades/${t.tradeId}/images`, { method: "POST", json: { file: "x" } });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.set("other", "x");
    expect((await t.client.request(`/api/trades/${t.tradeId}/images`, { method: "POST", body: form })).status).toBe(400);
    expect((await upload(t.client, "not-a-uuid", pngImage())).status).toBe(400);
    expect((await t.client.get(`/api/trades/${t.tradeId}/images/nope`)).status).toBe(400);
    expect((await upload(t.anonymous(), t.tradeId, pngImage())).status).toBe(401);
    expect(await imageRows(t)).toEqual([]);
  });

  it("DELETE removes one image; deleting the trade's fills or the account removes the rest", async () => {
    const t = await trader();
    const [a, b] = [await added(t, pngImage()), await added(t, pngImage({ rgb: [1, 2, 3] }))];
    expect((await t.client.delete(`/api/trades/${t.tradeId}/images/${a.id}`)).status).toBe(204);
    expect((await t.client.get(`/api/trades/${t.tradeId}/images/${a.id}`)).status).toBe(404);
    expect((await t.client.delete(`/api/trades/${t.tradeId}/images/${a.id}`)).status).toBe(404);
    expect((await imageRows(t)).map((r) => r.id)).toEqual([b.id]);
    // The trade goes with its only fill, and its images with it.
    expect((await t.client.delete(`/api/fills/${t.fillId}`)).status).toBe(204);
    expect(await imageRows(t)).toEqual([]);

    const u = await trader();
    await added(u, pngImage());
    expect((await u.client.delete(`/api/accounts/${u.accountId}?confirm=delete-history`)).status).toBe(204);
    expect(await imageRows(u)).toEqual([]);
  });
});

describe("in object storage", () => {
  it("the bytes go to the bucket without metadata, the row keeps only the key; GET reads them back", async () => {
    const t = await trader(s3.env);
    const image = await added(t, jpegImage({ metadata: true }));
    const [row] = await imageRows(t);
    expect(row).toMatchObject({ data: null, storage_key: `trade-images/${t.userId}/${image.id}` });
    const object = s3.objects.get(row!.storage_key!)!;
    expect(object.contentType).toBe("image/jpeg");
    expect(object.body.length).toBe(image.bytes);
    expect(object.body.includes(GPS_MARK)).toBe(false);
    const res = await t.client.get(`/api/trades/${t.tradeId}/images/${image.id}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(object.body)).toBe(true);
  });

  it("a store that is down: the upload is 503 with nothing half-written, reading is 503, then both work again", async () => {
    const t = await trader(s3.env);
    const kept = await added(t, pngImage());
    const objects = s3.objects.size;
    s3.unavailable(true);
    try {
      const res = await upload(t.client, t.tradeId, pngImage({ rgb: [9, 9, 9] }));
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect(body.error.message).toMatch(/nothing was changed/);
      expect(res.headers.get("retry-after")).toBe("30");
      expect((await imageRows(t)).map((r) => r.id)).toEqual([kept.id]);
      expect(s3.objects.size).toBe(objects);
      expect((await t.client.get(`/api/trades/${t.tradeId}/images/${kept.id}`)).status).toBe(503);
    } finally {
      s3.unavailable(false);
    }
    expect((await t.client.get(`/api/trades/${t.tradeId}/images/${kept.id}`)).status).toBe(200);
    await added(t, pngImage({ rgb: [9, 9, 9] }));
    expect(await imageRows(t)).toHaveLength(2);
  });

  it("switching on object storage later keeps inline images readable; new ones go to the bucket", async () => {
    const inline = await trader();
    const old = await added(inline, pngImage());
    const withStore = await journal(url(), s3.env);
    const client = withStore.anonymous();
    expect((await client.post("/api/auth/login", { email: (await (await inline.client.get("/api/auth/me")).json()).user.email, password: PASSWORD })).status).toBe(200);
    expect((await client.get(`/api/trades/${inline.tradeId}/images/${old.id}`)).status).toBe(200);
    const form = new FormData();
    form.set("file", new Blob([pngImage({ rgb: [5, 5, 5] }) as BlobPart]), "new.png");
    expect((await client.request(`/api/trades/${inline.tradeId}/images`, { method: "POST", body: form })).status).toBe(201);
    const rows = await imageRows(inline);
    expect(rows.map((r) => [r.data === null, r.storage_key === null])).toEqual([
      [false, true],
      [true, false],
    ]);
    // And back: without the variables an image in the bucket answers 503 (documented), inline ones still 200.
    expect((await inline.client.get(`/api/trades/${inline.tradeId}/images/${rows[1]!.id}`)).status).toBe(503);
    expect((await inline.client.get(`/api/trades/${inline.tradeId}/images/${old.id}`)).status).toBe(200);
  });

  it("deleting an image, a trade or the whole user removes the objects (queued, then drained)", async () => {
    const t = await trader(s3.env);
    const one = await added(t, pngImage());
    const two = await added(t, pngImage({ rgb: [7, 7, 7] }));
    const keyOf = (id: string) => `trade-images/${t.userId}/${id}`;
    expect((await t.client.delete(`/api/trades/${t.tradeId}/images/${one.id}`)).status).toBe(204);
    expect(s3.objects.has(keyOf(one.id))).toBe(false);
    expect(s3.objects.has(keyOf(two.id))).toBe(true);

    const me = await (await t.client.get("/api/auth/me")).json();
    expect(me.user.id).toBe(t.userId);
    const res = await t.client.request("/api/auth/account", { method: "DELETE", json: { password: PASSWORD, confirm: "delete my account" } });
    expect(res.status).toBe(204);
    await t.t.settled();
    expect(s3.objects.has(keyOf(two.id))).toBe(false);
    const queued = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from object_deletions where key like ${`trade-images/${t.userId}/%`}`));
    expect(queued[0]!.n).toBe(0);
  });
});
