import { proPrice } from "../lib/billing/payments.ts";
import { requireUser } from "../lib/http/auth.ts";
import { createRouter, type Group } from "../lib/http/index.ts";
import { ConfigSchema, PublicConfigSchema } from "../lib/config/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";

export const config = createRouter()
  .get("/public", describeRoute({ tag: "config", summary: "Whether sign-up is open (no session needed)", public: true, responses: { 200: { description: "The public settings.", schema: PublicConfigSchema } } }), (c) => {
    const { DISABLE_REGISTRATION, NEWSLETTER_URL } = c.var.deps.config;
    return c.json({ registrationOpen: !DISABLE_REGISTRATION, newsletterUrl: NEWSLETTER_URL ?? null });
  })
  .get("/", describeRoute({ tag: "config", summary: "Which optional features this instance has", responses: { 200: { description: "The features, the week start, and what billing sells.", schema: ConfigSchema } } }), requireUser, async (c) => {
    const { features, WEEK_START_DAY } = c.var.deps.config;
    return c.json({
      // The instance's week start (0 Sunday, 1 Monday): the equity curve's weekly buckets use it, and the
      // browser's calendar starts there too unless the reader picks otherwise.
      weekStartDay: WEEK_START_DAY,
      quotes: features.quotes,
      billing: features.billing,
      pro: features.pro,
      // What can be bought, so the billing page can show it (DESIGN.md section 8, "Config shapes").
      ...(features.billing ? { packs: c.var.deps.config.creditPacks.map((p) => ({ ...p })) } : {}),
      ...(features.pro ? { proPrice: await proPrice(c.var.deps) } : {}),
      email: features.email,
      objectStorage: features.objectStorage,
      analytics: features.browserAnalytics,
      schwab: features.schwab,
    });
  });

export const configGroup = { prefix: "/api/config", app: config } as const satisfies Group;
