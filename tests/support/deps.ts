import { inProcessModel } from "../../lib/advisor/language-model.ts";
import type { Config } from "../../lib/config/index.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import { deferWith, type Deps } from "../../lib/deps.ts";
import { createLogger, type Logger } from "../../lib/log.ts";
import { createRateLimiter } from "../../lib/ratelimit/index.ts";

/** Captured log lines, so tests can assert what was (and was not) logged. */
export function captureLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger({ write: (l) => lines.push(l) }), lines };
}

export function testDeps(config: Config, handle: DbHandle, overrides: Partial<Deps> = {}): Deps {
  const log = overrides.log ?? createLogger({ silent: true });
  return {
    config,
    db: handle.db,
    dbKind: handle.kind,
    log,
    now: () => new Date(),
    fetch: globalThis.fetch,
    rateLimiter: createRateLimiter({ log }),
    mailer: undefined,
    storage: undefined,
    defer: deferWith(log),
    model: inProcessModel(globalThis.fetch),
    ...overrides,
  };
}
