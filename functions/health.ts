import { createRouter, type Group } from "../lib/http/index.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { HealthSchema } from "../lib/health/responses.ts";
import { checkHealth } from "../lib/health/index.ts";

export const health = createRouter().get(
  "/",
  describeRoute({
    tag: "health",
    summary: "Whether the instance and its database are up",
    public: true,
    responses: { 200: { description: "Up.", schema: HealthSchema }, 503: { description: "Degraded: the database does not answer.", schema: HealthSchema } },
  }),
  async (c) => {
    const report = await checkHealth(c.var.deps);
    return c.json(report, report.status === "ok" ? 200 : 503);
  },
);

export const healthGroup = { prefix: "/api/health", app: health } as const satisfies Group;
