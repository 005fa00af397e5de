// The fields the API's response schemas share (an instant, a decimal, an id, a day...): each domain's responses.ts
// describes its routes' bodies with them, for the OpenAPI document and the contract test that holds real
// responses to it.
import * as z from "zod/mini";

export const iso = () => z.string().check(z.describe("An instant, ISO 8601 in UTC"));

export const decimal = () => z.string().check(z.regex(/^-?\d+\.\d{2,10}$/), z.describe("A decimal as a string, at least two decimals"));

export const id = () => z.uuid();

export const ratio = () => z.nullable(z.string().check(z.regex(/^\d+(\.\d+)?$/), z.describe("A ratio as a decimal string, 4 decimals; null when undefined")));

/** The one currency of a statistic's amounts (null when the user has no account). */
export const statsCurrency = () => z.nullable(z.string());

export const day = () => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/), z.describe("A date, YYYY-MM-DD"));

/** With currency=base (docs/currencies.md): the rates the figures needed and the instance lacks; their trades are left out. */
export const missingRates = () =>
  z.optional(z.array(z.object({ currency: z.string(), date: day() })).check(z.describe("With currency=base: each currency and date whose rate the instance lacks (those amounts are left out)")));

export const loose = () => z.record(z.string(), z.unknown());
