// Object storage seam: the few operations domain code needs from an S3-compatible bucket. Two adapters
// implement it: s3-sdk.ts (@aws-sdk/client-s3, Node) and s3-fetch.ts (aws4fetch over fetch, Workers, where
// the SDK would push the csv-import and jobs Workers over their 250 KB gzip budget). Domain code only sees
// this interface, through `deps.storage`.
import type { Config } from "../config/index.ts";
import type { ObjectStore } from "../ports/storage.ts";
import { AppError } from "../errors.ts";

export type { ObjectStore };

export type ObjectStorageSettings = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  forcePathStyle: boolean;
};

/**
 * R2 names its region `auto` and aliases `us-east-1` to it; MinIO and most other S3-compatible servers
 * expect `us-east-1` when none is configured, so that is the default that works everywhere.
 */
export const DEFAULT_REGION = "us-east-1";

/** The adapters' settings, or undefined unless all four required OBJECT_STORAGE_ variables are set. */
export function objectStorageSettings(config: Config): ObjectStorageSettings | undefined {
  const { OBJECT_STORAGE_ENDPOINT: endpoint, OBJECT_STORAGE_BUCKET: bucket } = config;
  const { OBJECT_STORAGE_ACCESS_KEY_ID: accessKeyId, OBJECT_STORAGE_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!config.features.objectStorage || !endpoint || !bucket || !accessKeyId || !secretAccessKey) return undefined;
  return {
    endpoint: endpoint.replace(/\/+$/, ""),
    bucket,
    accessKeyId,
    secretAccessKey,
    region: config.OBJECT_STORAGE_REGION ?? DEFAULT_REGION,
    forcePathStyle: config.OBJECT_STORAGE_FORCE_PATH_STYLE,
  };
}

/**
 * The store could not be reached or refused the request (network error, timeout, 403 from a bad
 * signature, 5xx). An AppError, so even if nothing catches it the client gets 503 and no detail;
 * `detail` (an HTTP status or error name, never a credential) is for the log.
 */
export class StorageUnavailableError extends AppError {
  readonly operation: string;
  readonly detail: string;
  constructor(operation: string, detail: string) {
    super("SERVICE_UNAVAILABLE", "Object storage is unavailable right now; try again in a moment.");
    this.operation = operation;
    this.detail = detail;
  }
}

/** Per-request time budget of both adapters: a hung store must not hold a request for minutes. */
export const STORAGE_TIMEOUT_MS = 15_000;

/** Key of a staged CSV preview: one object per import, grouped by user for an operator's listing. */
export function stagedImportKey(userId: string, importId: string): string {
  return `csv-imports/${userId}/${importId}.json`;
}

/** Key of a trade screenshot: one object per image, grouped by user. */
export function tradeImageKey(userId: string, imageId: string): string {
  return `trade-images/${userId}/${imageId}`;
}
