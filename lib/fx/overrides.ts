// The trader's own rates and the page of the rates used (docs/currencies.md): an override is units of a
// currency per 1 of the user's base on one date, and wins over the reference rate of that date (lib/fx/convert.ts).
import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../db/rows.ts";
import { AppError } from "../errors.ts";
import { CurrencySchema } from "../accounts/schema.ts";
import { DecimalStringSchema, formatDecimal } from "../money.ts";
import { daySchema } from "../days/schema.ts";
import { baseOf } from "./user-base.ts";
import { settleForRead } from "../maintained/settle.ts";
import { ratesBaseUrl, recordedSql } from "./rates.ts";
import { addDays } from "../time/zoned.ts";
import { readAfterAsking } from "./base.ts";
import { ratesSql } from "./convert.ts";

/** A date may be today somewhere on Earth: a day ahead of UTC at most. */
const notFuture = (now: Date, day: string) => day <= addDays(now.toISOString().slice(0, 10), 1);

export const OverrideSchema = z.strictObject({
  date: daySchema(),
  currency: CurrencySchema,
  rate: DecimalStringSchema.check(z.refine((v) => Number(v) > 0, "must be above 0")),
});
export const OverrideKeySchema = z.object({ date: daySchema(), currency: CurrencySchema });

/** Up to 400 days of rates at once. */
export const MAX_RATE_DAYS = 400;
export const RatesQuerySchema = z
  .object({ from: z.optional(daySchema()), to: z.optional(daySchema()) })
  .check(
    z.refine((q) => !q.from || !q.to || q.from <= q.to, { message: "must not be before from", path: ["to"] }),
    // Date.parse, not addDays: the check runs on dates the fields refused too (NaN refuses nothing).
    z.refine((q) => !q.from || !q.to || !(Date.parse(q.to) - Date.parse(q.from) >= MAX_RATE_DAYS * 86_400_000), { message: `must be within ${MAX_RATE_DAYS} days of from`, path: ["to"] }),
  );

async function requireBase(deps: Pick<Deps, "db">, userId: string) {
  const base = await baseOf(deps, userId);
  if (!base) {
    throw new AppError("VALIDATION_ERROR", "Choose a base currency in Settings first: an override is a rate to it.", {
      fields: [{ path: "baseCurrency", message: "is not set" }],
    });
  }
  return base.base;
}

export async function putOverride(deps: Pick<Deps, "db" | "now">, userId: string, body: z.infer<typeof OverrideSchema>) {
  const base = await requireBase(deps, userId);
  if (!notFuture(deps.now(), body.date)) throw new AppError("VALIDATION_ERROR", "A rate is for a date that has come.", { fields: [{ path: "date", message: "must not be in the future" }] });
  if (body.currency === base) throw new AppError("VALIDATION_ERROR", `${base} is your base currency: its rate is 1.`, { fields: [{ path: "currency", message: "must not be your base currency" }] });
  const [row] = rowsOf<{ date: string }>(
    await deps.db.execute(sql`with ok as (select 1 from accounts where user_id = ${userId}::uuid and currency = ${body.currency} limit 1),
      put as (
        insert into fx_overrides (user_id, day, currency, base, rate) select ${userId}::uuid, ${body.date}::date, ${body.currency}, ${base}, ${body.rate}::numeric from ok
        on conflict (user_id, currency, day) do update set rate = excluded.rate, base = excluded.base, created_at = now()
        returning day
      ),
      bump as (update user_settings set fx_version = fx_version + 1 where user_id = ${userId}::uuid and exists (select 1 from put))
      select to_char(day, 'YYYY-MM-DD') as date from put`),
  );
  if (!row) throw new AppError("VALIDATION_ERROR", `None of your accounts is in ${body.currency}.`, { fields: [{ path: "currency", message: "must be the currency of one of your accounts" }] });
  return { override: { date: body.date, currency: body.currency, base, rate: formatDecimal(body.rate) } };
}

export async function deleteOverride(deps: Pick<Deps, "db">, userId: string, key: z.infer<typeof OverrideKeySchema>) {
  const rows = rowsOf(
    await deps.db.execute(sql`with gone as (delete from fx_overrides where user_id = ${userId}::uuid and day = ${key.date}::date and currency = ${key.currency} returning 1),
      bump as (update user_settings set fx_version = fx_version + 1 where user_id = ${userId}::uuid and exists (select 1 from gone))
      select 1 from gone`),
  );
  if (rows.length === 0) throw new AppError("NOT_FOUND", "No such rate of yours.");
}

type RateRow = { currency: string; day: string; rate: string | null; rate_date: string | null; source: string | null; recorded: boolean };

/**
 * GET /api/settings/fx-rates: the rates the user's figures use from `from` to `to` (the last 90 days by
 * default): per currency of their accounts other than the base, per date with something realised or paid in it,
 * the rate, its date and source, or listed as missing; with the user's overrides and the service asked.
 */
export async function ratesUsed(deps: Pick<Deps, "db" | "config" | "fetch" | "now" | "log">, userId: string, query: z.infer<typeof RatesQuerySchema>) {
  const base = await requireBase(deps, userId);
  await settleForRead(deps, userId);
  const today = deps.now().toISOString().slice(0, 10);
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -89);
  if (addDays(from, MAX_RATE_DAYS) <= to) throw new AppError("VALIDATION_ERROR", `Up to ${MAX_RATE_DAYS} days of rates at once.`, { fields: [{ path: "from", message: `must be within ${MAX_RATE_DAYS} days of to` }] });
  const read = async () =>
    rowsOf<RateRow>(
      // Per account (a broker's rate is its account's): one row per currency, date, rate and source.
      await deps.db.execute(sql`select distinct r.currency, to_char(r.day, 'YYYY-MM-DD') as day, r.rate::text as rate, to_char(r.rate_day, 'YYYY-MM-DD') as rate_date, r.source,
          ${recordedSql(sql`r.day`, today)} as recorded
        from (${ratesSql(
          userId,
          base,
          sql`select distinct a.currency, a.id as account_id, g.day from stats_groups g join accounts a on a.id = g.account_id
            where a.user_id = ${userId}::uuid and a.currency <> ${base} and g.grain = 'day' and g.dim = '' and g.one_r is null
              and g.day between ${from}::date and ${to}::date`,
          true,
        )}) r
        order by day desc, r.currency, r.source`),
    );
  const rows = await readAfterAsking(deps, read, (r) => r.rate === null);
  const overrides = rowsOf<{ date: string; currency: string; rate: string }>(
    await deps.db.execute(sql`select to_char(day, 'YYYY-MM-DD') as date, currency, rate::text as rate from fx_overrides
      where user_id = ${userId}::uuid and base = ${base} order by day desc, currency`),
  );
  return {
    base,
    from,
    to,
    service: ratesBaseUrl(deps),
    rates: rows.filter((r) => r.rate !== null).map((r) => ({ date: r.day, currency: r.currency, rate: formatDecimal(r.rate!), rateDate: r.rate_date!, source: r.source as "same" | "override" | "broker" | "reference" })),
    missingRates: rows.filter((r) => r.rate === null).map((r) => ({ currency: r.currency, date: r.day })),
    overrides: overrides.map((o) => ({ ...o, rate: formatDecimal(o.rate) })),
  };
}
