// The Workers adapter: plain S3 REST calls over fetch, signed with SigV4 by aws4fetch (~2.5 KB gzip, versus
// ~87 KB for @aws-sdk/client-s3). It runs anywhere fetch and WebCrypto exist, Node included.
import { AwsClient } from "aws4fetch";
import type { Config } from "../config/index.ts";
import { objectStorageSettings, STORAGE_TIMEOUT_MS, StorageUnavailableError, type ObjectStore, type ObjectStorageSettings } from "./index.ts";

/** The S3 error code of an XML error body (`<Code>NoSuchKey</Code>`), never anything else from it. */
async function errorCode(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  const code = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(text)?.[1];
  return code ? `HTTP ${res.status} ${code}` : `HTTP ${res.status}`;
}

/** Signed S3 REST calls over fetch: the shared part of the store below and of the edge's scratch (scratch-object.ts). */
export function createS3Caller(settings: ObjectStorageSettings, outbound: typeof fetch = (...a) => fetch(...a)) {
  // Retries are left to the caller (a preview answers 503 and the user tries again): aws4fetch's default of
  // 10 retries with backoff could hold a request for most of a minute.
  const signer = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    service: "s3",
    region: settings.region,
    retries: 0,
  });
  const base = new URL(settings.endpoint);
  const urlOf = (key: string, query?: Record<string, string>) => {
    const url = new URL(base);
    const path = key.split("/").map(encodeURIComponent).join("/");
    const prefix = url.pathname.replace(/\/+$/, "");
    if (settings.forcePathStyle) url.pathname = `${prefix}/${encodeURIComponent(settings.bucket)}/${path}`;
    else {
      url.hostname = `${settings.bucket}.${url.hostname}`;
      url.pathname = `${prefix}/${path}`;
    }
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    return url.toString();
  };

  /** One signed request; a network failure or timeout is StorageUnavailableError, an HTTP answer is returned. */
  const call = async (operation: string, key: string, init: RequestInit, query?: Record<string, string>): Promise<Response> => {
    try {
      const signed = await signer.sign(urlOf(key, query), init);
      return await outbound(signed, { signal: AbortSignal.timeout(STORAGE_TIMEOUT_MS) });
    } catch (err) {
      throw new StorageUnavailableError(operation, err instanceof Error ? err.name : "unknown");
    }
  };
  return { call, errorCode };
}

export function createFetchObjectStore(settings: ObjectStorageSettings, outbound: typeof fetch = (...a) => fetch(...a)): ObjectStore {
  const { call } = createS3Caller(settings, outbound);

  /** The object's response, or null when there is no such object. */
  const fetchObject = async (key: string): Promise<Response | null> => {
    const res = await call("get", key, { method: "GET" });
    if (res.ok) return res;
    const detail = await errorCode(res);
    // A missing object is an answer; a missing bucket is a misconfigured store.
    if (res.status === 404 && !detail.includes("NoSuchBucket")) return null;
    throw new StorageUnavailableError("get", detail);
  };
  const read = async <T,>(body: () => Promise<T>): Promise<T> => {
    try {
      return await body();
    } catch (err) {
      throw new StorageUnavailableError("get", err instanceof Error ? err.name : "unknown");
    }
  };

  return {
    async put(key, body, contentType = "application/json") {
      const res = await call("put", key, { method: "PUT", body: body as BodyInit, headers: { "Content-Type": contentType } });
      if (!res.ok) throw new StorageUnavailableError("put", await errorCode(res));
      await res.body?.cancel().catch(() => {});
    },
    async get(key) {
      const res = await fetchObject(key);
      return res && read(() => res.text());
    },
    async getBytes(key) {
      const res = await fetchObject(key);
      return res && read(async () => new Uint8Array(await res.arrayBuffer()));
    },
    async delete(key) {
      const res = await call("delete", key, { method: "DELETE" });
      const detail = res.ok ? "" : await errorCode(res);
      if (!res.ok && !(res.status === 404 && !detail.includes("NoSuchBucket"))) throw new StorageUnavailableError("delete", detail);
      await res.body?.cancel().catch(() => {});
    },
    close() {},
  };
}

/** A Worker's store: aws4fetch when the four OBJECT_STORAGE_ variables are set, else none. */
export function createEdgeObjectStore(config: Config, outbound?: typeof fetch): ObjectStore | undefined {
  const settings = objectStorageSettings(config);
  return settings ? createFetchObjectStore(settings, outbound) : undefined;
}
