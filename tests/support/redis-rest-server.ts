// A local stand-in for the Upstash REST API in front of the real Redis, so tests drive the real
// @upstash/redis client over HTTP. Protocol (as @upstash/redis 1.39 speaks it): POST a JSON array command
// to the base URL -> {result} or {error}; POST an array of commands to /pipeline -> [{result}|{error}];
// `Authorization: Bearer <token>` (401 otherwise); with `Upstash-Encoding: base64` string results are
// base64 (the status reply OK stays plain).
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";

export type RedisRestServer = {
  /** http://127.0.0.1:<port>, no credentials. */
  baseUrl: string;
  /** The URL with the token as its password, as SHARED_STORE_URL carries it. */
  urlWithToken: string;
  token: string;
  /** Commands received (whatever the outcome), for asserting the store was actually used. */
  commands: string[][];
  /** While stalled, requests are held without an answer (a store that hangs instead of refusing). */
  stall(on: boolean): void;
  /** While set, every command is answered `{result: fake(command)}` without touching Redis. */
  fake(answer: ((command: string[]) => unknown) | undefined): void;
  close(): Promise<void>;
};

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

function encode(value: unknown): unknown {
  if (typeof value === "string") return value === "OK" ? value : Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(encode);
  return value;
}

export async function startRedisRestServer(options: { token?: string; redisPort?: number } = {}): Promise<RedisRestServer> {
  const token = options.token ?? `tok-${Math.random().toString(36).slice(2)}=+/`;
  const redis = new Redis({ host: "127.0.0.1", port: options.redisPort ?? 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  await redis.connect();

  // Upstash accepts the `#!lua flags=...` shebang, Redis 7.0 does not: strip it, and keep answering
  // EVALSHA for the original script's hash as Upstash would.
  const shaOf = new Map<string, string>();
  let faked: ((command: string[]) => unknown) | undefined;
  const run = async (cmd: unknown[]): Promise<unknown> => {
    const [name, ...args] = cmd.map((a) => (typeof a === "string" ? a : JSON.stringify(a)));
    const lower = (name ?? "").toLowerCase();
    if (lower === "eval" && args[0]?.startsWith("#!")) {
      const stripped = args[0].slice(args[0].indexOf("\n") + 1);
      shaOf.set(sha1(args[0]), sha1(stripped));
      args[0] = stripped;
    } else if (lower === "evalsha" && args[0] && shaOf.has(args[0])) {
      args[0] = shaOf.get(args[0])!;
    }
    return redis.call(name ?? "", ...args);
  };
  const answer = async (cmd: unknown): Promise<{ result?: unknown; error?: string }> => {
    if (!Array.isArray(cmd) || cmd.length === 0) return { error: "ERR command must be a non-empty JSON array" };
    if (faked) return { result: faked(cmd.map(String)) };
    try {
      return { result: await run(cmd) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };

  const commands: string[][] = [];
  let stalled = false;
  const held = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST") return send(405, { error: "method not allowed" });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(400, { error: "ERR body is not JSON" });
      }
      const pipeline = req.url === "/pipeline";
      const list = pipeline ? (Array.isArray(body) ? body : []) : [body];
      for (const c of list) if (Array.isArray(c)) commands.push(c.map(String));
      if (stalled) {
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      const out = (a: { result?: unknown; error?: string }) => (base64 && "result" in a ? { result: encode(a.result) } : a);
      if (pipeline) return send(200, (await Promise.all(list.map(answer))).map(out));
      const a = await answer(body);
      return send(a.error ? 400 : 200, out(a));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  return {
    baseUrl,
    urlWithToken: `http://default:${encodeURIComponent(token)}@127.0.0.1:${port}`,
    token,
    commands,
    stall(on) {
      stalled = on;
    },
    fake(answer) {
      faked = answer;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
