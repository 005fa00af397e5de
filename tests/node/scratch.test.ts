// Both scratches (lib/storage/scratch*.ts) against one contract: an upload kept as it arrives and read back
// at any offset, its size capped, and nothing left behind once disposed of or refused. The object scratch
// (the archive Worker's) runs against the S3 stand-in: parts of 8 MiB (the stand-in refuses smaller ones but
// the last, as S3 does), ranged reads, the multipart upload aborted on a refusal.
import { readdir } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objectStorageSettings } from "../../lib/storage/index.ts";
import { createFileScratch } from "../../lib/storage/scratch-file.ts";
import { createObjectScratch, PART_BYTES } from "../../lib/storage/scratch-object.ts";
import { ScratchTooLarge, type Scratch } from "../../lib/storage/scratch.ts";
import { testConfig } from "../support/env.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";

let s3: S3Server;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  dir = await mkdtemp(join(tmpdir(), "scratch-test-"));
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

/** `bytes` random bytes as a stream of uneven chunks (as a socket delivers them). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const n = Math.min(bytes.length - at, 1 + Math.floor(Math.random() * 300_000));
      controller.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

function random(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(i + 65536, n)));
  return out;
}

const scratches: Array<[string, () => Scratch, () => Promise<number>]> = [
  ["a temporary file (Node)", () => createFileScratch(dir), async () => (await readdir(dir)).length],
  [
    "the object store (the archive Worker)",
    () => createObjectScratch(objectStorageSettings(testConfig(s3.env))!),
    async () => [...s3.objects.keys()].filter((k) => k.startsWith("scratch/")).length + s3.pendingUploads(),
  ],
];

describe.each(scratches)("the scratch in %s", (_where, make, leftovers) => {
  it("keeps an upload as it arrives and reads any range of it back; disposing leaves nothing", async () => {
    const bytes = random(2 * PART_BYTES + 1_234_567);
    const file = await make().keep(streamOf(bytes), bytes.length);
    expect(file.size).toBe(bytes.length);
    expect(await leftovers()).toBe(1);
    for (const [offset, length] of [[0, 22], [bytes.length - 22, 22], [PART_BYTES - 5, 10], [3_000_000, 5_000_000], [bytes.length - 10, 100]] as const) {
      const got = await file.read(offset, length);
      expect(Buffer.from(got).equals(Buffer.from(bytes.subarray(offset, offset + length))), `${offset}+${length}`).toBe(true);
    }
    await file.dispose();
    expect(await leftovers()).toBe(0);
  });

  it("refuses an upload past its cap and keeps none of it", async () => {
    const bytes = random(PART_BYTES + 100);
    await expect(make().keep(streamOf(bytes), PART_BYTES)).rejects.toBeInstanceOf(ScratchTooLarge);
    expect(await leftovers()).toBe(0);
  });
});
