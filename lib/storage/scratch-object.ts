// The edge's scratch (scratch.ts): a Worker has no disk, so an upload read out of order is kept in the object
// store under scratch/<uuid>, written as it arrives in parts of PART_BYTES (S3's multipart upload: one part in
// memory at a time) and read back with ranged GETs through a block of READ_BLOCK_BYTES (a zip's small entries
// then cost one request per block, not one each). The object is deleted when the caller disposes of it; one
// left by a stopped Worker is removed by the bucket's lifecycle rule for scratch/ (docs/operations.md).
import type { Config } from "../config/index.ts";
import { objectStorageSettings, StorageUnavailableError, type ObjectStorageSettings } from "./index.ts";
import { createS3Caller } from "./s3-fetch.ts";
import { ScratchTooLarge, type Scratch, type ScratchFile } from "./scratch.ts";

/** Size of each uploaded part (S3 takes at least 5 MiB for every part but the last). */
export const PART_BYTES = 8 * 1024 * 1024;
/** Bytes fetched per ranged read at least. */
export const READ_BLOCK_BYTES = 4 * 1024 * 1024;

export function createObjectScratch(settings: ObjectStorageSettings, outbound?: typeof fetch): Scratch {
  const { call, errorCode } = createS3Caller(settings, outbound);
  const fail = async (operation: string, res: Response) => new StorageUnavailableError(operation, await errorCode(res));

  /** The body cut into parts of PART_BYTES (the last shorter), counting against `maxBytes`. */
  async function* partsOf(body: ReadableStream<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
    const reader = body.getReader();
    let part = new Uint8Array(PART_BYTES);
    let filled = 0;
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > maxBytes) throw new ScratchTooLarge(maxBytes);
        let at = 0;
        while (at < value.byteLength) {
          const n = Math.min(PART_BYTES - filled, value.byteLength - at);
          part.set(value.subarray(at, at + n), filled);
          filled += n;
          at += n;
          if (filled === PART_BYTES) {
            yield part;
            part = new Uint8Array(PART_BYTES);
            filled = 0;
          }
        }
      }
      if (filled > 0 || total === 0) yield part.subarray(0, filled);
    } finally {
      await reader.cancel().catch(() => {});
    }
  }

  return {
    async keep(body, maxBytes) {
      const key = `scratch/${crypto.randomUUID()}`;
      const created = await call("put", key, { method: "POST" }, { uploads: "" });
      if (!created.ok) throw await fail("put", created);
      const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())?.[1];
      if (!uploadId) throw new StorageUnavailableError("put", "no UploadId");
      const etags: string[] = [];
      let size = 0;
      try {
        for await (const part of partsOf(body, maxBytes)) {
          const res = await call("put", key, { method: "PUT", body: part as Uint8Array<ArrayBuffer> }, { partNumber: String(etags.length + 1), uploadId });
          if (!res.ok) throw await fail("put", res);
          await res.body?.cancel().catch(() => {});
          etags.push(res.headers.get("etag") ?? "");
          size += part.byteLength;
        }
        const list = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`).join("");
        const done = await call("put", key, { method: "POST", body: `<CompleteMultipartUpload>${list}</CompleteMultipartUpload>` }, { uploadId });
        // S3 may answer 200 with an error in the body.
        const answer = done.ok ? await done.text() : "";
        if (!done.ok || answer.includes("<Error>")) throw done.ok ? new StorageUnavailableError("put", "CompleteMultipartUpload failed") : await fail("put", done);
      } catch (err) {
        await call("delete", key, { method: "DELETE" }, { uploadId }).then((r) => r.body?.cancel()).catch(() => {});
        throw err;
      }

      let block: { start: number; bytes: Uint8Array } | null = null;
      const file: ScratchFile = {
        size,
        async read(offset, length) {
          const end = Math.min(offset + length, size);
          if (end <= offset) return new Uint8Array(0);
          if (!block || offset < block.start || end > block.start + block.bytes.byteLength) {
            const last = Math.min(size, offset + Math.max(length, READ_BLOCK_BYTES)) - 1;
            const res = await call("get", key, { method: "GET", headers: { Range: `bytes=${offset}-${last}` } });
            if (res.status !== 206 && res.status !== 200) throw await fail("get", res);
            const bytes = new Uint8Array(await res.arrayBuffer());
            block = { start: res.status === 200 ? 0 : offset, bytes };
          }
          return block.bytes.slice(offset - block.start, end - block.start);
        },
        async dispose() {
          block = null;
          await call("delete", key, { method: "DELETE" })
            .then((r) => r.body?.cancel())
            .catch(() => {});
        },
      };
      return file;
    },
  };
}

/** A Worker's scratch: in the object store when the four OBJECT_STORAGE_ variables are set, else none. */
export function createEdgeScratch(config: Config, outbound?: typeof fetch): Scratch | undefined {
  const settings = objectStorageSettings(config);
  return settings ? createObjectScratch(settings, outbound) : undefined;
}
