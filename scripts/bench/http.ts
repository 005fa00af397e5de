// A keep-alive HTTP client for benchmarks: one reused connection per server, like a browser tab or wrk. It is
// undici (the client behind Node's fetch) rather than node:http's client, which cost ~0.07 ms more per round
// trip here: the figures should measure the server.
import { Agent, request as undiciRequest } from "undici";

const agent = new Agent({ connections: 1, pipelining: 1 });

export async function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const method = (options.method ?? "GET") as "GET";
  const res = await undiciRequest(url, { method, headers: options.headers, body: options.body, dispatcher: agent });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

/** Registers a throwaway user on a running server; returns its session cookie and id. */
export async function registerBenchUser(baseUrl: string, tag: string): Promise<{ cookie: string; user: { id: string; email: string } }> {
  const res = await request(`${baseUrl}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `${tag}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`, password: "benchmark password" }),
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  const setCookie = [res.headers["set-cookie"] ?? []].flat()[0];
  if (!setCookie) throw new Error("register set no cookie");
  return { cookie: setCookie.split(";")[0]!, user: (JSON.parse(res.body) as { user: { id: string; email: string } }).user };
}
