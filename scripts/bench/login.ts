// POST /api/auth/login latency through the real Node server (median of 20), beside a bare Argon2id verify
// of the same password (the floor: hashing is the cost by design), a bcrypt compare at cost 10 (the
// comparable journal's choice; issue goal: a sign-in's hash at most 1.2x of it) computed in this process,
// and GET /api/health (the HTTP floor). Then one authenticated read (GET /api/accounts) by personal access token
// against the same read by session cookie, interleaved (issue 33 goal: the token within 1.1x).
import { startNodeServer } from "../../functions/node-server.ts";
import { hashPassword, verifyPassword } from "../../lib/auth/password.ts";
import type { Config } from "../../lib/config/index.ts";
import { createLogger } from "../../lib/log.ts";
import { registerBenchUser, request } from "./http.ts";
import { median } from "./startup.ts";

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

export async function measureLogin(config: Config, runs = 20) {
  const server = await startNodeServer(config, { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
  try {
    const email = `bench-${Date.now()}@example.com`;
    const password = "benchmark password 123";
    const post = (path: string, body: unknown, client: number) =>
      request(`${server.url}${path}`, {
        method: "POST",
        // The bench server trusts loopback as a proxy, so each request can stand for its own client
        // and the per-client login limit (10 per 15 minutes) does not interfere.
        headers: { "Content-Type": "application/json", "X-Forwarded-For": `198.51.100.${client}` },
        body: JSON.stringify(body),
      });
    const registered = await post("/api/auth/register", { email, password }, 250);
    if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
    const login: number[] = [];
    const unknown: number[] = [];
    const health: number[] = [];
    const verify: number[] = [];
    const bcryptCompare: number[] = [];
    const hash = await hashPassword(password);
    const bcrypt = (await import("bcrypt")).default;
    const bcryptHash = await bcrypt.hash(password, 10);
    for (let i = 0; i < runs; i++) {
      login.push(
        await time(async () => {
          const res = await post("/api/auth/login", { email, password }, i + 1);
          if (res.status !== 200) throw new Error(`login answered ${res.status}`);
        }),
      );
      unknown.push(
        await time(async () => {
          const res = await post("/api/auth/login", { email: `nobody-${i}@example.com`, password }, 100 + i);
          if (res.status !== 401) throw new Error(`unknown-email login answered ${res.status}`);
        }),
      );
      health.push(await time(() => request(`${server.url}/api/health`)));
      verify.push(await time(() => verifyPassword(password, hash)));
      bcryptCompare.push(await time(() => bcrypt.compare(password, bcryptHash)));
    }
    const { cookie } = await registerBenchUser(server.url, "bench-token");
    const made = await request(`${server.url}/api/auth/tokens`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ name: "bench", scopes: ["read"], password: "benchmark password" }),
    });
    if (made.status !== 201) throw new Error(`token answered ${made.status}`);
    const { token } = JSON.parse(made.body) as { token: string };
    const read = (headers: Record<string, string>) => async () => {
      const res = await request(`${server.url}/api/accounts`, { headers });
      if (res.status !== 200) throw new Error(`GET /api/accounts answered ${res.status}`);
    };
    const byCookie = read({ Cookie: cookie });
    const byToken = read({ Authorization: `Bearer ${token}` });
    for (let i = 0; i < 50; i++) {
      await byCookie();
      await byToken();
    }
    const cookieRead: number[] = [];
    const tokenRead: number[] = [];
    for (let i = 0; i < 400; i++) {
      cookieRead.push(await time(byCookie));
      tokenRead.push(await time(byToken));
    }
    return {
      loginMs: median(login),
      unknownMs: median(unknown),
      healthMs: median(health),
      verifyMs: median(verify),
      bcryptMs: median(bcryptCompare),
      cookieReadMs: median(cookieRead),
      tokenReadMs: median(tokenRead),
    };
  } finally {
    await server.close();
  }
}
