import type { Config } from "../../lib/config/index.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import type { Deps } from "../../lib/deps.ts";
import { createLogger, type Logger } from "../../lib/log.ts";

/** Captured log lines, so tests can assert what was (and was not) logged. */
export function captureLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger({ write: (l) => lines.push(l) }), lines };
}

export function testDeps(config: Config, handle: DbHandle, overrides: Partial<Deps> = {}): Deps {
  return {
    config,
    db: handle.db,
    dbKind: handle.kind,
    log: createLogger({ silent: true }),
    now: () => new Date(),
    fetch: globalThis.fetch,
    ...overrides,
  };
}
