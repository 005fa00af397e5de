// A user's own settings (DESIGN.md section 11, "User settings"; docs/currencies.md): the base currency every
// account's figures convert to, the weekly digest's schedule, privacy mode. A PUT changes only what it names.
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../db/rows.ts";
import { AppError } from "../errors.ts";
import { CurrencySchema } from "../accounts/schema.ts";
import { CANONICAL_TIME_ZONES } from "../time/zones.ts";
import { ensureRates } from "../fx/rates.ts";
import { MODEL_PROVIDERS } from "../providers/providers.ts";

const DigestSchema = z.strictObject({
  weekly: z.boolean("must be true or false"),
  weekday: z.int("must be a whole number from 0 (Sunday) to 6").check(z.gte(0, "must be from 0 (Sunday) to 6"), z.lte(6, "must be from 0 (Sunday) to 6")),
  hour: z.int("must be a whole number from 0 to 23").check(z.gte(0, "must be from 0 to 23"), z.lte(23, "must be from 0 to 23")),
  zone: z.string("must be an IANA time zone").check(z.refine((v) => CANONICAL_TIME_ZONES.has(v), "must be a canonical IANA time zone such as Europe/Berlin")),
  /** The provider whose saved key writes the advisor's short reading of the week (metered like a turn); null or absent: none. */
  reading: z.optional(z.nullable(z.enum(MODEL_PROVIDERS, { error: `must be null or one of ${MODEL_PROVIDERS.join(", ")}` }))),
  /** The wash-sale watch (US taxes, docs/tax.md) in the digest: the USD losses a purchase would still wash. */
  washWatch: z.optional(z.boolean("must be true or false")),
});

export const SettingsUpdateSchema = z.strictObject({
  baseCurrency: z.optional(z.nullable(CurrencySchema)),
  digest: z.optional(z.nullable(DigestSchema)),
  privacyMode: z.optional(z.boolean("must be true or false")),
});
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

export type Settings = { baseCurrency: string | null; digest: z.infer<typeof DigestSchema> | null; privacyMode: boolean };

type Row = { base_currency: string | null; digest: Settings["digest"]; privacy_mode: boolean; fx_version: string };

export async function getSettings(deps: Pick<Deps, "db">, userId: string): Promise<Settings> {
  const [row] = rowsOf<Row>(await deps.db.execute(sql`select base_currency, digest, privacy_mode, fx_version::text from user_settings where user_id = ${userId}::uuid`));
  return { baseCurrency: row?.base_currency ?? null, digest: row?.digest ?? null, privacyMode: row?.privacy_mode ?? false };
}

/**
 * Is `currency` one the rate service knows? Among the rates kept, else among the latest it publishes (asked
 * now). The answer is no when the service cannot be reached either: a base is never set on a guess.
 */
export async function knownCurrency(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, currency: string): Promise<boolean> {
  const known = async () => rowsOf(await deps.db.execute(sql`select 1 from fx_rates where currency = ${currency} limit 1`)).length > 0;
  if (await known()) return true;
  await ensureRates(deps, [deps.now().toISOString().slice(0, 10)]);
  return known();
}

export async function putSettings(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, userId: string, update: SettingsUpdate): Promise<Settings> {
  if (update.baseCurrency && !(await knownCurrency(deps, update.baseCurrency))) {
    throw new AppError("VALIDATION_ERROR", `${update.baseCurrency} is not a currency of the reference rates this instance can have.`, {
      fields: [{ path: "baseCurrency", message: "must be a currency the rate service publishes (such as EUR, USD, GBP, JPY, CHF), and the service must answer" }],
    });
  }
  const set = (name: keyof SettingsUpdate) => update[name] !== undefined;
  await deps.db.execute(sql`insert into user_settings (user_id, base_currency, digest, privacy_mode)
    values (${userId}::uuid, ${update.baseCurrency ?? null}, ${update.digest ? JSON.stringify(update.digest) : null}::jsonb, ${update.privacyMode ?? false})
    on conflict (user_id) do update set
      base_currency = case when ${set("baseCurrency")} then excluded.base_currency else user_settings.base_currency end,
      digest = case when ${set("digest")} then excluded.digest else user_settings.digest end,
      privacy_mode = case when ${set("privacyMode")} then excluded.privacy_mode else user_settings.privacy_mode end,
      fx_version = user_settings.fx_version + case when ${set("baseCurrency")} and excluded.base_currency is distinct from user_settings.base_currency then 1 else 0 end,
      updated_at = now()`);
  return getSettings(deps, userId);
}
