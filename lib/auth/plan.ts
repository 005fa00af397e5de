import type { Config } from "../config/index.ts";
import type { AuthUser } from "./session.ts";

/** Free-plan caps, applied only with FEATURE_GATING=true. */
export const FREE_PLAN_LIMITS = { accounts: 1 } as const;

/**
 * Whether plan caps apply to this user: only with FEATURE_GATING on, and never to admins or Pro users.
 */
export function isPlanCapped(config: Pick<Config, "FEATURE_GATING">, user: Pick<AuthUser, "isAdmin" | "plan">): boolean {
  return config.FEATURE_GATING && !user.isAdmin && user.plan === "free";
}
