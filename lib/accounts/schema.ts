import * as z from "zod/mini";
import { DecimalStringSchema } from "../money.ts";
import { dateTimeSchema } from "../time/range.ts";
import { FeeScheduleSchema } from "./fees.ts";

const required = (what: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? "is required" : `must be ${what}`),
});

/** Characters that show nothing: white space, zero-width spaces and joiners, the byte-order mark. */
const INVISIBLE = /^[\s\u200B-\u200D\u2060\uFEFF]*$/u;

/** Account and brokerage names: trimmed, 1 to 100 characters, something visible; unique per user whatever the case. */
export const NameSchema = z
  .string(required("a string"))
  .check(
    z.trim(),
    z.minLength(1, "must not be empty"),
    z.maxLength(100, "must be at most 100 characters"),
    z.refine((v: string) => v === "" || !INVISIBLE.test(v), "must contain a visible character"),
  );

/** Three letters, ISO 4217 style ("usd" is read as "USD"). */
export const CurrencySchema = z.pipe(
  z.string(required("a string")).check(z.trim(), z.regex(/^[A-Za-z]{3}$/, "must be a 3-letter ISO 4217 currency code such as USD")),
  z.transform((v: string) => v.toUpperCase()),
);

/**
 * A time zone name. Only its type and size are checked here: an unknown or non-canonical zone is its own
 * error code (INVALID_TIMEZONE), decided by the domain code.
 */
export const TimezoneSchema = z.string(required("a string")).check(z.maxLength(100, "must be at most 100 characters"));

const Uuid = z.uuid("must be a uuid");

/** When the starting balance was the account's cash ("balance as of"): the opening entry's date. */
const StartingBalanceAtSchema = dateTimeSchema();

export const NewAccountSchema = z.object({
  name: NameSchema,
  currency: CurrencySchema,
  startingBalance: z.optional(DecimalStringSchema),
  /** Defaults to the moment the account is created; it moves earlier by itself when older history arrives. */
  startingBalanceAt: z.optional(StartingBalanceAtSchema),
  timezone: z.optional(TimezoneSchema),
  /** null and absent both mean "no brokerage". */
  brokerageId: z.optional(z.nullable(Uuid)),
});
export type NewAccount = z.infer<typeof NewAccountSchema>;

const IMMUTABLE = "cannot be changed after the account is created; record an adjustment entry in the ledger instead";

/**
 * What PATCH may change. Strict: startingBalance and currency get their own message (they are fixed once
 * the ledger exists), anything else unknown is refused rather than silently ignored.
 */
export const AccountPatchSchema = z.strictObject(
  {
    name: z.optional(NameSchema),
    timezone: z.optional(TimezoneSchema),
    /** null clears the brokerage. */
    brokerageId: z.optional(z.nullable(Uuid)),
    /** Re-dates the opening entry; it must stay before every other entry of the ledger. */
    startingBalanceAt: z.optional(StartingBalanceAtSchema),
    /** 1R in money for its trades that say nothing of their own (DESIGN.md section 10); null clears it. */
    defaultRisk: z.optional(
      z.nullable(DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-") && !/^[+]?0+(\.0+)?$/.test(v), "must be greater than zero"))),
    ),
    /** What the broker charges, for imported rows that carry no fee (lib/accounts/fees.ts); null clears it. */
    feeSchedule: z.optional(z.nullable(FeeScheduleSchema)),
    /** For tax (docs/tax.md). */
    taxStatus: z.optional(z.enum(["taxable", "ira", "exempt"], { error: "must be taxable, ira or exempt" })),
    startingBalance: z.optional(z.never(IMMUTABLE)),
    currency: z.optional(z.never(IMMUTABLE)),
  },
  {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? `unknown field ${iss.keys.join(", ")}: only name, timezone, brokerageId, startingBalanceAt, defaultRisk, feeSchedule and taxStatus can be changed`
        : iss.code === "invalid_type"
          ? "must be a JSON object"
          : undefined,
  },
);
export type AccountPatch = z.infer<typeof AccountPatchSchema>;

export const DeleteAccountQuerySchema = z.object({
  confirm: z.optional(z.literal("delete-history", 'must be "delete-history"')),
});

export const IdParamSchema = z.object({ id: Uuid });

export const NewBrokerageSchema = z.object({ name: NameSchema });
export type NewBrokerage = z.infer<typeof NewBrokerageSchema>;
export const BrokeragePatchSchema = NewBrokerageSchema;
