// Room for an upload that must be read out of order (an archive's central directory is at its end), never
// held whole in memory: a temporary file on Node (scratch-file.ts), the object store on a Worker
// (scratch-object.ts). Domain code sees this interface only, through `deps.scratch`; where it is absent such
// uploads are refused with a clear 503.

export type ScratchFile = {
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Removes the file; safe to call twice. */
  dispose(): Promise<void>;
};

export type Scratch = {
  /** Keeps the stream's bytes; throws ScratchTooLarge (and keeps nothing) past `maxBytes`. */
  keep(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<ScratchFile>;
};

export class ScratchTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}
