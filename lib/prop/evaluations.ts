// An account's prop-firm evaluation (DESIGN.md section 11, docs/prop-firms.md): its rules kept per account,
// and its status run over the account's fills from the evaluation's first trading day (lib/prop/engine.ts).
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { addDays } from "../time/zoned.ts";
import { requireOwnAccount } from "../accounts/accounts.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal, fromUnits, toUnits } from "../money.ts";
import { isIntraday, runEvaluation, tradingDayStart, type EngineState, type PropBar, type PropFill, type PropRules } from "./engine.ts";
import type { EvaluationBody, ReplayBody } from "./schema.ts";

export type Evaluation = { accountId: string; firm: string; phase: "evaluation" | "funded"; startDate: string } & PropRules;

type Row = { account_id: string; firm: string; phase: "evaluation" | "funded"; start_date: string; rules: PropRules | string };

const toEvaluation = (r: Row): Evaluation => {
  const rules = typeof r.rules === "string" ? (JSON.parse(r.rules) as PropRules) : r.rules;
  return { accountId: r.account_id, firm: r.firm, phase: r.phase, startDate: r.start_date, ...rules };
};

/** The rules as kept: amounts in output form, floorLocksAt null when not given. */
function rulesOf(body: ReplayBody["rules"]): PropRules {
  const dec = (v: string | null) => (v === null ? null : formatDecimal(v));
  return {
    startingBalance: formatDecimal(body.startingBalance),
    profitTarget: dec(body.profitTarget),
    maxDrawdown: formatDecimal(body.maxDrawdown),
    drawdownMode: body.drawdownMode,
    dailyLossLimit: dec(body.dailyLossLimit),
    dailyLossIncludesOpen: body.dailyLossIncludesOpen,
    dayStartsAt: body.dayStartsAt,
    dayZone: body.dayZone,
    minTradingDays: body.minTradingDays,
    consistencyPct: body.consistencyPct,
    maxContracts: body.maxContracts,
    floorLocksAt: dec(body.floorLocksAt ?? null),
    dailyLossFrom: body.dailyLossFrom ?? "balance",
    drawdownOn: body.drawdownOn ?? "balance",
    dailyLossSoft: body.dailyLossSoft ?? false,
    minDayProfitPct: body.minDayProfitPct ?? null,
  };
}

/** PUT /api/accounts/:id/evaluation: sets (or replaces) the account's evaluation. */
export async function putEvaluation(deps: Pick<Deps, "db">, user: AuthUser, accountId: string, body: EvaluationBody): Promise<{ evaluation: Evaluation }> {
  const account = await requireOwnAccount(deps, user, accountId);
  if (body.currency && body.currency.toUpperCase() !== account.currency) {
    throw new AppError("VALIDATION_ERROR", `These rules are in ${body.currency.toUpperCase()}; the account is in ${account.currency}.`, {
      fields: [{ path: "currency", message: `must be the account's currency (${account.currency})` }],
    });
  }
  const [row] = rowsOf<Row>(
    await deps.db.execute(sql`insert into prop_evaluations (account_id, user_id, firm, phase, start_date, rules)
      values (${accountId}::uuid, ${user.id}::uuid, ${body.firm}, ${body.phase}, ${body.startDate}::date, ${JSON.stringify(rulesOf(body))}::jsonb)
      on conflict (account_id) do update set firm = excluded.firm, phase = excluded.phase, start_date = excluded.start_date, rules = excluded.rules,
        state = null, through_at = null, through_id = null, state_v = prop_evaluations.state_v + 1, updated_at = now()
      returning account_id::text as account_id, firm, phase, to_char(start_date, 'YYYY-MM-DD') as start_date, rules`),
  );
  return { evaluation: toEvaluation(row!) };
}

/** The rules of the account's evaluation (404 when it has none). */
export async function evaluationRules(deps: Pick<Deps, "db">, user: AuthUser, accountId: string): Promise<PropRules> {
  const { accountId: _account, firm: _firm, phase: _phase, startDate: _start, ...rules } = (await evaluationOf(deps, user, accountId)).evaluation;
  return rules;
}

async function evaluationOf(deps: Pick<Deps, "db">, user: AuthUser, accountId: string): Promise<{ evaluation: Evaluation; kept: Kept }> {
  const [row] = rowsOf<Row & Kept & { mine: boolean }>(
    await deps.db.execute(sql`select a.user_id = ${user.id}::uuid as mine, e.account_id::text as account_id, e.firm, e.phase,
        to_char(e.start_date, 'YYYY-MM-DD') as start_date, e.rules, e.state, e.through_at::text as through_at, e.through_id::text as through_id,
        e.state_v::text as state_v
      from accounts a left join prop_evaluations e on e.account_id = a.id where a.id = ${accountId}::uuid`),
  );
  if (!row?.mine) throw new AppError("NOT_FOUND", "No such account.");
  if (!row.account_id) throw new AppError("NOT_FOUND", "This account has no evaluation.");
  return { evaluation: toEvaluation(row), kept: row };
}

type FillRow = PropFill & { at_exact: string };

/** The account's fills in [from, to), after (at, id) when given, in time order, as the engine takes them. */
async function fillsBetween(deps: Pick<Deps, "db">, accountId: string, from: Date, to: Date | null, after?: { at: string; id: string }): Promise<FillRow[]> {
  return rowsOf<FillRow>(
    await deps.db.execute(sql`select id::text as id, ${sql.raw(isoUtc("executed_at"))} as at, executed_at::text as at_exact, symbol, side,
        quantity::text as quantity, price::text as price, fees::text as fees, multiplier::text as multiplier
      from fills where account_id = ${accountId}::uuid and executed_at >= ${from.toISOString()}::timestamptz
        ${to ? sql`and executed_at < ${to.toISOString()}::timestamptz` : sql``}
        ${after ? sql`and (executed_at, id) > (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
      order by executed_at, id`),
  );
}

/**
 * The user's 1-minute bars of the symbols of `fills` from `from` on (after `after` when given), for the
 * intraday drawdown modes: each as the engine takes it, at its start, leaving out every bar whose minute holds
 * a fill of its symbol (within the minute, the fill's place among the prices is unknown). Futures and stocks
 * only: an option has no bars (lib/market/bars.ts).
 */
async function barsFor(deps: Pick<Deps, "db">, userId: string, fills: readonly PropFill[], from: Date, to: Date | null, after?: string): Promise<PropBar[]> {
  const symbols = [...new Set(fills.map((f) => f.symbol))].filter((s) => !/\d{6}[CP]\d{8}$/.test(s));
  if (symbols.length === 0) return [];
  const minutesWithFills = new Set(fills.map((f) => `${f.symbol} ${Math.floor(Date.parse(f.at) / 60_000)}`));
  const rows = rowsOf<PropBar>(
    await deps.db.execute(sql`select ${sql.raw(isoUtc("t"))} as at, symbol, high::text as high, low::text as low, close::text as close
      from bars where user_id = ${userId}::uuid and resolution = '1m' and symbol = any(${`{${symbols.join(",")}}`}::text[])
        and t >= ${from.toISOString()}::timestamptz ${to ? sql`and t < ${to.toISOString()}::timestamptz` : sql``}
        ${after ? sql`and t > ${after}::timestamptz` : sql``}
      order by t`),
  );
  return rows.filter((b) => !minutesWithFills.has(`${b.symbol} ${Math.floor(Date.parse(b.at) / 60_000)}`));
}


type Kept = { state: EngineState | string | null; through_at: string | null; through_id: string | null; state_v: string };

/**
 * GET /api/accounts/:id/evaluation: the rules and the status now, over the account's fills since the start:
 * from the state kept after the fills already run (prop_evaluations.state), the fills after it only; the
 * state is kept again when fills were run.
 */
export async function getEvaluation(deps: Pick<Deps, "db" | "now">, user: AuthUser, accountId: string) {
  const { evaluation, kept } = await evaluationOf(deps, user, accountId);
  const resume = kept.state && kept.through_at && kept.through_id
    ? { state: typeof kept.state === "string" ? (JSON.parse(kept.state) as EngineState) : kept.state, at: kept.through_at, id: kept.through_id }
    : null;
  const from = tradingDayStart(evaluation.startDate, evaluation);
  const fills = await fillsBetween(deps, accountId, from, null, resume ?? undefined);
  const last = fills.at(-1);
  // The intraday modes read the bars too: up to the last fill with the fills (the state kept there), and after
  // it on top of that state, not kept (a fill imported later into that stretch would come before them).
  const bars = isIntraday(evaluation) ? await barsFor(deps, user.id, fills, from, null, resume?.at) : [];
  const cut = last ? Date.parse(last.at) : Number.NEGATIVE_INFINITY;
  const run = runEvaluation(evaluation, fills, bars.filter((b) => Date.parse(b.at) < cut), deps.now(), resume?.state);
  const state = run.state;
  const after = bars.filter((b) => Date.parse(b.at) >= cut);
  const { status } = after.length ? runEvaluation(evaluation, [], after, deps.now(), state) : run;
  if (last) {
    // Kept only if no fill of the account was written meanwhile (prop_state_follow raises state_v): one
    // written before the last fill read would be missing from the state.
    await deps.db.execute(sql`update prop_evaluations set state = ${JSON.stringify(state)}::jsonb, through_at = ${last.at_exact}::timestamptz, through_id = ${last.id}::uuid
      where account_id = ${accountId}::uuid and state_v = ${kept.state_v}::bigint`);
  }
  return { evaluation, status };
}

/**
 * POST /api/prop-firms/replay: the account's own fills of the trading days from `from` to `to` under these
 * rules, as if an evaluation had started on `from`: day by day, the day it would have passed, the day and
 * rule it would have breached, and the status at the end.
 */
export async function replayEvaluation(deps: Pick<Deps, "db">, user: AuthUser, body: ReplayBody) {
  await requireOwnAccount(deps, user, body.accountId);
  const rules = rulesOf(body.rules);
  const end = tradingDayStart(addDays(body.to, 1), rules);
  const start = tradingDayStart(body.from, rules);
  const fills = await fillsBetween(deps, body.accountId, start, end);
  const bars = isIntraday(rules) ? await barsFor(deps, user.id, fills, start, end) : [];
  // At the window's end: its last day is over.
  const { status, days, passedOn } = runEvaluation(rules, fills, bars, end);
  const breached = days.find((d) => d.breached !== null);
  return {
    accountId: body.accountId,
    from: body.from,
    to: body.to,
    rules,
    passedOn,
    breachedOn: breached?.day ?? null,
    breachRule: breached?.breached ?? null,
    status,
    days,
  };
}



/** DELETE /api/accounts/:id/evaluation. */
export async function deleteEvaluation(deps: Pick<Deps, "db">, user: AuthUser, accountId: string): Promise<void> {
  await requireOwnAccount(deps, user, accountId);
  const gone = rowsOf(await deps.db.execute(sql`delete from prop_evaluations where account_id = ${accountId}::uuid returning 1`));
  if (gone.length === 0) throw new AppError("NOT_FOUND", "This account has no evaluation.");
}

type SummaryRow = { account_id: string; name: string; currency: string; firm: string | null; phase: "evaluation" | "funded" | null; fees: string; payouts: string };

/** The net cash over the fees as a ratio, 4 decimals (null without fees). */
function roiOf(fees: bigint, payouts: bigint): string | null {
  if (fees === 0n) return null;
  const net = payouts - fees;
  // Rounded half away from zero to 4 decimals.
  const scaled = (net * 20_000n) / fees;
  const rounded = (scaled + (scaled >= 0n ? 1n : -1n)) / 2n;
  const sign = rounded < 0n ? "-" : "";
  const abs = rounded < 0n ? -rounded : rounded;
  return `${sign}${abs / 10_000n}.${String(abs % 10_000n).padStart(4, "0")}`;
}

/**
 * GET /api/prop-firms/summary: per account with an evaluation or a prop firm's fee or payout, and in total per
 * currency: the fees paid, the payouts received, the net cash and its return on the fees. Only cash counts: an
 * account's trading P&L is the firm's money, so a breached account counts its fees (and any payout it had paid
 * before), never its balance.
 */
export async function propSummary(deps: Pick<Deps, "db" | "now">, user: AuthUser) {
  const rows = rowsOf<SummaryRow>(
    await deps.db.execute(sql`select a.id::text as account_id, a.name, a.currency, e.firm, e.phase,
        coalesce(-sum(l.amount) filter (where l.type = 'prop_fee'), 0)::text as fees, coalesce(-sum(l.amount) filter (where l.type = 'payout'), 0)::text as payouts
      from accounts a left join prop_evaluations e on e.account_id = a.id
        left join ledger_entries l on l.account_id = a.id and l.type in ('prop_fee', 'payout')
      where a.user_id = ${user.id}::uuid
      group by a.id, e.account_id
      having e.account_id is not null or count(l.id) > 0
      order by a.name, a.id`),
  );
  const accounts = [];
  const totals = new Map<string, { fees: bigint; payouts: bigint; accounts: number }>();
  for (const r of rows) {
    const [fees, payouts] = [toUnits(r.fees), toUnits(r.payouts)];
    const status = r.firm === null ? null : (await getEvaluation(deps, user, r.account_id)).status;
    accounts.push({
      accountId: r.account_id,
      name: r.name,
      currency: r.currency,
      firm: r.firm,
      phase: r.phase,
      state: status?.state ?? null,
      distanceToFloor: status?.distanceToFloor ?? null,
      profitToTarget: status?.profitToTarget ?? null,
      feesPaid: fromUnits(fees),
      payoutsReceived: fromUnits(payouts),
      netCash: fromUnits(payouts - fees),
      roi: roiOf(fees, payouts),
    });
    const t = totals.get(r.currency) ?? { fees: 0n, payouts: 0n, accounts: 0 };
    t.fees += fees;
    t.payouts += payouts;
    t.accounts += 1;
    totals.set(r.currency, t);
  }
  return {
    accounts,
    // Per currency: amounts are never added across currencies.
    totals: [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, t]) => ({
      currency,
      accounts: t.accounts,
      feesPaid: fromUnits(t.fees),
      payoutsReceived: fromUnits(t.payouts),
      netCash: fromUnits(t.payouts - t.fees),
      roi: roiOf(t.fees, t.payouts),
    })),
  };
}
