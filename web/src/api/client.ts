// The typed API client: hono/client over the server's own route types (type-only import, so no server
// code reaches the bundle). Request and response types follow the routes; a route change that breaks the
// app breaks `tsc -p web`.
import { hc, type ClientResponse } from "hono/client";
import type { AppType } from "../../../functions/groups.ts";
import { ApiError, errorFromResponse, networkError } from "./errors.ts";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// The anti-CSRF token (cross-origin mode only; DESIGN.md section 8). Kept in memory: register and login
// hand it over, and after a reload a 403 CSRF_FAILED fetches it once from /api/auth/csrf. In same-origin
// mode the API never asks for it, so no extra request is made.
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null | undefined): void {
  csrfToken = token ?? null;
}

function withCsrf(init: RequestInit | undefined): RequestInit {
  const method = (init?.method ?? "GET").toUpperCase();
  const headers = new Headers(init?.headers);
  if (csrfToken && MUTATING.has(method)) headers.set("X-CSRF-Token", csrfToken);
  return { ...init, headers, credentials: "include" };
}

async function isCsrfFailure(res: Response): Promise<boolean> {
  if (res.status !== 403) return false;
  try {
    const body = (await res.clone().json()) as { error?: { code?: string } };
    return body.error?.code === "CSRF_FAILED";
  } catch {
    return false;
  }
}

/** The token held, for a request made without apiFetch (the CSV upload uses XMLHttpRequest for its progress). */
export function currentCsrfToken(): string | null {
  return csrfToken;
}

/** Fetches the session's token after a 403 CSRF_FAILED; true when one is now held. */
export async function refreshCsrfToken(): Promise<boolean> {
  const res = await globalThis.fetch("/api/auth/csrf", { credentials: "include" });
  if (!res.ok) return false;
  setCsrfToken(((await res.json()) as { csrfToken?: string }).csrfToken);
  return csrfToken !== null;
}

/**
 * fetch for the API: sends the session cookie and the anti-CSRF token; a network failure becomes an
 * ApiError. Non-2xx answers are returned as they are (unwrap turns them into ApiError). Also for requests
 * the typed client cannot express (none yet).
 */
export async function apiFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await globalThis.fetch(input, withCsrf(init));
    if (MUTATING.has((init?.method ?? "GET").toUpperCase()) && (await isCsrfFailure(res)) && (await refreshCsrfToken())) {
      res = await globalThis.fetch(input, withCsrf(init));
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw networkError();
  }
  return res;
}

/** A response's JSON body (undefined for 204), or a thrown ApiError built from the error envelope: for apiFetch calls. */
export async function readJson<T>(res: Response): Promise<T> {
  if (!res.ok) throw await errorFromResponse(res);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/**
 * The API path with `?mentee=<userId>` added when a mentor reads a trader's journal (docs/sharing.md); as it is
 * otherwise.
 */
export function asMentee(path: string, mentee: string | undefined): string {
  return mentee ? `${path}${path.includes("?") ? "&" : "?"}mentee=${encodeURIComponent(mentee)}` : path;
}

const origin = typeof window === "undefined" ? "http://localhost" : window.location.origin;

/** `api.api.accounts.$get()` etc. */
export const api = hc<AppType>(origin, { fetch: apiFetch });

type SuccessBody<R> = R extends ClientResponse<infer T, infer S, infer _F> ? (S extends 200 | 201 | 202 ? T : S extends 204 ? undefined : never) : never;

/** Awaits a typed-client call: the success body, or a thrown ApiError built from the error envelope. */
export async function unwrap<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<SuccessBody<R>> {
  const res = (await call) as unknown as Response;
  if (!res.ok) throw await errorFromResponse(res);
  if (res.status === 204 || res.status === 202) return undefined as SuccessBody<R>;
  return (await res.json()) as SuccessBody<R>;
}
