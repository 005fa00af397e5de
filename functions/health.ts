import { createRouter, type Group } from "../lib/http/index.ts";
import { checkHealth } from "../lib/health/index.ts";

export const health = createRouter().get("/", async (c) => {
  const report = await checkHealth(c.var.deps);
  return c.json(report, report.status === "ok" ? 200 : 503);
});

export const healthGroup = { prefix: "/api/health", app: health } as const satisfies Group;
