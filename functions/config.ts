import { requireUser } from "../lib/http/auth.ts";
import { createRouter, type Group } from "../lib/http/index.ts";

export const config = createRouter()
  .get("/public", (c) => {
    const { DISABLE_REGISTRATION, NEWSLETTER_URL } = c.var.deps.config;
    return c.json({ registrationOpen: !DISABLE_REGISTRATION, newsletterUrl: NEWSLETTER_URL ?? null });
  })
  .get("/", requireUser, (c) => {
    const { features } = c.var.deps.config;
    return c.json({
      quotes: features.quotes,
      billing: features.billing,
      pro: features.pro,
      email: features.email,
      objectStorage: features.objectStorage,
      analytics: features.browserAnalytics,
    });
  });

export const configGroup = { prefix: "/api/config", app: config } as const satisfies Group;
