import { currentUser, requireUser } from "../lib/http/auth.ts";
import { createRouter, validate, type Group } from "../lib/http/index.ts";
import { FxOverrideSchema, FxRatesSchema } from "../lib/fx/responses.ts";
import { SettingsSchema } from "../lib/settings/responses.ts";
import { describeRoute } from "../lib/http/route-docs.ts";
import { getSettings, putSettings, SettingsUpdateSchema } from "../lib/settings/settings.ts";
import { deleteOverride, OverrideKeySchema, OverrideSchema, putOverride, RatesQuerySchema, ratesUsed } from "../lib/fx/overrides.ts";

// The user's own settings (DESIGN.md section 11, "User settings") and their base currency's rates
// (docs/currencies.md): the reference rates used, the trader's overrides.
export const settings = createRouter()
  .get(
    "/",
    describeRoute({ tag: "settings", summary: "Your settings: base currency, weekly digest, privacy mode", responses: { 200: { description: "The settings.", schema: SettingsSchema } } }),
    requireUser,
    async (c) => c.json(await getSettings(c.var.deps, currentUser(c).id)),
  )
  .put(
    "/",
    describeRoute({
      tag: "settings",
      summary: "Change the settings named (the others stay)",
      description: "`baseCurrency` must be a currency the rate service publishes (FX_RATES_BASE_URL); null turns conversion off. An unknown or malformed field is 400 naming it.",
      responses: { 200: { description: "The settings.", schema: SettingsSchema } },
      errors: ["VALIDATION_ERROR"],
    }),
    requireUser,
    validate("json", SettingsUpdateSchema),
    async (c) => c.json(await putSettings(c.var.deps, currentUser(c).id, c.req.valid("json"))),
  )
  .put(
    "/fx-overrides",
    describeRoute({
      tag: "settings",
      summary: "Your own rate for a date: units of `currency` per 1 of your base, winning over the reference rate",
      description: "For a currency of one of your accounts, a date not in the future, a rate above 0; a base currency must be set.",
      responses: { 200: { description: "The override.", schema: FxOverrideSchema } },
      errors: ["VALIDATION_ERROR"],
    }),
    requireUser,
    validate("json", OverrideSchema),
    async (c) => c.json(await putOverride(c.var.deps, currentUser(c).id, c.req.valid("json"))),
  )
  .delete(
    "/fx-overrides",
    describeRoute({ tag: "settings", summary: "Remove your rate for a date and currency (?date=&currency=): the reference rate applies again", responses: { 204: { description: "Removed." } }, errors: ["VALIDATION_ERROR", "NOT_FOUND"] }),
    requireUser,
    validate("query", OverrideKeySchema),
    async (c) => {
      await deleteOverride(c.var.deps, currentUser(c).id, c.req.valid("query"));
      return c.body(null, 204);
    },
  )
  .get(
    "/fx-rates",
    describeRoute({
      tag: "settings",
      summary: "The rates your figures use (?from=&to=, 90 days by default, 400 at most): per currency and trading day, the rate, its date and source; those missing; your overrides",
      responses: { 200: { description: "The rates.", schema: FxRatesSchema } },
      errors: ["VALIDATION_ERROR"],
    }),
    requireUser,
    validate("query", RatesQuerySchema),
    async (c) => c.json(await ratesUsed(c.var.deps, currentUser(c).id, c.req.valid("query"))),
  );

export const settingsGroup = { prefix: "/api/settings", app: settings } as const satisfies Group;
