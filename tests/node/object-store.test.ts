import { afterAll, beforeAll } from "vitest";
import type { ObjectStorageSettings } from "../../lib/storage/index.ts";
import { createFetchObjectStore } from "../../lib/storage/s3-fetch.ts";
import { createSdkObjectStore } from "../../lib/storage/s3-sdk.ts";
import { describeObjectStoreContract } from "../support/object-store-contract.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";

// Both adapters against the same local S3-compatible stand-in (the workers project runs the fetch adapter
// inside workerd too).
let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());

const settings = (): ObjectStorageSettings => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  accessKeyId: s3.credentials.accessKeyId,
  secretAccessKey: s3.credentials.secretAccessKey,
  region: s3.region,
  forcePathStyle: true,
});

describeObjectStoreContract("@aws-sdk/client-s3 (Node)", createSdkObjectStore, settings);
describeObjectStoreContract("aws4fetch (Workers, here on Node)", (s) => createFetchObjectStore(s), settings);
