import { createRouter } from "../lib/http/index.ts";

export const config = createRouter().get("/public", (c) => {
  const { DISABLE_REGISTRATION, NEWSLETTER_URL } = c.var.deps.config;
  return c.json({ registrationOpen: !DISABLE_REGISTRATION, newsletterUrl: NEWSLETTER_URL ?? null });
});
