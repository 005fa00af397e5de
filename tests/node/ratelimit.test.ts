import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../lib/log.ts";
import { createRateLimiter, LIMITS, splitRestUrl, type LimitRule, type RateLimiter } from "../../lib/ratelimit/index.ts";
import { createRedisTcpStore, stripShebang } from "../../lib/ratelimit/redis-tcp.ts";
import { captureLogger } from "../support/deps.ts";
import { startRedisRestServer, type RedisRestServer } from "../support/redis-rest-server.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

const REDIS_URL = "redis://127.0.0.1:6379";
const RUN = `rltest:${process.pid}:${Date.now().toString(36)}`;
const silent = createLogger({ silent: true });

let seq = 0;
/** A key prefix (and identifier) no other test shares. */
const unique = (what = "p") => `${RUN}:${what}${++seq}`;

let redis: Redis;
const open: RateLimiter[] = [];
/** A limiter as the Node entrypoint makes it (redis:// through ioredis). */
function limiter(options: Parameters<typeof createRateLimiter>[0]): RateLimiter {
  const l = createRateLimiter({ redisTcp: createRedisTcpStore, ...options });
  open.push(l);
  return l;
}

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});
afterAll(async () => {
  const keys = await redis.keys(`${RUN}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

async function checks(l: RateLimiter, rule: LimitRule, id: string, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await l.check(rule, id));
  return out;
}

/** A port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("LIMITS", () => {
  it("carries SPEC.md section 8's values and the stricter fallbacks", () => {
    expect(LIMITS.register).toEqual({ name: "register", limit: 5, windowSeconds: 900, fallbackLimit: 3 });
    expect(LIMITS.login).toEqual({ name: "login", limit: 10, windowSeconds: 900, fallbackLimit: 5 });
    expect(LIMITS.providerKeySave).toMatchObject({ limit: 10, windowSeconds: 3600, fallbackLimit: 5 });
    expect(LIMITS.marketDataKeySave).toMatchObject({ limit: 10, windowSeconds: 3600, fallbackLimit: 5 });
    expect(LIMITS.checkout).toMatchObject({ limit: 10, windowSeconds: 60, fallbackLimit: 5 });
    expect(LIMITS.emailResend).toMatchObject({ limit: 3, windowSeconds: 3600, fallbackLimit: 2 });
    expect(LIMITS.passwordResetRequest).toMatchObject({ limit: 5, windowSeconds: 3600, fallbackLimit: 3 });
    for (const [key, rule] of Object.entries(LIMITS)) {
      expect(rule.name).toBe(key);
      expect(rule.fallbackLimit).toBeLessThan(rule.limit);
    }
  });
});

describe("in-process limiter (SHARED_STORE_URL unset)", () => {
  it("allows the limit, then refuses with Retry-After until the window ends", async () => {
    const window = LIMITS.register.windowSeconds * 1000;
    let t = 1000 * window + 100_000; // 100 s into a window
    const l = limiter({ log: silent, now: () => t });
    const got = await checks(l, LIMITS.register, "ip:203.0.113.7", 6);
    expect(got.slice(0, 5).map((r) => [r.success, r.remaining, r.degraded])).toEqual([
      [true, 4, false],
      [true, 3, false],
      [true, 2, false],
      [true, 1, false],
      [true, 0, false],
    ]);
    expect(got[5]).toEqual({ success: false, limit: 5, remaining: 0, retryAfterSeconds: 800, degraded: false });

    t += 799_500;
    expect(await l.check(LIMITS.register, "ip:203.0.113.7")).toMatchObject({ success: false, retryAfterSeconds: 1 });
    t += 500; // the next window starts empty
    expect(await l.check(LIMITS.register, "ip:203.0.113.7")).toMatchObject({ success: true, remaining: 4 });
  });

  it("counts each rule and each identifier on its own", async () => {
    const l = limiter({ log: silent });
    await checks(l, LIMITS.register, "ip:a", 5);
    expect((await l.check(LIMITS.register, "ip:a")).success).toBe(false);
    expect((await l.check(LIMITS.register, "ip:b")).success).toBe(true);
    expect((await l.check(LIMITS.login, "ip:a")).success).toBe(true);
  });

  it("keeps Retry-After at least one second at the very end of a window", async () => {
    const window = LIMITS.checkout.windowSeconds * 1000;
    const t = 5000 * window - 1;
    const l = limiter({ log: silent, now: () => t });
    const got = await checks(l, LIMITS.checkout, "user:1", 11);
    expect(got[10]).toMatchObject({ success: false, retryAfterSeconds: 1 });
  });

  it("refuses a rule that is not positive whole numbers", async () => {
    const l = limiter({ log: silent });
    await expect(l.check({ name: "x", limit: 0, windowSeconds: 1, fallbackLimit: 1 }, "id")).rejects.toThrow();
  });
});

describe("redis:// shared store", () => {
  it("allows the limit, then refuses, counting in Redis", async () => {
    const keyPrefix = unique();
    const l = limiter({ sharedStoreUrl: REDIS_URL, log: silent, keyPrefix });
    const got = await checks(l, LIMITS.register, "ip:203.0.113.7", 6);
    expect(got.slice(0, 5).map((r) => [r.success, r.remaining, r.degraded])).toEqual([
      [true, 4, false],
      [true, 3, false],
      [true, 2, false],
      [true, 1, false],
      [true, 0, false],
    ]);
    expect(got[5]).toMatchObject({ success: false, limit: 5, remaining: 0, degraded: false });
    expect(got[5]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(got[5]!.retryAfterSeconds).toBeLessThanOrEqual(900);

    const bucket = Math.floor(Date.now() / 900_000);
    const keys = await redis.keys(`${keyPrefix}:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${keyPrefix}:register:ip:203\\.0\\.113\\.7:(${bucket}|${bucket - 1})$`));
    expect(Number(await redis.pttl(keys[0]!))).toBeGreaterThan(0);
  });

  it("where the runtime cannot reach redis:// (a Worker: no redisTcp), answers from the stricter local limit and says why once", async () => {
    const logged = captureLogger();
    const l = createRateLimiter({ sharedStoreUrl: REDIS_URL, log: logged.log, keyPrefix: unique() });
    open.push(l);
    const got = await checks(l, LIMITS.register, "ip:203.0.113.8", 4);
    expect(got.map((r) => [r.success, r.degraded])).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [false, true],
    ]);
    const created = logged.lines.filter((line) => line.includes("could not be created"));
    expect(created).toHaveLength(1);
    expect(JSON.parse(created[0]!)).toMatchObject({ level: "error", scheme: "redis", error: "REDIS_TCP_NODE_ONLY" });
  });

  it("shares one count between two limiters (two containers)", async () => {
    const keyPrefix = unique();
    const a = limiter({ sharedStoreUrl: REDIS_URL, log: silent, keyPrefix });
    const b = limiter({ sharedStoreUrl: REDIS_URL, log: silent, keyPrefix });
    const got = [
      ...(await checks(a, LIMITS.login, "ip:198.51.100.1", 4)),
      ...(await checks(b, LIMITS.login, "ip:198.51.100.1", 4)),
      ...(await checks(a, LIMITS.login, "ip:198.51.100.1", 2)),
    ];
    expect(got.map((r) => r.success)).toEqual(Array(10).fill(true));
    expect(got.map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect((await b.check(LIMITS.login, "ip:198.51.100.1")).success).toBe(false);
    expect((await a.check(LIMITS.login, "ip:198.51.100.1")).success).toBe(false);
    expect((await b.check(LIMITS.login, "ip:198.51.100.2")).success).toBe(true);
  });

  it("counts concurrent requests exactly (the script is atomic)", async () => {
    const keyPrefix = unique();
    const a = limiter({ sharedStoreUrl: REDIS_URL, log: silent, keyPrefix });
    const b = limiter({ sharedStoreUrl: REDIS_URL, log: silent, keyPrefix });
    const got = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).check(LIMITS.checkout, "user:9")));
    expect(got.filter((r) => r.success)).toHaveLength(10);
    expect(got.every((r) => !r.degraded)).toBe(true);
  });

  it("keeps working after Redis forgets its scripts", async () => {
    const keyPrefix = unique();
    const l = limiter({ sharedStoreUrl: REDIS_URL, log: silent, keyPrefix });
    expect(await l.check(LIMITS.login, "ip:x")).toMatchObject({ success: true, remaining: 9, degraded: false });
    await redis.script("FLUSH");
    expect(await l.check(LIMITS.login, "ip:x")).toMatchObject({ success: true, remaining: 8, degraded: false });
  });
});

describe("the ioredis adapter", () => {
  it("strips the shebang Redis 7.0 refuses and answers evalsha for the original script's hash", async () => {
    const store = await createRedisTcpStore(REDIS_URL, { log: silent, connectTimeoutMs: 1000, commandTimeoutMs: 1000 });
    try {
      const script = `#!lua flags=allow-key-locking\nreturn {KEYS[1], ARGV[1]}`;
      expect(stripShebang(script)).toBe("return {KEYS[1], ARGV[1]}");
      const { createHash } = await import("node:crypto");
      const hash = createHash("sha1").update(script).digest("hex");
      await expect(store.evalsha(hash, ["k"], [1])).rejects.toThrow(/NOSCRIPT/);
      expect(await store.eval(script, ["k"], [1])).toEqual(["k", "1"]);
      expect(await store.evalsha(hash, ["k2"], [2])).toEqual(["k2", "2"]);
    } finally {
      await store.close();
    }
  });
});

describe("https:// shared store (Upstash REST protocol)", () => {
  let rest: RedisRestServer;
  beforeAll(async () => {
    rest = await startRedisRestServer();
  });
  afterAll(() => rest.close());

  it("takes the token out of the URL", () => {
    expect(splitRestUrl("https://default:a%2Bb%3D@example.com/")).toEqual({ url: "https://example.com", token: "a+b=" });
    expect(splitRestUrl("https://default:t0k@example.com:8443/base/?x=1#f")).toEqual({ url: "https://example.com:8443/base", token: "t0k" });
    expect(splitRestUrl("https://example.com").token).toBe("");
    expect(splitRestUrl(rest.urlWithToken)).toEqual({ url: rest.baseUrl, token: rest.token });
  });

  it("limits through the REST API and shares counts with a redis:// limiter", async () => {
    const keyPrefix = unique();
    const before = rest.commands.length;
    const viaRest = limiter({ sharedStoreUrl: rest.urlWithToken, log: silent, keyPrefix });
    const viaTcp = limiter({ sharedStoreUrl: REDIS_URL, log: silent, keyPrefix });
    const got = [
      ...(await checks(viaRest, LIMITS.register, "ip:192.0.2.1", 3)),
      ...(await checks(viaTcp, LIMITS.register, "ip:192.0.2.1", 2)),
    ];
    expect(got.map((r) => [r.success, r.remaining, r.degraded])).toEqual([
      [true, 4, false],
      [true, 3, false],
      [true, 2, false],
      [true, 1, false],
      [true, 0, false],
    ]);
    const refused = await viaRest.check(LIMITS.register, "ip:192.0.2.1");
    expect(refused).toMatchObject({ success: false, degraded: false });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const sent = rest.commands.slice(before).map((c) => c[0]!.toLowerCase());
    expect(sent).toContain("evalsha");
    expect(sent.filter((c) => c === "eval").length).toBeLessThanOrEqual(1);
  });

  it("answers from the stricter fallback when the token is wrong, never logging the token", async () => {
    const logged = captureLogger();
    const wrong = rest.urlWithToken.replace(encodeURIComponent(rest.token), "wrong-token");
    const l = limiter({ sharedStoreUrl: wrong, log: logged.log, keyPrefix: unique() });
    const got = await checks(l, LIMITS.register, "ip:192.0.2.55", 5);
    expect(got.map((r) => [r.success, r.degraded, r.limit])).toEqual([
      [true, true, 3],
      [true, true, 3],
      [true, true, 3],
      [false, true, 3],
      [false, true, 3],
    ]);
    const text = logged.lines.join("\n");
    expect(text).toContain('"rule":"register"');
    expect(text).not.toContain("192.0.2.55");
    expect(text).not.toContain("wrong-token");
  });

  it("says once that a URL without a token cannot work, and answers from the fallback", async () => {
    const logged = captureLogger();
    const l = limiter({ sharedStoreUrl: rest.baseUrl, log: logged.log, keyPrefix: unique() });
    const got = await checks(l, LIMITS.emailResend, "user:7", 3);
    expect(got.map((r) => [r.success, r.degraded])).toEqual([
      [true, true],
      [true, true],
      [false, true],
    ]);
    expect(logged.lines.filter((l) => l.includes("could not be created"))).toHaveLength(1);
  });

  it("treats an answer that is not a rate-limit result as a failure, never as success", async () => {
    const l = limiter({ sharedStoreUrl: rest.urlWithToken, log: silent, keyPrefix: unique() });
    const garbage: unknown[] = ["Aborted", [1, 999], [], null];
    try {
      for (const g of garbage) {
        rest.fake(() => g);
        // fallbackLimit 2: the first two pass, degraded; the rest are refused.
        await l.check(LIMITS.emailResend, `user:g`);
      }
      expect(await l.check(LIMITS.emailResend, "user:g")).toMatchObject({ success: false, degraded: true, limit: 2 });
      rest.fake(() => [1, 3]); // a well-formed answer is believed
      expect(await l.check(LIMITS.emailResend, "user:g")).toMatchObject({ success: true, remaining: 2, degraded: false });
    } finally {
      rest.fake(undefined);
    }
  });

  it("answers within the timeout when the store hangs, then returns to it", async () => {
    const keyPrefix = unique();
    const l = limiter({ sharedStoreUrl: rest.urlWithToken, log: silent, keyPrefix, timeoutMs: 300 });
    // Fixed windows (floor(now / window)): the count kept below is the first window's only if the test ends in it.
    const windowOf = () => Math.floor(Date.now() / 1000 / LIMITS.login.windowSeconds);
    const firstWindow = windowOf();
    expect(await l.check(LIMITS.login, "ip:hang")).toMatchObject({ success: true, degraded: false });
    rest.stall(true);
    try {
      const started = performance.now();
      const first = await l.check(LIMITS.login, "ip:hang");
      const tookMs = performance.now() - started;
      expect(first).toMatchObject({ success: true, degraded: true, limit: 5 });
      expect(tookMs).toBeGreaterThanOrEqual(250);
      expect(tookMs).toBeLessThan(1000);
      // While it cools down the store is not waited on again.
      const t2 = performance.now();
      const rest4 = await checks(l, LIMITS.login, "ip:hang", 5);
      expect(performance.now() - t2).toBeLessThan(250);
      expect(rest4.map((r) => [r.success, r.degraded])).toEqual([
        [true, true],
        [true, true],
        [true, true],
        [true, true],
        [false, true],
      ]);
    } finally {
      rest.stall(false);
    }
    const back = await eventually(
      () => l.check(LIMITS.login, "ip:hang-probe"),
      (r) => !r.degraded,
    );
    expect(back.degraded).toBe(false);
    // The shared count was kept: one request before the stall (unless a new window began since: then this is its first).
    const kept = await l.check(LIMITS.login, "ip:hang");
    expect(kept).toMatchObject({ success: true, remaining: windowOf() === firstWindow ? 8 : 9, degraded: false });
  });
});

describe("the shared store going away", () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startTcpProxy(6379);
  });
  afterAll(() => proxy.close());

  it("falls back to the stricter local limit at once and returns to the store without a restart", async () => {
    const logged = captureLogger();
    const keyPrefix = unique();
    const l = limiter({ sharedStoreUrl: `redis://127.0.0.1:${proxy.port}`, log: logged.log, keyPrefix, timeoutMs: 500 });
    const id = "ip:203.0.113.99";
    const before = await checks(l, LIMITS.login, id, 3);
    expect(before.map((r) => [r.success, r.remaining, r.degraded])).toEqual([
      [true, 9, false],
      [true, 8, false],
      [true, 7, false],
    ]);

    await proxy.cut();
    const started = performance.now();
    const down = await checks(l, LIMITS.login, id, 7);
    const tookMs = performance.now() - started;
    expect(down.map((r) => [r.success, r.degraded, r.limit])).toEqual([
      [true, true, 5],
      [true, true, 5],
      [true, true, 5],
      [true, true, 5],
      [true, true, 5],
      [false, true, 5],
      [false, true, 5],
    ]);
    expect(down[5]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(tookMs).toBeLessThan(500 + 400); // refused connections fail at once, never a hang

    await proxy.restore();
    const back = await eventually(
      () => l.check(LIMITS.login, "ip:probe"),
      (r) => !r.degraded,
    );
    expect(back.degraded).toBe(false);
    // Counting continues from the shared store's count (3 before the cut).
    expect(await l.check(LIMITS.login, id)).toMatchObject({ success: true, remaining: 6, degraded: false });

    const text = logged.lines.join("\n");
    expect(text).toMatch(/rate limit store unavailable/);
    expect(text).toContain('"rule":"login"');
    expect(text).not.toContain("203.0.113.99");
    expect(text).not.toContain("ip:probe");
  });

  it("never allows more than the fallback limit when the store is unreachable from the start", async () => {
    const port = await closedPort();
    const l = limiter({ sharedStoreUrl: `redis://127.0.0.1:${port}`, log: silent, keyPrefix: unique(), timeoutMs: 500 });
    const started = performance.now();
    const got = await checks(l, LIMITS.register, "ip:198.51.100.77", 8);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(got.every((r) => r.degraded)).toBe(true);
    expect(got.map((r) => r.success)).toEqual([true, true, true, false, false, false, false, false]);
  });

  it("answers within the timeout when the store accepts connections but never answers", async () => {
    const sockets = new Set<net.Socket>();
    const silentServer = net.createServer((s) => {
      sockets.add(s);
      s.on("error", () => {});
    });
    await new Promise<void>((r) => silentServer.listen(0, "127.0.0.1", r));
    const { port } = silentServer.address() as net.AddressInfo;
    try {
      const l = limiter({ sharedStoreUrl: `redis://127.0.0.1:${port}`, log: silent, keyPrefix: unique(), timeoutMs: 300 });
      const started = performance.now();
      const got = await checks(l, LIMITS.emailResend, "user:42", 4);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(got.map((r) => [r.success, r.degraded])).toEqual([
        [true, true],
        [true, true],
        [false, true],
        [false, true],
      ]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silentServer.close(() => r()));
    }
  });
});
