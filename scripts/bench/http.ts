// A keep-alive HTTP client for benchmarks: one reused connection, like a browser tab or wrk, so the
// figures measure the server rather than per-request client setup.
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Registers a throwaway user on a running server; returns its session cookie and id. */
export async function registerBenchUser(baseUrl: string, tag: string): Promise<{ cookie: string; user: { id: string; email: string } }> {
  const res = await request(`${baseUrl}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `${tag}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`, password: "benchmark password" }),
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  const setCookie = res.headers["set-cookie"]?.[0];
  if (!setCookie) throw new Error("register set no cookie");
  return { cookie: setCookie.split(";")[0]!, user: (JSON.parse(res.body) as { user: { id: string; email: string } }).user };
}
