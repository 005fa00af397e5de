// Requests to the Worker under test (its main module, `exports.default`), from a random documentation-range
// client address, with an optional JSON body and session cookie.
import { exports } from "cloudflare:workers";

export const BASE = "http://journal.test";

export type CallInit = { method?: string; json?: unknown; cookie?: string };

export function apiRequest(path: string, init: CallInit = {}): Request {
  return new Request(`${BASE}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "CF-Connecting-IP": `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
      ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

export function call(path: string, init: CallInit = {}): Promise<Response> {
  return exports.default.fetch(apiRequest(path, init));
}

/** Registers a new user through the Worker; their session cookie ("name=value"). */
export async function registered(tag: string): Promise<string> {
  const reg = await call("/api/auth/register", { method: "POST", json: { email: `${tag}-${crypto.randomUUID()}@example.com`, password: "workers password" } });
  if (reg.status !== 201) throw new Error(`register answered ${reg.status}`);
  return reg.headers.getSetCookie()[0]!.split(";")[0]!;
}
