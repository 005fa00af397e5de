// A local stand-in for an S3-compatible object store, so tests drive both storage adapters (the SDK and
// aws4fetch) over real HTTP. Path-style addressing only (`/<bucket>/<key>`): PUT, GET, HEAD and DELETE of
// one object. Every request must carry a valid AWS Signature Version 4 made with the configured key pair,
// checked in full (credential scope, signed headers, canonical request, payload hash, clock skew): unsigned
// requests and bad signatures get 403, so a broken signer fails the tests the way a real store would.
// Written from the SigV4 description in the AWS documentation ("Create a signed AWS API request").
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type S3Credentials = { accessKeyId: string; secretAccessKey: string };

export type S3Server = {
  /** http://127.0.0.1:<port>, the OBJECT_STORAGE_ENDPOINT. */
  endpoint: string;
  bucket: string;
  region: string;
  credentials: S3Credentials;
  /** The four OBJECT_STORAGE_ variables (plus region and path style) pointing at this server. */
  env: Record<string, string>;
  /** Stored objects by key (the bucket's contents), for asserting state and for tampering behind the app's back. */
  objects: Map<string, { body: Buffer; contentType: string }>;
  /** Every request with its answer, e.g. "PUT csv-imports/u/i.json 200" or "GET x 403 SignatureDoesNotMatch". */
  log: string[];
  /** Multipart uploads started and neither completed nor aborted. */
  pendingUploads(): number;
  /** Ranged GETs served (key and inclusive byte range), in order. */
  ranged: Array<{ key: string; start: number; end: number }>;
  /** While on, every request is answered 503 SlowDown (a store that is up but refusing work). */
  unavailable(on: boolean): void;
  close(): Promise<void>;
};

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding as SigV4 canonicalises: everything but A-Z a-z 0-9 - . _ ~ is percent-encoded. */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const MAX_SKEW_MS = 15 * 60_000;

type Verdict = { ok: true } | { ok: false; status: number; code: string };

/** Checks a request's SigV4 Authorization header. Returns why it fails, if it does. */
function verifySignature(
  req: http.IncomingMessage,
  body: Buffer,
  creds: S3Credentials,
  region: string,
): Verdict {
  const deny = (code: string, status = 403): Verdict => ({ ok: false, status, code });
  const auth = req.headers.authorization;
  if (!auth) return deny("AccessDenied");
  const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return deny("AuthorizationHeaderMalformed", 400);
  const [, credential, signedHeadersList, signature] = m as unknown as [string, string, string, string];
  const [keyId, scopeDate, scopeRegion, service, terminator, ...extra] = credential.split("/");
  if (keyId !== creds.accessKeyId) return deny("InvalidAccessKeyId");
  if (extra.length || service !== "s3" || terminator !== "aws4_request") return deny("AuthorizationHeaderMalformed", 400);
  if (scopeRegion !== region) return deny("AuthorizationHeaderMalformed", 400);

  const amzDate = String(req.headers["x-amz-date"] ?? "");
  const dm = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!dm || amzDate.slice(0, 8) !== scopeDate) return deny("AccessDenied");
  const signedAt = Date.UTC(+dm[1]!, +dm[2]! - 1, +dm[3]!, +dm[4]!, +dm[5]!, +dm[6]!);
  if (Math.abs(Date.now() - signedAt) > MAX_SKEW_MS) return deny("RequestTimeTooSkewed");

  const signedHeaders = signedHeadersList.split(";");
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"]) {
    if (!signedHeaders.includes(required)) return deny("AccessDenied");
  }
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (payloadHash.startsWith("STREAMING-")) return deny("NotImplemented", 501);
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) return deny("XAmzContentSHA256Mismatch", 400);

  const url = new URL(req.url ?? "/", "http://stand-in");
  const canonicalUri = url.pathname
    .split("/")
    .map((segment) => rfc3986(decodeURIComponent(segment)))
    .join("/");
  const canonicalQuery = [...url.searchParams]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const headerValue = (name: string) => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v.join(",") : (v ?? "")).trim().replace(/\s+/g, " ");
  };
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${headerValue(h)}\n`).join("");
  const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeadersList, payloadHash].join("\n");
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, `${scopeDate}/${scopeRegion}/s3/aws4_request`, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, scopeDate), scopeRegion), "s3"), "aws4_request");
  const expected = hmac(key, stringToSign);
  const given = Buffer.from(signature, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return deny("SignatureDoesNotMatch");
  return { ok: true };
}

const xmlError = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code}</Message><RequestId>stand-in</RequestId></Error>`;

export async function startS3Server(
  options: { bucket?: string; region?: string; credentials?: S3Credentials } = {},
): Promise<S3Server> {
  const bucket = options.bucket ?? "journal-test";
  const region = options.region ?? "us-east-1";
  const credentials = options.credentials ?? {
    accessKeyId: `AKIDTEST${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    secretAccessKey: `secret/${Math.random().toString(36).slice(2)}+${Math.random().toString(36).slice(2)}`,
  };
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const log: string[] = [];
  let refusing = false;
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const ranged: Array<{ key: string; start: number; end: number }> = [];

  /**
   * S3's multipart upload as R2 and S3 serve it: POST ?uploads starts one, PUT ?partNumber&uploadId adds a
   * part, POST ?uploadId completes it (every part but the last at least 5 MiB, as S3 requires), DELETE
   * ?uploadId aborts it.
   */
  const multipart = (method: string | undefined, key: string, params: URLSearchParams, body: Buffer, answer: (status: number, code?: string, headers?: Record<string, string>, payload?: Buffer | string) => void) => {
    const id = params.get("uploadId");
    const upload = id ? uploads.get(id) : undefined;
    if (method === "POST" && params.has("uploads")) {
      const uploadId = `up-${Math.random().toString(36).slice(2)}`;
      uploads.set(uploadId, { key, parts: new Map() });
      return answer(200, undefined, { "content-type": "application/xml" }, `<InitiateMultipartUploadResult><Key>${key}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (!upload || upload.key !== key) return answer(404, "NoSuchUpload");
    if (method === "PUT" && params.has("partNumber")) {
      upload.parts.set(Number(params.get("partNumber")), body);
      return answer(200, undefined, { etag: `"${createHash("md5").update(body).digest("hex")}"` });
    }
    if (method === "DELETE") {
      uploads.delete(id!);
      return answer(204);
    }
    if (method === "POST") {
      const numbers = [...body.toString("utf8").matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
      const parts = numbers.map((n) => upload.parts.get(n));
      if (!numbers.length || parts.some((p) => !p)) return answer(400, "InvalidPart");
      if (parts.slice(0, -1).some((p) => p!.length < 5 * 1024 * 1024)) return answer(400, "EntityTooSmall");
      objects.set(key, { body: Buffer.concat(parts as Buffer[]), contentType: "application/octet-stream" });
      uploads.delete(id!);
      return answer(200, undefined, { "content-type": "application/xml" }, `<CompleteMultipartUploadResult><Key>${key}</Key></CompleteMultipartUploadResult>`);
    }
    return answer(501, "NotImplemented");
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? "/", "http://stand-in").pathname;
      const [, bucketName = "", ...rest] = path.split("/");
      const key = rest.map((s) => decodeURIComponent(s)).join("/");
      const answer = (status: number, code?: string, headers: Record<string, string> = {}, payload?: Buffer | string) => {
        log.push(`${req.method} ${key} ${status}${code ? ` ${code}` : ""}`);
        if (code) {
          res.writeHead(status, { "content-type": "application/xml", ...headers });
          res.end(req.method === "HEAD" ? undefined : xmlError(code));
        } else {
          res.writeHead(status, headers);
          res.end(req.method === "HEAD" ? undefined : payload);
        }
      };

      if (refusing) return answer(503, "SlowDown");
      const verdict = verifySignature(req, body, credentials, region);
      if (!verdict.ok) return answer(verdict.status, verdict.code);
      if (decodeURIComponent(bucketName) !== bucket) return answer(404, "NoSuchBucket");
      if (!key) return answer(501, "NotImplemented");
      // The SDK tags requests with ?x-id=<Operation>; of the other sub-resources only multipart uploads are served.
      const params = new URL(req.url ?? "/", "http://stand-in").searchParams;
      const query = [...params.keys()].filter((q) => q !== "x-id");
      if (query.length) return multipart(req.method, key, params, body, answer);

      switch (req.method) {
        case "PUT": {
          objects.set(key, { body, contentType: String(req.headers["content-type"] ?? "application/octet-stream") });
          return answer(200, undefined, { etag: `"${createHash("md5").update(body).digest("hex")}"` });
        }
        case "GET":
        case "HEAD": {
          const object = objects.get(key);
          if (!object) return answer(404, "NoSuchKey");
          const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ""));
          if (range) {
            const start = Number(range[1]);
            const end = Math.min(Number(range[2]), object.body.length - 1);
            if (start > end) return answer(416, "InvalidRange");
            ranged.push({ key, start, end });
            return answer(206, undefined, { "content-type": object.contentType, "content-range": `bytes ${start}-${end}/${object.body.length}` }, object.body.subarray(start, end + 1));
          }
          return answer(
            200,
            undefined,
            {
              "content-type": object.contentType,
              "content-length": String(object.body.length),
              etag: `"${createHash("md5").update(object.body).digest("hex")}"`,
              "last-modified": new Date().toUTCString(),
            },
            object.body,
          );
        }
        case "DELETE":
          objects.delete(key);
          return answer(204);
        default:
          return answer(405, "MethodNotAllowed");
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    bucket,
    region,
    credentials,
    env: {
      OBJECT_STORAGE_ENDPOINT: endpoint,
      OBJECT_STORAGE_BUCKET: bucket,
      OBJECT_STORAGE_ACCESS_KEY_ID: credentials.accessKeyId,
      OBJECT_STORAGE_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      OBJECT_STORAGE_REGION: region,
      OBJECT_STORAGE_FORCE_PATH_STYLE: "true",
    },
    objects,
    log,
    pendingUploads: () => uploads.size,
    ranged,
    unavailable(on) {
      refusing = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
