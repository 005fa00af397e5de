// The Node adapter: @aws-sdk/client-s3. Only the Node entrypoint imports this file, so no Worker bundle
// contains the SDK (it would add ~87 KB gzip; see docs/architecture.md).
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { STORAGE_TIMEOUT_MS, StorageUnavailableError, type ObjectStore, type ObjectStorageSettings } from "./index.ts";

function detailOf(err: unknown): string {
  if (err instanceof S3ServiceException) return `HTTP ${err.$metadata.httpStatusCode ?? "?"} ${err.name}`;
  return err instanceof Error ? ((err as { code?: string }).code ?? err.name) : "unknown";
}

const isMissingObject = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === "NoSuchKey" || (err.$metadata.httpStatusCode === 404 && err.name !== "NoSuchBucket"));

export function createSdkObjectStore(settings: ObjectStorageSettings): ObjectStore {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // One retry at most: the caller answers 503 quickly rather than holding the request through backoff.
    maxAttempts: 2,
    // Checksums only where S3 requires them: several S3-compatible stores reject the newer CRC headers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 5_000, requestTimeout: STORAGE_TIMEOUT_MS },
  });
  const Bucket = settings.bucket;
  return {
    async put(key, body, contentType = "application/json") {
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
      } catch (err) {
        throw new StorageUnavailableError("put", detailOf(err));
      }
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return (await res.Body?.transformToString("utf-8")) ?? "";
      } catch (err) {
        if (isMissingObject(err)) return null;
        throw new StorageUnavailableError("get", detailOf(err));
      }
    },
    async getBytes(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return (await res.Body?.transformToByteArray()) ?? new Uint8Array();
      } catch (err) {
        if (isMissingObject(err)) return null;
        throw new StorageUnavailableError("get", detailOf(err));
      }
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        if (isMissingObject(err)) return;
        throw new StorageUnavailableError("delete", detailOf(err));
      }
    },
    close() {
      client.destroy();
    },
  };
}
