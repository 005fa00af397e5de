import type { Config } from "./config/index.ts";
import type { Db, DbKind } from "./db/client.ts";
import type { Logger } from "./log.ts";

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
};
