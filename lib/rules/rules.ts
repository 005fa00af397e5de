// Trading rules (docs/discipline.md, "Trading rules"): limits a trader sets on an account (max daily loss,
// max loss per trade, max trades a day, max risk per trade, min planned reward-to-risk, weekdays off, trading
// hours, a cooldown after a loss), each with a weight in the compliance score (lib/rules/compliance.ts).
// Rules are scored after the fact; they never block a fill.
import { sql } from "drizzle-orm";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal } from "../money.ts";
import { WEIGHTS, type NewRule, type RuleParams, type RulePatch, type Weight } from "./schema.ts";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const WEIGHT_NAMES = Object.fromEntries(Object.entries(WEIGHTS).map(([k, v]) => [v, k])) as Record<number, Weight>;

/** The rule in words, e.g. "Max daily loss: 500.00 USD". */
export function ruleLabel(rule: RuleParams, currency: string): string {
  switch (rule.type) {
    case "max_daily_loss":
      return `Max daily loss: ${formatDecimal(rule.amount)} ${currency}`;
    case "max_loss_per_trade":
      return rule.r !== undefined ? `Max loss per trade: ${formatDecimal(rule.r)} R` : `Max loss per trade: ${formatDecimal(rule.amount!)} ${currency}`;
    case "max_trades_per_day":
      return `At most ${rule.count} ${rule.count === 1 ? "trade" : "trades"} a day`;
    case "max_risk_per_trade":
      return `Max risk per trade (1R): ${formatDecimal(rule.amount)} ${currency}`;
    case "min_planned_rr":
      return `Planned reward at least ${formatDecimal(rule.ratio)} R`;
    case "no_trading_weekdays":
      return `No trading on ${[...rule.weekdays].sort().map((d) => WEEKDAYS[d - 1]).join(", ")}`;
    case "trading_hours":
      return `Open trades only from ${rule.from} to ${rule.to}`;
    case "cooldown_after_loss":
      return `Wait ${rule.minutes} ${rule.minutes === 1 ? "minute" : "minutes"} after a losing trade`;
  }
}

type RuleRow = { id: string; account_id: string; currency: string; params: RuleParams | string; weight: number; enabled: boolean; created_at: string; updated_at: string };

const columns = sql.raw(`r.id::text as id, r.account_id::text as account_id, a.currency, r.params::text as params, r.weight::int as weight,
  r.enabled, ${isoUtc("r.created_at")} as created_at, ${isoUtc("r.updated_at")} as updated_at`);

function toRule(r: RuleRow) {
  const rule = typeof r.params === "string" ? (JSON.parse(r.params) as RuleParams) : r.params;
  return {
    id: r.id,
    accountId: r.account_id,
    rule,
    label: ruleLabel(rule, r.currency),
    weight: WEIGHT_NAMES[r.weight]!,
    enabled: r.enabled,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
export type Rule = ReturnType<typeof toRule>;

const NO_RULE = () => new AppError("NOT_FOUND", "No such rule.");

/** An account's rules, oldest first (only those turned on with `enabledOnly`); no ownership check. */
export async function rulesOfAccount(deps: Pick<Deps, "db">, accountId: string, enabledOnly = false): Promise<Rule[]> {
  const rows = rowsOf<RuleRow>(
    await deps.db.execute(sql`select ${columns} from trading_rules r join accounts a on a.id = r.account_id
      where r.account_id = ${accountId} ${enabledOnly ? sql`and r.enabled` : sql``} order by r.created_at, r.id`),
  );
  return rows.map(toRule);
}

export async function listRules(deps: Pick<Deps, "db">, user: AuthUser, accountId: string) {
  await requireOwnAccount(deps, user, accountId);
  return { rules: await rulesOfAccount(deps, accountId) };
}

/** At most this many rules per account. */
export const MAX_RULES = 50;

/** A written rule read back with its account's currency (for its label). */
const readBack = (write: ReturnType<typeof sql>) => sql`with r as (${write}) select ${columns} from r join accounts a on a.id = r.account_id`;

export async function createRule(deps: Pick<Deps, "db">, user: AuthUser, body: NewRule): Promise<Rule> {
  const { accountId } = body;
  await requireOwnAccount(deps, user, accountId);
  const [row] = rowsOf<RuleRow>(
    await deps.db.execute(
      readBack(sql`insert into trading_rules (account_id, type, params, weight)
        select ${accountId}, ${body.rule.type}, ${JSON.stringify(body.rule)}::jsonb, ${WEIGHTS[body.weight]}
        where (select count(*) from trading_rules where account_id = ${accountId}) < ${MAX_RULES}
        returning *`),
    ),
  );
  if (!row) throw new AppError("CONFLICT", `An account holds at most ${MAX_RULES} rules.`);
  return toRule(row);
}

export async function updateRule(deps: Pick<Deps, "db">, user: AuthUser, ruleId: string, patch: RulePatch): Promise<Rule> {
  const set = [
    patch.rule !== undefined ? sql`type = ${patch.rule.type}, params = ${JSON.stringify(patch.rule)}::jsonb` : undefined,
    patch.weight !== undefined ? sql`weight = ${WEIGHTS[patch.weight]}` : undefined,
    patch.enabled !== undefined ? sql`enabled = ${patch.enabled}` : undefined,
    sql`updated_at = now()`,
  ].filter((x) => x !== undefined);
  const [row] = rowsOf<RuleRow>(
    await deps.db.execute(
      readBack(sql`update trading_rules set ${sql.join(set, sql`, `)} where id = ${ruleId}
        and account_id in (select id from accounts where user_id = ${user.id}) returning *`),
    ),
  );
  if (!row) throw NO_RULE();
  return toRule(row);
}

export async function deleteRule(deps: Pick<Deps, "db">, user: AuthUser, ruleId: string): Promise<void> {
  const rows = rowsOf(
    await deps.db.execute(sql`delete from trading_rules where id = ${ruleId} and account_id in (select id from accounts where user_id = ${user.id}) returning 1`),
  );
  if (rows.length === 0) throw NO_RULE();
}
