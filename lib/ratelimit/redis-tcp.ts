// Node only: serves redis:// and rediss:// shared-store URLs to @upstash/ratelimit through ioredis. The Node
// entrypoint hands it to the limiter (createRateLimiter's `redisTcp`), so a Worker bundle never contains it;
// ioredis itself loads only when such a URL is first used.
//
// @upstash/ratelimit calls exactly two methods on its client for the fixed window: `evalsha(hash, keys,
// args)` and, when that answers NOSCRIPT, `eval(script, keys, args)` (dist/index.js, `safeEval`).
import { createHash } from "node:crypto";
import type { Redis as IORedis, RedisOptions } from "ioredis";
import type { Logger } from "../log.ts";

export type EvalClient = {
  evalsha(hash: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
  close(): Promise<void>;
};

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

/** Redis 7.0 rejects the `#!lua flags=...` shebang line that Upstash's service accepts. */
export function stripShebang(script: string): string {
  return script.startsWith("#!") ? script.slice(script.indexOf("\n") + 1) : script;
}

const isNoScript = (err: unknown) => String(err).includes("NOSCRIPT");
const CONNECTING = new Set(["wait", "connecting", "connect"]);

export async function createRedisTcpStore(
  url: string,
  options: { log: Logger; connectTimeoutMs: number; commandTimeoutMs: number },
): Promise<EvalClient> {
  const { Redis } = await import("ioredis");
  const redisOptions: RedisOptions = {
    // Fail fast instead of queueing while disconnected: the limiter answers from its stricter local
    // fallback, and a queued command replayed later would count a request twice.
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    connectTimeout: options.connectTimeoutMs,
    // Also bounds the ready check, so a server that accepts connections but never answers is dropped
    // and redialled rather than kept forever.
    commandTimeout: options.commandTimeoutMs,
    // Never gives up: the limiter returns to the shared store by itself once it is reachable again.
    retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    disableClientInfo: true,
  };
  const client: IORedis = new Redis(url, redisOptions);

  // One warning per outage, one note on recovery; ioredis emits an error on every failed redial. Only the
  // error code is logged: messages can carry the host, never the credentials, but the code is enough.
  let down = false;
  client.on("error", (err: NodeJS.ErrnoException) => {
    if (down) return;
    down = true;
    options.log.warn("rate limit store connection failed", { code: err.code ?? err.name });
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    options.log.info("rate limit store connected again");
  });

  // Before the first connection (and during each redial) commands would be refused outright; wait for
  // the attempt in progress instead. The limiter's own timeout bounds the wait.
  let waiting: Promise<void> | undefined;
  const whenReady = (): Promise<void> => {
    if (client.status === "ready") return Promise.resolve();
    if (!CONNECTING.has(client.status)) return Promise.reject(new Error(`rate limit store is ${client.status}`));
    waiting ??= new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        client.off("ready", onReady);
        client.off("close", onClose);
        waiting = undefined;
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => done();
      const onClose = () => done(new Error("rate limit store connection closed"));
      client.once("ready", onReady);
      client.once("close", onClose);
    });
    return waiting;
  };

  // The library's hashes are of the original scripts; Redis knows only the stripped ones.
  const scripts = new Map<string, { script: string; sha: string }>();

  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    await whenReady();
    try {
      return await command();
    } catch (err) {
      // A connection that stopped answering without closing: drop it so the next call redials.
      if (err instanceof Error && err.message === "Command timed out" && client.status === "ready") client.disconnect(true);
      throw err;
    }
  };

  const evalStripped = (entry: { script: string; sha: string }, keys: string[], args: unknown[]) =>
    run(async () => {
      const argv = args.map(String);
      try {
        return await client.evalsha(entry.sha, keys.length, ...keys, ...argv);
      } catch (err) {
        // Redis restarted (or flushed its script cache): load it again with EVAL.
        if (!isNoScript(err)) throw err;
        return await client.eval(entry.script, keys.length, ...keys, ...argv);
      }
    });

  return {
    async evalsha(hash, keys, args) {
      const entry = scripts.get(hash);
      // Unknown here: answer NOSCRIPT so the library sends the script itself once.
      if (!entry) throw new Error("NOSCRIPT No matching script (not yet loaded through this client)");
      return evalStripped(entry, keys, args);
    },
    async eval(script, keys, args) {
      const hash = sha1(script);
      let entry = scripts.get(hash);
      if (!entry) {
        const stripped = stripShebang(script);
        entry = { script: stripped, sha: sha1(stripped) };
        scripts.set(hash, entry);
      }
      return evalStripped(entry, keys, args);
    },
    async close() {
      if (client.status === "ready") await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
