// The whole API in-process over the real test database, with a fresh rate limiter per app so tests do
// not share limit counts.
import { createFileScratch } from "../../lib/storage/scratch-file.ts";
import { createAnalytics } from "../../lib/analytics/index.ts";
import { inProcessModel } from "../../lib/advisor/language-model.ts";
import { inProcessBrokers } from "../../lib/sync/runner.ts";
import { buildFullApp } from "../../functions/groups.ts";
import type { Config } from "../../lib/config/index.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { deferWith, type Deps } from "../../lib/deps.ts";
import { createRedisTcpStore } from "../../lib/ratelimit/redis-tcp.ts";
import type { Mailer } from "../../lib/email/index.ts";
import { createLogger, type Logger } from "../../lib/log.ts";
import { createRateLimiter } from "../../lib/ratelimit/index.ts";
import { createNodeObjectStore } from "../../lib/storage/node.ts";
import { PASSWORD, TestClient, uniqueEmail } from "./client.ts";
import { contractProblems } from "./contract.ts";
import { testConfig } from "./env.ts";



const shared = new Map<string, Promise<DbHandle>>();
/** One pool per database per test file. */
export function sharedDb(url: string): Promise<DbHandle> {
  let handle = shared.get(url);
  if (!handle) {
    handle = createNodeDb(url, { poolSize: 8, transactionPooler: false });
    shared.set(url, handle);
  }
  return handle;
}

export type TestApp = {
  app: ReturnType<typeof buildFullApp>;
  deps: Deps;
  config: Config;
  client(): TestClient;
  /** Resolves when every deferred task started so far has finished (mail sent, etc.). */
  settled(): Promise<void>;
};

export async function testApp(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
  /** `peer: "per-request"` gives every request its own client address (no shared per-client limits). */
  /** `now`: the app's clock (the real one by default). */
  /** `shippedChangelog`: the release notes the instance ships, as the Node entrypoint reads them (none by default, as on Workers). */
  /** `scratch`: where an archive import keeps its upload (a temporary file, as the Node entrypoint, by default). */
  extra: { mailer?: Mailer; peer?: string; log?: Logger; now?: () => Date; shippedChangelog?: Deps["shippedChangelog"]; scratch?: Deps["scratch"]; printPdf?: Deps["printPdf"] } = {},
): Promise<TestApp> {
  const config = testConfig(env);
  const handle = await sharedDb(databaseUrl);
  const log = extra.log ?? createLogger({ silent: true });
  const pending: Promise<unknown>[] = [];
  const defer = deferWith(log, (p) => pending.push(p));
  // As a Worker: a request's events are sent after it, so settled() also waits for them.
  const analytics = createAnalytics(config, { fetch: globalThis.fetch, log, now: () => new Date(), schedule: (flush) => defer(flush) });
  const deps: Deps = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    log,
    now: extra.now ?? (() => new Date()),
    fetch: globalThis.fetch,
    // As the Node entrypoint: redis:// through ioredis.
    rateLimiter: createRateLimiter({ sharedStoreUrl: config.SHARED_STORE_URL, log, redisTcp: createRedisTcpStore }),
    mailer: extra.mailer,
    // As the Node entrypoint: the SDK adapter when the four OBJECT_STORAGE_ variables are set.
    storage: await createNodeObjectStore(config),
    scratch: extra.scratch ?? createFileScratch(),
    defer,
    model: inProcessModel(globalThis.fetch),
    brokers: inProcessBrokers(globalThis.fetch, extra.now),
    ...(analytics ? { analytics } : {}),
    ...(extra.shippedChangelog ? { shippedChangelog: extra.shippedChangelog } : {}),
    ...(extra.printPdf ? { printPdf: extra.printPdf } : {}),
  };
  const randomPeer = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;
  const peer = extra.peer ?? randomPeer();
  const app = buildFullApp({ deps: () => deps, peerAddress: () => (peer === "per-request" ? randomPeer() : peer) });
  // Every response is held against the published OpenAPI document (tests/support/contract.ts).
  const checked = {
    request: async (path: string, init: RequestInit) => {
      const res = await app.request(path, init);
      const problems = await contractProblems((init.method ?? "GET").toUpperCase(), path, res.clone());
      if (problems.length) throw new Error(`The response breaks the API document:\n${problems.join("\n")}`);
      return res;
    },
  };
  return {
    app,
    deps,
    config,
    client: () => new TestClient(checked),
    settled: async () => {
      while (pending.length) await Promise.all(pending.splice(0));
    },
  };
}

/** Registers a new user through the API; returns their signed-in client and id. */
export async function signUp(t: TestApp, tag = "user"): Promise<{ client: TestClient; userId: string }> {
  const client = t.client();
  const res = await client.post("/api/auth/register", { email: uniqueEmail(tag), password: PASSWORD });
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  return { client, userId: ((await res.json()) as { user: { id: string } }).user.id };
}

/** The whole API with a client address per request, plus sign-up and anonymous clients. */
export async function journal(databaseUrl: string, env: Record<string, string> = {}) {
  const t = await testApp(databaseUrl, env, { peer: "per-request" });
  return { t, db: t.deps.db, signUp: (tag?: string) => signUp(t, tag), anonymous: () => t.client() };
}
