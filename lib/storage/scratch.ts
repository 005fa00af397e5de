// Room for an upload that must be read out of order (an archive's central directory is at its end), never
// held whole in memory: a temporary file on Node (scratch-file.ts), the object store on a Worker
// (scratch-object.ts). Domain code sees this interface only, through `deps.scratch`; where it is absent such
// uploads are refused with a clear 503.
import type { Scratch, ScratchFile } from "../ports/storage.ts";

export type { Scratch, ScratchFile };

export class ScratchTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}
