import { describe, expect, it } from "vitest";
import { isPlanCapped } from "../../lib/auth/plan.ts";
import { testConfig } from "../support/env.ts";

describe("plan caps (FEATURE_GATING)", () => {
  const gated = testConfig({ FEATURE_GATING: "true" });
  const open = testConfig({ FEATURE_GATING: "false" });

  it("cap only non-admin Free users, and only with gating on", () => {
    expect(isPlanCapped(gated, { isAdmin: false, plan: "free" })).toBe(true);
    expect(isPlanCapped(gated, { isAdmin: true, plan: "free" })).toBe(false);
    expect(isPlanCapped(gated, { isAdmin: false, plan: "pro" })).toBe(false);
    expect(isPlanCapped(open, { isAdmin: false, plan: "free" })).toBe(false);
  });
});
