import { sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import stamp from "../build-stamp.json" with { type: "json" };

export type Health = { status: "ok" | "degraded"; version?: string; database: "up" | "down" };

/** How long the database probe may take before the database counts as down. */
export const DATABASE_PROBE_TIMEOUT_MS = 2000;

/** The release stamp unless APP_VERSION overrides it; APP_VERSION set blank drops the field. */
export function resolveVersion(appVersion: string | null | undefined, stamped: string = stamp.version): string | undefined {
  if (appVersion === null) return undefined;
  return appVersion ?? stamped;
}

export async function probeDatabase(deps: Pick<Deps, "db">, timeoutMs = DATABASE_PROBE_TIMEOUT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([deps.db.execute(sql`select 1`).then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(deps: Pick<Deps, "db" | "config">): Promise<Health> {
  const up = await probeDatabase(deps);
  const version = resolveVersion(deps.config.APP_VERSION);
  return {
    status: up ? "ok" : "degraded",
    ...(version !== undefined ? { version } : {}),
    database: up ? "up" : "down",
  };
}
