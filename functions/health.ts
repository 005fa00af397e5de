import { createRouter } from "../lib/http/index.ts";
import { checkHealth } from "../lib/health/index.ts";

export const health = createRouter().get("/", async (c) => {
  const report = await checkHealth(c.var.deps);
  return c.json(report, report.status === "ok" ? 200 : 503);
});
