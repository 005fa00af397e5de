// The storage ports (lib/deps.ts composes them): an S3-compatible bucket's few operations (lib/storage, its two
// adapters), and room for an upload read out of order (lib/storage/scratch.ts, a file on Node, the object store on
// a Worker). Types only: domain code sees these, never an adapter.

/** Object storage: the adapters are lib/storage/s3-sdk.ts (Node) and s3-fetch.ts (Workers). */
export type ObjectStore = {
  put(key: string, body: string | Uint8Array, contentType?: string): Promise<void>;
  /** The object's text, or null when there is no such object. */
  get(key: string): Promise<string | null>;
  /** The object's bytes, or null when there is no such object. */
  getBytes(key: string): Promise<Uint8Array | null>;
  /** Removing a missing object is not an error (S3 answers 204 either way). */
  delete(key: string): Promise<void>;
  /** Releases connections (the SDK keeps sockets open); a no-op for fetch. */
  close(): void;
};

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
