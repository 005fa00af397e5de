import { auth } from "./auth.ts";
import { config } from "./config.ts";
import { health } from "./health.ts";

/**
 * Every endpoint group and the path prefix it serves. The Node entrypoint mounts them all; each
 * Worker mounts one (wrangler.toml routes the same prefix to it).
 */
export const groups = {
  health: { prefix: "/api/health", app: health },
  config: { prefix: "/api/config", app: config },
  auth: { prefix: "/api/auth", app: auth },
} as const;

export type GroupName = keyof typeof groups;
