// Images over HTTP, shared by their owners' groups: one image's bytes (serveImage, for trades and journals
// too), and the four routes of a playbook's or a day's images (ownerImages).
import type { Context } from "hono";
import { z } from "zod/mini";
import { AppError } from "../lib/errors.ts";
import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, readUpload, validate, type AppEnv } from "../lib/http/index.ts";
import { TradeImageListSchema, TradeImageSchema, TradeImageUploadSchema } from "../lib/trades/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { addTradeImage, deleteTradeImage, IMAGE_MAX_BYTES, imageExists, listOwnerImages, readTradeImage, type ImageOwner } from "../lib/trades/images.ts";

/** One image's bytes: cacheable by its id, answered 304 on a matching ETag. */
export async function serveImage(c: Context<AppEnv>, owner: ImageOwner, imageId: string) {
  const etag = `"${imageId}"`;
  // Revalidated on every use (no-cache): a browser keeps the bytes but asks first, and only a signed-in owner
  // gets the 304, so signing out on a shared computer leaves no screenshot a fresh load could show. The id
  // names the bytes for good, so a matching tag needs no read; ownership is still checked first.
  const headers = { ETag: etag, "Cache-Control": "private, no-cache", "X-Content-Type-Options": "nosniff" };
  if (c.req.header("If-None-Match")?.split(",").some((t) => t.trim() === etag)) {
    if (!(await imageExists(c.var.deps, currentUser(c), owner, imageId))) throw new AppError("NOT_FOUND", "No such image.");
    return c.body(null, 304, headers);
  }
  const image = await readTradeImage(c.var.deps, currentUser(c), owner, imageId);
  return c.body(image.bytes as Uint8Array<ArrayBuffer>, 200, {
    ...headers,
    "Content-Type": image.contentType,
    "Content-Length": String(image.bytes.byteLength),
    "Content-Disposition": `inline; filename="${imageId}.${image.contentType.slice("image/".length)}"`,
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
}

type Owner = { playbookId: string } | { accountId: string; day: string };

/**
 * POST/GET `${path}/images` and GET/DELETE `${path}/images/:imageId` for one kind of owner: `param` validates
 * the path's own parameters, `ownerOf` names the owner from them.
 */
export function ownerImages<P extends z.ZodMiniObject>(options: { tag: string; what: string; path: string; param: P; ownerOf(params: z.infer<P>): Owner }) {
  const { tag, what, path, param, ownerOf } = options;
  const withImage = z.extend(param, { imageId: z.uuid("must be a uuid") });
  return createRouter()
    .post(
      `${path}/images`,
      describeRoute({
        tag,
        summary: `Add an image to ${what} (PNG, JPEG or WebP by content; at most 5 MB and 10 each; metadata removed)`,
        body: { contentType: "multipart/form-data", schema: TradeImageUploadSchema },
        responses: { 201: { description: "The image as stored.", schema: TradeImageSchema } },
        errors: ["VALIDATION_ERROR", "NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "SERVICE_UNAVAILABLE"],
      }),
      requireUser,
      validate("param", param),
      async (c) => {
        const { file } = await readUpload(c, IMAGE_MAX_BYTES, "the 5 MB limit for one image", "the image");
        return c.json(await addTradeImage(c.var.deps, currentUser(c), ownerOf(c.req.valid("param") as z.infer<P>), file.bytes), 201);
      },
    )
    .get(
      `${path}/images`,
      describeRoute({ tag, summary: `The images of ${what}, oldest first`, responses: { 200: { description: "The images.", schema: TradeImageListSchema } }, errors: ["NOT_FOUND"] }),
      requireUser,
      validate("param", param),
      async (c) => c.json(await listOwnerImages(c.var.deps, currentUser(c), ownerOf(c.req.valid("param") as z.infer<P>))),
    )
    .get(
      `${path}/images/:imageId`,
      describeRoute({
        tag,
        summary: `One image of ${what}: its bytes (ETag; cached private, revalidated on every use)`,
        responses: {
          200: { description: "The image.", contentType: "image/*", schema: z.string().check(z.describe("The image bytes")) },
          304: { description: "Not modified (If-None-Match matched)." },
        },
        errors: ["NOT_FOUND", "SERVICE_UNAVAILABLE"],
      }),
      requireUser,
      validate("param", withImage),
      async (c) => {
        const params = c.req.valid("param") as z.infer<P> & { imageId: string };
        return serveImage(c, ownerOf(params), params.imageId);
      },
    )
    .delete(
      `${path}/images/:imageId`,
      describeRoute({ tag, summary: `Delete an image of ${what}`, responses: { 204: { description: "Deleted." } }, errors: ["NOT_FOUND"] }),
      requireUser,
      validate("param", withImage),
      async (c) => {
        const params = c.req.valid("param") as z.infer<P> & { imageId: string };
        await deleteTradeImage(c.var.deps, currentUser(c), ownerOf(params), params.imageId);
        return c.body(null, 204);
      },
    );
}
