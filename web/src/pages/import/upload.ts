// The preview upload. fetch reports no upload progress, and a 10 MB file on a slow line takes long enough
// that the reader needs one, so this request alone goes through XMLHttpRequest. It behaves like apiFetch:
// cookies, the anti-CSRF token (with one refresh on 403 CSRF_FAILED), and every failure as the app's ApiError.
import type { InferResponseType } from "hono/client";
import type { ImportRequest } from "../../../../lib/imports/schema.ts";
import { api, currentCsrfToken, refreshCsrfToken } from "../../api/client.ts";
import { ApiError, errorFromResponse, networkError } from "../../api/errors.ts";

export type PreviewResult = InferResponseType<(typeof api.api)["csv-import"]["preview"]["$post"], 201>;

export const PREVIEW_URL = "/api/csv-import/preview";

export type UploadProgress = { loaded: number; total: number };

type XhrFactory = () => XMLHttpRequest;

export type UploadOptions = {
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  /** Tests hand in a fake; the app uses the browser's. */
  xhr?: XhrFactory;
};

/** The answer as a fetch Response, so the one envelope parser (errorFromResponse) reads it. */
function asResponse(xhr: XMLHttpRequest): Response {
  const headers = new Headers();
  const requestId = xhr.getResponseHeader("X-Request-Id");
  if (requestId) headers.set("X-Request-Id", requestId);
  const type = xhr.getResponseHeader("Content-Type");
  if (type) headers.set("Content-Type", type);
  return new Response(xhr.responseText, { status: xhr.status, headers });
}

function send(body: FormData, options: UploadOptions): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = (options.xhr ?? (() => new XMLHttpRequest()))();
    xhr.open("POST", PREVIEW_URL);
    xhr.withCredentials = true;
    const token = currentCsrfToken();
    if (token) xhr.setRequestHeader("X-CSRF-Token", token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      // Status 0 with a load event is a blocked or torn-down request: nothing answered.
      if (xhr.status < 200 || xhr.status > 599) reject(networkError());
      else resolve(asResponse(xhr));
    };
    xhr.onerror = () => reject(networkError());
    xhr.ontimeout = () => reject(networkError());
    xhr.onabort = () => reject(new ApiError(0, "ABORTED", "The upload was cancelled."));
    if (options.signal) {
      if (options.signal.aborted) {
        xhr.abort();
        return;
      }
      options.signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    xhr.send(body);
  });
}

async function isCsrfFailure(res: Response): Promise<boolean> {
  if (res.status !== 403) return false;
  const e = await errorFromResponse(res.clone());
  return e.code === "CSRF_FAILED";
}

/** POST /api/csv-import/preview (multipart: `file` + JSON `request`), with upload progress. */
export async function uploadPreview(file: File, request: ImportRequest, options: UploadOptions = {}): Promise<PreviewResult> {
  const form = () => {
    const body = new FormData();
    body.append("file", file, file.name);
    body.append("request", JSON.stringify(request));
    return body;
  };
  let res = await send(form(), options);
  if ((await isCsrfFailure(res)) && (await refreshCsrfToken().catch(() => false))) res = await send(form(), options);
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as PreviewResult;
}

/** "1.2 MB" for progress and size messages. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
