// Trade screenshots (and, in the same table, a playbook's example images and a daily journal day's images):
// added to a trade of the user (checked by content, cleaned of metadata by image-bytes.ts), listed, read back
// and deleted. They belong to the trade's journal, so they follow it
// through rebuilds and stay readable on a detached note (by the journal's id). The bytes live in object
// storage when it is configured, inline in Postgres otherwise; each row says which (storage_key or data), so
// switching later keeps every earlier image readable. Rows go with their journal, account or user; a trigger
// queues a stored object's key for deletion in the same transaction (trade_images_queue_object_deletion).
import { Buffer } from "node:buffer";
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { drainObjectDeletions } from "../storage/deletions.ts";
import { StorageUnavailableError, tradeImageKey } from "../storage/index.ts";
import { cleanImage, ImageRejected, type ImageType } from "./image-bytes.ts";

/** Largest upload, before its metadata is removed. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Images one trade can hold. */
export const IMAGES_PER_TRADE = 10;
/** Longest side in pixels: larger images are not screenshots, and browsers struggle to draw them. */
export const IMAGE_MAX_SIDE = 16_384;

export type TradeImage = { id: string; contentType: ImageType; bytes: number; createdAt: string };

type ImageRow = { id: string; content_type: ImageType; bytes: number; created_at: string };

const toImage = (r: ImageRow): TradeImage => ({ id: r.id, contentType: r.content_type, bytes: Number(r.bytes), createdAt: r.created_at });

const noTrade = () => new AppError("NOT_FOUND", "No such trade.");
const noImage = () => new AppError("NOT_FOUND", "No such image.");

/** Refusals for bytes that are not an image we keep, in plain words. */
function rejection(err: ImageRejected): AppError {
  if (err.problem.kind === "unsupported") {
    return new AppError("UNSUPPORTED_MEDIA_TYPE", "Only PNG, JPEG and WebP images can be added. This file is not one of them, whatever its name says.");
  }
  const name = err.problem.type.slice("image/".length).toUpperCase();
  return new AppError("VALIDATION_ERROR", `This file starts like a ${name} image but is damaged or cut short, so it was not added.`, {
    fields: [{ path: "file", message: `is not a readable ${name} image` }],
  });
}

/**
 * POST /api/trades/:id/images (and a playbook's or a day's): one image, at most IMAGE_MAX_BYTES, at most
 * IMAGES_PER_TRADE per owner. A day's entry is made by its first image.
 */
export async function addTradeImage(deps: Pick<Deps, "db" | "storage" | "log">, user: AuthUser, owner: ImageOwner, upload: Uint8Array): Promise<TradeImage> {
  if (upload.byteLength > IMAGE_MAX_BYTES) throw tooLarge();
  let image;
  try {
    image = cleanImage(upload);
  } catch (err) {
    if (err instanceof ImageRejected) throw rejection(err);
    throw err;
  }
  if (image.width > IMAGE_MAX_SIDE || image.height > IMAGE_MAX_SIDE) {
    throw new AppError("PAYLOAD_TOO_LARGE", `The image is ${image.width} x ${image.height} pixels; the limit is ${IMAGE_MAX_SIDE} pixels a side.`);
  }
  const id = crypto.randomUUID();
  const key = deps.storage ? tradeImageKey(user.id, id) : null;
  const data = key ? null : Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString("base64");
  // The row first, then the object (as staged imports do): a refused row leaves nothing in the bucket, and
  // a failed put removes the row again, which queues the key in case the put reached the store after all.
  const dims = sql`${image.contentType}, ${image.bytes.byteLength}::integer, ${image.width}::integer, ${image.height}::integer, ${data}, ${key}, ${IMAGES_PER_TRADE}::integer`;
  const [added] = rowsOf<{ outcome: "added" | "not_found" | "full" }>(
    await deps.db.execute(
      "tradeId" in owner
        ? sql`select trade_image_add(${id}::uuid, ${owner.tradeId}::uuid, ${user.id}::uuid, ${dims}) as outcome`
        : "playbookId" in owner
          ? sql`select owner_image_add(${id}::uuid, ${user.id}::uuid, ${owner.playbookId}::uuid, null, null, ${dims}) as outcome`
          : "day" in owner
            ? sql`select owner_image_add(${id}::uuid, ${user.id}::uuid, null, ${owner.accountId}::uuid, ${owner.day}::date, ${dims}) as outcome`
            : sql`select 'not_found' as outcome`,
    ),
  );
  if (added!.outcome === "not_found") throw notFound(owner);
  if (added!.outcome === "full") {
    throw new AppError("PAYLOAD_TOO_LARGE", `${ownerName(owner)} holds at most ${IMAGES_PER_TRADE} images, and this one is full. Delete one to add another.`);
  }
  if (deps.storage && key) {
    try {
      await deps.storage.put(key, image.bytes, image.contentType);
    } catch (err) {
      await deps.db
        .execute(sql`delete from trade_images where id = ${id}::uuid`)
        .catch((dbErr: unknown) => deps.log.error("could not remove the row of a failed image upload", { imageId: id, error: String(dbErr) }));
      throw storageFailure(deps, err, "put");
    }
  }
  const [row] = rowsOf<ImageRow>(await deps.db.execute(sql`select id::text, content_type, bytes, ${sql.raw(isoUtc("created_at"))} as created_at from trade_images where id = ${id}::uuid`));
  if (!row) throw notFound(owner); // the trade went away (its fills deleted) in the meantime
  return toImage(row);
}

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The image is larger than ${IMAGE_MAX_BYTES / (1024 * 1024)} MB (${IMAGE_MAX_BYTES} bytes), the limit for one image.`);
}

function storageFailure(deps: Pick<Deps, "log">, err: unknown, operation: string): unknown {
  if (!(err instanceof StorageUnavailableError)) return err;
  deps.log.warn("object storage unavailable for a trade image", { operation, detail: err.detail });
  return new AppError("SERVICE_UNAVAILABLE", "Image storage is unavailable right now, so nothing was changed. Try again in a moment.", {
    headers: { "Retry-After": "30" },
  });
}

/** Whose images: a trade's (through its journal), a journal's (a detached note's too), a playbook's or a day's. */
export type ImageOwner = { tradeId: string } | { journalId: string } | { playbookId: string } | { accountId: string; day: string };

const ownedBy = (owner: ImageOwner) =>
  "tradeId" in owner
    ? sql`i.journal_id = (select id from trade_journals where position_id = ${owner.tradeId}::uuid)`
    : "journalId" in owner
      ? sql`i.journal_id = ${owner.journalId}::uuid`
      : "playbookId" in owner
        ? sql`i.playbook_id = ${owner.playbookId}::uuid`
        : sql`i.day_account_id = ${owner.accountId}::uuid and i.day = ${owner.day}::date`;

const ownerName = (owner: ImageOwner) => ("playbookId" in owner ? "A playbook" : "day" in owner ? "A day" : "A trade");

function notFound(owner: ImageOwner): AppError {
  if ("playbookId" in owner) return new AppError("NOT_FOUND", "No such playbook.");
  if ("day" in owner) return new AppError("NOT_FOUND", "No such account.");
  return noTrade();
}

/** GET /api/playbooks/:id/images and /api/days/:accountId/:day/images: the owner's images, oldest first. */
export async function listOwnerImages(deps: Pick<Deps, "db">, user: AuthUser, owner: { playbookId: string } | { accountId: string; day: string }) {
  const exists =
    "playbookId" in owner
      ? sql`exists (select 1 from playbooks where id = ${owner.playbookId}::uuid and user_id = ${user.id}::uuid)`
      : sql`exists (select 1 from accounts where id = ${owner.accountId}::uuid and user_id = ${user.id}::uuid)`;
  const [row] = rowsOf<{ found: boolean; images: string }>(
    await deps.db.execute(sql`select ${exists} as found, coalesce((select json_agg(json_build_object('id', i.id, 'contentType', i.content_type,
        'bytes', i.bytes, 'createdAt', ${sql.raw(isoUtc("i.created_at"))}) order by i.created_at, i.id)
      from trade_images i where i.user_id = ${user.id}::uuid and ${ownedBy(owner)}), '[]')::text as images`),
  );
  if (!row?.found) throw notFound(owner);
  return { images: JSON.parse(row.images) as TradeImage[] };
}

/** GET /api/trades/:id/images: the trade's images, oldest first. */
export async function listTradeImages(deps: Pick<Deps, "db">, user: AuthUser, tradeId: string): Promise<{ images: TradeImage[] }> {
  const rows = rowsOf<ImageRow & { owned: boolean }>(
    await deps.db.execute(sql`
      select i.id::text, i.content_type, i.bytes, ${sql.raw(isoUtc("i.created_at"))} as created_at
      from positions p join accounts a on a.id = p.account_id
      left join trade_journals j on j.position_id = p.id
      left join trade_images i on i.journal_id = j.id
      where p.id = ${tradeId}::uuid and a.user_id = ${user.id}::uuid
      order by i.created_at, i.id`),
  );
  if (!rows.length) throw noTrade();
  return { images: rows.filter((r) => r.id !== null).map(toImage) };
}

/** Whether an image is the user's and its owner's (for a conditional request answered without reading it). */
export async function imageExists(deps: Pick<Deps, "db">, user: AuthUser, owner: ImageOwner, imageId: string): Promise<boolean> {
  const rows = rowsOf(
    await deps.db.execute(sql`select 1 from trade_images i where i.id = ${imageId}::uuid and i.user_id = ${user.id}::uuid and ${ownedBy(owner)}`),
  );
  return rows.length > 0;
}

/** GET /api/trades/:id/images/:imageId (and /api/journals/:id/images/:imageId): the bytes and their type. */
export async function readTradeImage(
  deps: Pick<Deps, "db" | "storage" | "log">,
  user: AuthUser,
  owner: ImageOwner,
  imageId: string,
): Promise<{ contentType: ImageType; bytes: Uint8Array }> {
  const [row] = rowsOf<{ content_type: ImageType; data: string | null; storage_key: string | null }>(
    await deps.db.execute(sql`
      select i.content_type, encode(i.data, 'base64') as data, i.storage_key from trade_images i
      where i.id = ${imageId}::uuid and i.user_id = ${user.id}::uuid and ${ownedBy(owner)}`),
  );
  if (!row) throw noImage();
  if (row.data !== null) return { contentType: row.content_type, bytes: Buffer.from(row.data, "base64") };
  if (!deps.storage) {
    deps.log.warn("a trade image is in object storage, which is not configured", { imageId });
    throw new AppError("SERVICE_UNAVAILABLE", "This image is kept in object storage, which this instance is not connected to right now.");
  }
  let bytes: Uint8Array | null;
  try {
    bytes = await deps.storage.getBytes(row.storage_key!);
  } catch (err) {
    throw storageFailure(deps, err, "get");
  }
  if (!bytes) {
    deps.log.warn("a trade image's object is missing", { imageId });
    throw noImage();
  }
  return { contentType: row.content_type, bytes };
}

/** DELETE /api/trades/:id/images/:imageId (or a journal's). The object, if any, is removed now or by the purge job. */
export async function deleteTradeImage(deps: Pick<Deps, "db" | "storage" | "log">, user: AuthUser, owner: ImageOwner, imageId: string): Promise<void> {
  const [gone] = rowsOf<{ storage_key: string | null }>(
    await deps.db.execute(sql`
      delete from trade_images i where i.id = ${imageId}::uuid and i.user_id = ${user.id}::uuid and ${ownedBy(owner)}
      returning i.storage_key`),
  );
  if (!gone) throw noImage();
  if (gone.storage_key) await drainObjectDeletions(deps, [gone.storage_key]);
}
