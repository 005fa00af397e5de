// Trading accounts. Creation goes through the account_create SQL function (migrations/0003), which
// locks the user row, enforces the plan cap and the brokerage owner, and writes the opening ledger
// entry in the same statement. Every other change is one statement too, so it is atomic on every
// transport (HTTP included). Another user's account is answered exactly like a missing one.
import { sql, type SQL } from "drizzle-orm";
import { track } from "../analytics/index.ts";
import { drainObjectDeletions } from "../storage/deletions.ts";
import { FREE_PLAN_LIMITS, isPlanCapped } from "../auth/plan.ts";
import type { AuthUser } from "../auth/session.ts";
import { isUniqueViolation, pgError, RAISED_EXCEPTION } from "../db/errors.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal } from "../money.ts";
import { CANONICAL_TIME_ZONES } from "../time/zones.ts";
import type { AccountPatch, NewAccount } from "./schema.ts";
import type { FeeSchedule } from "./fees.ts";

export const DEFAULT_TIMEZONE = "America/New_York";
export const DELETE_HISTORY_CONFIRMATION = "delete-history";

export type Account = {
  id: string;
  name: string;
  currency: string;
  startingBalance: string;
  /** The opening entry's date ("balance as of"); null without a starting balance. */
  startingBalanceAt: string | null;
  timezone: string;
  brokerageId: string | null;
  createdAt: string;
  /** The current cash balance: the running balance after the newest ledger entry. */
  balance: string;
  /** 1R in money for trades without a plan of their own (DESIGN.md section 10); null: none. */
  defaultRisk: string | null;
  /** What the broker charges, for imported rows that carry no fee (lib/accounts/fees.ts); null: none. */
  feeSchedule: FeeSchedule | null;
  /** For tax (docs/tax.md): taxable, ira or exempt. */
  taxStatus: "taxable" | "ira" | "exempt";
};

type AccountRow = {
  id: string;
  name: string;
  currency: string;
  starting_balance: string;
  starting_balance_at: string | null;
  timezone: string;
  brokerage_id: string | null;
  default_risk: string | null;
  fee_schedule: FeeSchedule | string | null;
  tax_status: Account["taxStatus"];
  created_at: string;
  balance: string | null;
};

const FOREIGN_KEY_VIOLATION = "23503";

const notFound = () => new AppError("NOT_FOUND", "No such account.");
const duplicateName = () =>
  new AppError("CONFLICT", "You already have an account with this name.");
// The same answer for another user's brokerage and for an id that does not exist, so it reveals nothing.
const foreignBrokerage = () =>
  new AppError("FORBIDDEN", "The brokerage does not belong to you.");

/** Columns every driver returns as text, so the result is the same over pg, PGlite and HTTP. */
function accountColumns(alias: string, balance: SQL, startingBalanceAt: SQL): SQL {
  return sql`${sql.raw(`${alias}.id::text as id, ${alias}.name, ${alias}.currency, ${alias}.starting_balance::text as starting_balance,
    ${alias}.timezone, ${alias}.brokerage_id::text as brokerage_id, ${alias}.default_risk::text as default_risk, ${alias}.fee_schedule, ${alias}.tax_status,
    ${isoUtc(`${alias}.created_at`)} as created_at`)}, ${startingBalanceAt} as starting_balance_at, ${balance} as balance`;
}

/** The opening entry's date, read from the ledger. */
const OPENING_AT = sql.raw(`(select ${isoUtc("o.occurred_at")} from ledger_entries o where o.account_id = a.id and o.type = 'opening')`);

/** The balance after the newest entry: the sum of the ledger's month totals (kept by the ledger_days_follow trigger). */
const LAST_BALANCE = sql.raw(`left join lateral (
    select sum(m.total) as balance_after from ledger_months m where m.account_id = a.id
  ) last on true`);
const withBalance = accountColumns("a", sql.raw("last.balance_after::text"), OPENING_AT);

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    startingBalance: formatDecimal(row.starting_balance),
    startingBalanceAt: row.starting_balance_at,
    timezone: row.timezone,
    brokerageId: row.brokerage_id,
    createdAt: row.created_at,
    balance: formatDecimal(row.balance ?? "0"),
    defaultRisk: row.default_risk === null ? null : formatDecimal(row.default_risk),
    feeSchedule: typeof row.fee_schedule === "string" ? (JSON.parse(row.fee_schedule) as FeeSchedule) : row.fee_schedule,
    taxStatus: row.tax_status,
  };
}

/**
 * Only canonical IANA names (zones, not links): "Etc/UTC" but not "UTC" or "US/Eastern". When the runtime
 * knows what a link points to, the message names the canonical zone.
 */
export function checkTimezone(timezone: string): string {
  if (CANONICAL_TIME_ZONES.has(timezone)) return timezone;
  let hint = "";
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: timezone }).resolvedOptions().timeZone;
    if (resolved !== timezone && CANONICAL_TIME_ZONES.has(resolved)) hint = ` Did you mean ${resolved}?`;
  } catch {
    // Not a zone the runtime knows either: no hint.
  }
  throw new AppError("INVALID_TIMEZONE", `Unknown time zone; use a canonical IANA name such as America/New_York or Etc/UTC.${hint}`);
}

/** POST /api/accounts. The Free-plan cap applies only with FEATURE_GATING on, to non-admin Free users. */
export async function createAccount(deps: Pick<Deps, "db" | "config" | "analytics">, user: AuthUser, input: NewAccount): Promise<Account> {
  const timezone = checkTimezone(input.timezone ?? DEFAULT_TIMEZONE);
  const cap = isPlanCapped(deps.config, user) ? FREE_PLAN_LIMITS.accounts : null;
  const openingAt = input.startingBalanceAt ? new Date(input.startingBalanceAt).toISOString() : null;
  let rows: AccountRow[];
  try {
    rows = rowsOf<AccountRow>(
      await deps.db.execute(sql`
        select ${accountColumns("a", sql.raw("a.starting_balance::text"), sql`null::text`)}
        from account_create(${user.id}::uuid, ${input.name}, ${input.currency}, ${input.startingBalance ?? "0"}::numeric,
                            ${timezone}, ${input.brokerageId ?? null}::uuid, ${cap}::integer,
                            ${openingAt}::timestamptz) a`),
    );
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === RAISED_EXCEPTION && pg.message === "TIER_LIMIT_ACCOUNTS") {
      track(deps, "tier limit hit", user.id, { limit: "accounts" });
      throw new AppError(
        "TIER_LIMIT_ACCOUNTS",
        `The Free plan includes ${FREE_PLAN_LIMITS.accounts} account${FREE_PLAN_LIMITS.accounts === 1 ? "" : "s"}. Upgrade to Pro for more.`,
      );
    }
    if (pg?.code === RAISED_EXCEPTION && pg.message === "FORBIDDEN_BROKERAGE") throw foreignBrokerage();
    // The brokerage was deleted between the function's check and the commit.
    if (pg?.code === FOREIGN_KEY_VIOLATION && input.brokerageId) throw foreignBrokerage();
    if (isUniqueViolation(err, "accounts_user_name_idx")) throw duplicateName();
    throw err;
  }
  // A new account's balance is its starting balance (the opening entry, when there is one). The statement
  // cannot read the opening entry it writes: its date is the one account_create gave it.
  const row = rows[0]!;
  track(deps, "account created", user.id, { currency: input.currency, hasBrokerage: Boolean(input.brokerageId) });
  return toAccount({ ...row, starting_balance_at: /^[+-]?0*(\.0*)?$/.test(row.starting_balance) ? null : (openingAt ?? row.created_at) });
}

/** The user's accounts, oldest first. */
export async function listAccounts(deps: Pick<Deps, "db">, user: AuthUser): Promise<Account[]> {
  const rows = rowsOf<AccountRow>(
    await deps.db.execute(sql`
      select ${withBalance} from accounts a ${LAST_BALANCE}
      where a.user_id = ${user.id}::uuid
      order by a.created_at, a.id`),
  );
  return rows.map(toAccount);
}

export async function getAccount(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<Account> {
  const rows = rowsOf<AccountRow>(
    await deps.db.execute(sql`
      select ${withBalance} from accounts a ${LAST_BALANCE}
      where a.id = ${id}::uuid and a.user_id = ${user.id}::uuid`),
  );
  if (!rows[0]) throw notFound();
  return toAccount(rows[0]);
}

/** The user's account (id, zone and currency), or 404 NOT_FOUND: another user's account looks like no account. */
/**
 * The user's account, or NOT_FOUND. `alongside`: an expression evaluated in the same statement once the
 * account is found (the statistics settle their notes with the lookup, in one round trip).
 */
export async function requireOwnAccount(
  deps: Pick<Deps, "db">,
  user: Pick<AuthUser, "id">,
  accountId: string,
  alongside?: SQL,
): Promise<{ id: string; timezone: string; currency: string; alongside?: unknown }> {
  const [account] = rowsOf<{ id: string; timezone: string; currency: string; alongside?: unknown }>(
    await deps.db.execute(
      sql`select id::text as id, timezone, currency ${alongside ? sql`, ${alongside} as alongside` : sql``} from accounts where id = ${accountId}::uuid and user_id = ${user.id}::uuid`,
    ),
  );
  if (!account) throw new AppError("NOT_FOUND", "No such account.");
  return account;
}

async function accountExists(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<boolean> {
  const rows = rowsOf(await deps.db.execute(sql`select 1 from accounts where id = ${id}::uuid and user_id = ${user.id}::uuid`));
  return rows.length > 0;
}

/** What account_date_opening raises, as the field's validation error. */
function openingDateError(err: unknown): AppError | undefined {
  const pg = pgError(err);
  if (pg?.code !== RAISED_EXCEPTION) return undefined;
  const field = (message: string) =>
    new AppError("VALIDATION_ERROR", `startingBalanceAt ${message}.`, { fields: [{ path: "startingBalanceAt", message }] });
  if (pg.message === "NO_OPENING_ENTRY") return field("needs a starting balance, and this account has none");
  if (pg.message === "OPENING_AFTER_HISTORY") return field(`must be before the account's oldest ledger entry (${pg.detail ?? "its first fill or deposit"})`);
  return undefined;
}

/**
 * PATCH: name, timezone, brokerage and the opening entry's date (account_date_opening, which keeps it the
 * oldest entry and renumbers the ledger). One statement, so a refused date changes nothing else and a
 * refused name leaves the date as it was. startingBalance and currency are refused by the schema.
 */
export async function updateAccount(deps: Pick<Deps, "db">, user: AuthUser, id: string, patch: AccountPatch): Promise<Account> {
  const sets: SQL[] = [];
  if (patch.name !== undefined) sets.push(sql`name = ${patch.name}`);
  if (patch.timezone !== undefined) sets.push(sql`timezone = ${checkTimezone(patch.timezone)}`);
  if (patch.brokerageId !== undefined) sets.push(sql`brokerage_id = ${patch.brokerageId}::uuid`);
  if (patch.defaultRisk !== undefined) sets.push(sql`default_risk = ${patch.defaultRisk}::numeric`);
  if (patch.taxStatus !== undefined) sets.push(sql`tax_status = ${patch.taxStatus}`);
  if (patch.feeSchedule !== undefined) sets.push(sql`fee_schedule = ${patch.feeSchedule === null ? null : JSON.stringify(patch.feeSchedule)}::jsonb`);
  const dated = patch.startingBalanceAt !== undefined;
  if (sets.length === 0 && !dated) return getAccount(deps, user, id);
  const brokerageOwned = patch.brokerageId
    ? sql`exists (select 1 from brokerages b where b.id = ${patch.brokerageId}::uuid and b.user_id = ${user.id}::uuid)`
    : sql`true`;
  let rows: AccountRow[];
  try {
    rows = rowsOf<AccountRow>(
      await deps.db.execute(sql`
        with ${dated ? sql`dated as (select account_date_opening(${user.id}::uuid, ${id}::uuid, ${new Date(patch.startingBalanceAt!).toISOString()}::timestamptz)),` : sql``}
        a as (
          update accounts set ${sql.join([...sets, sql`updated_at = now()`], sql`, `)}
          where id = ${id}::uuid and user_id = ${user.id}::uuid and ${brokerageOwned}
            ${dated ? sql`and exists (select 1 from dated)` : sql``}
          returning *
        )
        select ${withBalance} from a ${LAST_BALANCE}`),
    );
  } catch (err) {
    if (isUniqueViolation(err, "accounts_user_name_idx")) throw duplicateName();
    if (pgError(err)?.code === FOREIGN_KEY_VIOLATION && patch.brokerageId) throw foreignBrokerage();
    throw openingDateError(err) ?? err;
  }
  // The statement's own read does not see the ledger the date changed: read the account again.
  if (rows[0]) return dated ? getAccount(deps, user, id) : toAccount(rows[0]);
  // Nothing updated: either the account is not theirs (404 first) or the brokerage is not.
  if (!(await accountExists(deps, user, id))) throw notFound();
  throw foreignBrokerage();
}

/**
 * DELETE. An account with ledger history beyond its opening entry is deleted only when the caller
 * confirms it (`?confirm=delete-history`); the account, its ledger and everything hanging off it go
 * together (ON DELETE CASCADE).
 */
export async function deleteAccount(
  deps: Pick<Deps, "db" | "storage" | "log" | "defer">,
  user: AuthUser,
  id: string,
  options: { confirm?: string | undefined } = {},
): Promise<void> {
  const confirmed = options.confirm === DELETE_HISTORY_CONFIRMATION;
  const rows = rowsOf(
    await deps.db.execute(sql`
      delete from accounts a
      where a.id = ${id}::uuid and a.user_id = ${user.id}::uuid
        and (${sql.raw(confirmed ? "true" : "false")} or not exists (
          select 1 from ledger_entries le where le.account_id = a.id and le.type <> 'opening'
        ))
      returning a.id`),
  );
  if (rows.length > 0) {
    // Its screenshots and staged previews in object storage were queued by the cascade; remove them now
    // (the purge job retries what fails).
    if (deps.storage) deps.defer(() => drainObjectDeletions(deps));
    return;
  }
  if (!(await accountExists(deps, user, id))) throw notFound();
  throw new AppError(
    "CONFLICT",
    `This account has ledger history (deposits, withdrawals or fills); deleting it deletes that history too. ` +
      `To go ahead, repeat the request with ?confirm=${DELETE_HISTORY_CONFIRMATION}.`,
  );
}
