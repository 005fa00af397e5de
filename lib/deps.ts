import type { Analytics } from "./analytics/index.ts";
import type { Config } from "./config/index.ts";
import type { Db, DbKind } from "./db/client.ts";
import type { Mailer } from "./email/index.ts";
import type { ModelRunner } from "./ports/model.ts";
import type { BrokerRunner } from "./ports/broker.ts";
import type { Logger } from "./log.ts";
import type { RateLimiter } from "./ratelimit/index.ts";
import type { ObjectStore, Scratch } from "./ports/storage.ts";
import type { SetupLink } from "./ports/setup.ts";

/**
 * Everything a domain function may touch besides its input. Entrypoints build it (Node once at start,
 * a Worker per request); tests build it with the real database and local servers for outbound calls.
 */
export type Deps = {
  readonly config: Config;
  readonly db: Db;
  readonly dbKind: DbKind;
  readonly log: Logger;
  readonly now: () => Date;
  /** Outbound HTTP; providers are reached only through their configured base URLs. */
  readonly fetch: typeof fetch;
  readonly rateLimiter: RateLimiter;
  /** Present only when email is configured (config.features.email). */
  readonly mailer: Mailer | undefined;
  /**
   * Present only when object storage is configured (config.features.objectStorage): the SDK adapter on
   * Node, the fetch adapter on Workers. Absent means staged imports stay inline in Postgres.
   */
  readonly storage: ObjectStore | undefined;
  /**
   * Runs work after the response without holding it up (a Worker keeps the isolate alive for it).
   * Failures are logged, never thrown at the caller.
   */
  readonly defer: (task: () => Promise<unknown>) => void;
  /**
   * The advisor's model call (lib/advisor/model.ts): in this process on Node and in `wrangler dev`, a model
   * Worker behind a service binding in the deployed advisor Worker. Absent where no turn runs.
   */
  readonly model?: ModelRunner;
  /**
   * The broker sync's calls to the brokers (lib/sync/runner.ts): the adapters in this process on Node and in
   * `wrangler dev`, the brokers Worker behind a service binding in the deployed accounts and jobs Workers.
   * Absent where no connection is saved or pulled.
   */
  readonly brokers?: BrokerRunner;
  /**
   * Room for uploads read out of order (an archive's import; lib/storage/scratch.ts): temporary files on Node,
   * the object store in the archive Worker. Absent elsewhere, where such an upload is refused with 503.
   */
  readonly scratch?: Scratch;
  /** Backend product analytics (lib/analytics), present only when ANALYTICS_API_KEY is set. */
  readonly analytics?: Analytics;
  /**
   * The release notes this instance ships (CHANGELOG.md, on Node), for "What's new" when the releases source
   * cannot be reached (lib/changelog); null when there are none. Absent on Workers.
   */
  readonly shippedChangelog?: () => Promise<{ markdown: string; version: string; modifiedAt: string } | null>;
  /**
   * The one-time setup link of a Node start without an administrator (lib/admin/setup.ts): the digest of its
   * token, null once used. Absent on Workers and whenever the start printed no link.
   */
  readonly setupLink?: SetupLink;
  /**
   * Prints an HTML document to PDF (the printable report, lib/report/chromium.ts): a headless Chromium of this
   * machine on Node, when one is installed. Absent on Workers, where GET /api/reports/report.pdf answers 503.
   */
  readonly printPdf?: (html: string) => Promise<Uint8Array>;
};

/** A `defer` that logs failures; `keepAlive` lets a Worker hold the isolate open until the task ends. */
export function deferWith(log: Logger, keepAlive?: (promise: Promise<unknown>) => void): Deps["defer"] {
  return (task) => {
    const running = Promise.resolve()
      .then(task)
      .catch((err: unknown) => log.error("deferred task failed", { error: err instanceof Error ? err.message : String(err) }));
    keepAlive?.(running);
  };
}
