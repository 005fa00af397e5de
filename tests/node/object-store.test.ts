import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

describe("the fetch adapter's addressing", () => {
  it("puts the bucket in the host name when path style is off, and signs for that host", async () => {
    const seen: Request[] = [];
    const capture: typeof fetch = async (input) => {
      seen.push(input as Request);
      return new Response(null, { status: 200 });
    };
    const store = createFetchObjectStore({ ...settings(), endpoint: "https://storage.example.test/base", forcePathStyle: false }, capture);
    await store.put("csv-imports/u/i.json", "[]");
    const store2 = createFetchObjectStore({ ...settings(), endpoint: "https://storage.example.test", forcePathStyle: true }, capture);
    await store2.delete("csv-imports/u/i.json");
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `PUT https://${s3.bucket}.storage.example.test/base/csv-imports/u/i.json`,
      `DELETE https://storage.example.test/${s3.bucket}/csv-imports/u/i.json`,
    ]);
    for (const r of seen) {
      expect(r.headers.get("authorization")).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${s3.credentials.accessKeyId}/\\d{8}/${s3.region}/s3/aws4_request, SignedHeaders=[^,]*host`));
    }
  });
});
