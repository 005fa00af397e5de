// The Node scratch (scratch.ts): each upload in a file of its own under the system's temporary folder,
// written as it arrives and removed when the caller disposes of it (or, for a stopped process, by the
// system's own temporary-file cleaning).
import { randomUUID } from "node:crypto";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScratchTooLarge, type Scratch, type ScratchFile } from "./scratch.ts";

export function createFileScratch(dir: string = tmpdir()): Scratch {
  return {
    async keep(body, maxBytes) {
      const folder = await mkdtemp(join(dir, "journal-upload-"));
      const path = join(folder, randomUUID());
      const handle = await open(path, "w+", 0o600);
      const dispose = async () => {
        await handle.close().catch(() => {});
        await rm(folder, { recursive: true, force: true });
      };
      let size = 0;
      try {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            await reader.cancel().catch(() => {});
            throw new ScratchTooLarge(maxBytes);
          }
          await handle.write(value, 0, value.byteLength, null);
        }
      } catch (err) {
        await dispose();
        throw err;
      }
      const file: ScratchFile = {
        size,
        async read(offset, length) {
          const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
          let got = 0;
          while (got < buffer.byteLength) {
            const { bytesRead } = await handle.read(buffer, got, buffer.byteLength - got, offset + got);
            if (bytesRead === 0) break;
            got += bytesRead;
          }
          return got === buffer.byteLength ? buffer : buffer.subarray(0, got);
        },
        dispose,
      };
      return file;
    },
  };
}
