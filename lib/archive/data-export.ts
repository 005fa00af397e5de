// The whole-account JSON export and its import (docs/accounts.md, "Your data as JSON"): everything a trader
// entered or imported, in one documented file that a fresh instance (or this one) takes back. Trades are
// not stored in the file: they are rebuilt from the fills, and their journal fields (notes, tags, setup,
// rating, the plan: stop, target, planned risk, and the playbook with its answers) are matched to them by the
// fill that opened them. The trader's stock splits travel with the file (they change how the fills make
// trades), and so do their playbooks, their tags' kinds, and each account's daily journal and trading rules. Screenshots are not included. Fields
// added after version 1 shipped are optional, so older files still read.
import * as z from "zod/mini";
import { sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { NUMERIC_OUT_OF_RANGE, pgError, RAISED_EXCEPTION } from "../db/errors.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError, validationError } from "../errors.ts";
import { DecimalStringSchema, MAX_FRACTION_DIGITS, MAX_INTEGER_DIGITS, multiplyUnits, toUnits } from "../money.ts";
import { FeeScheduleSchema } from "../accounts/fees.ts";
import { refuseOtherCurrency } from "../trades/fills.ts";
import { resolveInstrument } from "../instruments/instruments.ts";
import { textProblems } from "../text.ts";
import { dateTimeSchema } from "../time/range.ts";
import { isPlanCapped, FREE_PLAN_LIMITS } from "../auth/plan.ts";
import { checkTimezone } from "../accounts/accounts.ts";
import { CurrencySchema, NameSchema } from "../accounts/schema.ts";
import { daySchema } from "../days/schema.ts";
import { MAX_ITEMS, NewPlaybookSchema, PlaybookAnswersSchema, PlaybookItemSchema } from "../playbooks/schema.ts";
import { MAX_RULES } from "../rules/rules.ts";
import { RuleParamsSchema } from "../rules/schema.ts";
import { settleStrategies } from "../options/settle.ts";
import { TagListSchema, TagSchema } from "../tags/tag.ts";
import { tagSpellings } from "../tags/tags.ts";
import { MANUAL_TYPES, OUTGOING_TYPES } from "../ledger/schema.ts";

export const EXPORT_FORMAT = "trading-journal-export";
export const EXPORT_VERSION = 1;
/** Largest file the import reads. */
export const DATA_IMPORT_MAX_BYTES = 25 * 1024 * 1024;

const ref = () => z.string().check(z.minLength(1, "must not be empty"), z.maxLength(64, "is too long"));
const decimal = () => DecimalStringSchema;
const positive = (what: string) => DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-") && !/^[+]?0+(\.0+)?$/.test(v), `${what} must be greater than zero`));
const nonNegative = () => DecimalStringSchema.check(z.refine((v: string) => !v.startsWith("-"), "must not be negative"));
const note = () => z.nullable(z.string().check(z.maxLength(20_000, "is too long")));

const FillSchema = z.strictObject({
  ref: ref(),
  symbol: z.string().check(z.minLength(1, "is required"), z.maxLength(40, "is too long")),
  assetClass: z.enum(["stock", "option", "future"], { error: "must be stock, option or future" }),
  multiplier: positive("multiplier"),
  side: z.enum(["buy", "sell"], { error: "must be buy or sell" }),
  quantity: positive("quantity"),
  price: nonNegative(),
  fees: nonNegative(),
  executedAt: dateTimeSchema(),
  executionId: z.nullable(z.string().check(z.minLength(1, "must not be empty"), z.maxLength(100, "is too long"))),
  /** The broker's order it belongs to (its legs make one option strategy). */
  orderId: z.optional(z.nullable(z.string().check(z.minLength(1, "must not be empty"), z.maxLength(100, "is too long")))),
  /** The fee came from the account's fee schedule, not from the broker. */
  feesEstimated: z.optional(z.boolean()),
  /** The journal wrote it: "expiry" closes an option after its expiry. */
  generated: z.optional(z.nullable(z.literal("expiry"))),
});

const EntrySchema = z.strictObject({
  type: z.enum(MANUAL_TYPES, { error: `must be one of ${MANUAL_TYPES.join(", ")}` }),
  amount: decimal(),
  occurredAt: dateTimeSchema(),
  note: note(),
});

const JournalSchema = z.strictObject({
  openFill: ref(),
  notes: note(),
  tags: TagListSchema,
  setup: z.nullable(z.string().check(z.maxLength(100, "is too long"))),
  rating: z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(5))),
  stopPrice: z.optional(z.nullable(nonNegative())),
  targetPrice: z.optional(z.nullable(nonNegative())),
  plannedRisk: z.optional(z.nullable(positive("plannedRisk"))),
  /** The ref of a playbook of the file, and the answers to its checklist by item id. */
  playbook: z.optional(z.nullable(ref())),
  playbookAnswers: z.optional(PlaybookAnswersSchema),
});

/**
 * An option strategy the settle would not make again by itself (docs/options.md): one grouped by hand, or one with
 * something written on it. Its legs are the refs of the fills that open its trades.
 */
const StrategyFileSchema = z.strictObject({
  ref: ref(),
  underlying: z.string().check(z.minLength(1, "is required"), z.maxLength(12, "is too long")),
  source: z.enum(["auto", "manual"], { error: "must be auto or manual" }),
  legs: z.array(ref()).check(z.maxLength(100, "has more than 100 legs")),
  notes: note(),
  tags: TagListSchema,
  setup: z.nullable(z.string().check(z.maxLength(100, "is too long"))),
  rating: z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(5))),
  plannedRisk: z.nullable(positive("plannedRisk")),
  playbook: z.nullable(ref()),
});

const PlaybookFileSchema = z.strictObject({
  ref: ref(),
  name: NewPlaybookSchema.shape.name,
  description: z.nullable(z.string().check(z.maxLength(5000, "is too long"))),
  entryCriteria: z.nullable(z.string().check(z.maxLength(5000, "is too long"))),
  exitCriteria: z.nullable(z.string().check(z.maxLength(5000, "is too long"))),
  items: z.array(PlaybookItemSchema).check(z.maxLength(MAX_ITEMS, `has more than ${MAX_ITEMS} items`)),
  archived: z.boolean(),
});

const DaySchema = z.strictObject({
  day: daySchema(),
  plan: note(),
  review: note(),
  mood: z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(5))),
  tags: TagListSchema,
});

const AccountSchema = z.strictObject({
  name: NameSchema,
  currency: CurrencySchema,
  timezone: z.string().check(z.maxLength(100)),
  brokerage: z.nullable(ref()),
  startingBalance: decimal(),
  startingBalanceAt: z.nullable(dateTimeSchema()),
  ledger: z.array(EntrySchema),
  fills: z.array(FillSchema),
  journal: z.array(JournalSchema),
  defaultRisk: z.optional(z.nullable(positive("defaultRisk"))),
  feeSchedule: z.optional(z.nullable(FeeScheduleSchema)),
  /** For tax (docs/tax.md); taxable when absent (a file from before it). */
  taxStatus: z.optional(z.enum(["taxable", "ira", "exempt"])),
  /** Options the trader keeps open past their expiry (they deleted the journal's closing fill). */
  expiryKept: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(40, "is too long"))).check(z.maxLength(100_000))),
  /** The daily journal: one entry per trading day. */
  days: z.optional(z.array(DaySchema).check(z.maxLength(100_000))),
  /** Option strategies grouped by hand or written on. */
  strategies: z.optional(z.array(StrategyFileSchema).check(z.maxLength(100_000))),
  /** The account's trading rules. */
  rules: z.optional(
    z.array(z.strictObject({ rule: RuleParamsSchema, weight: z.enum(["critical", "important", "nice"], { error: "must be critical, important or nice" }), enabled: z.boolean() })).check(
      z.maxLength(MAX_RULES, `has more than ${MAX_RULES} rules`),
    ),
  ),
});

const SplitSchema = z.strictObject({
  symbol: z.string().check(z.minLength(1, "is required"), z.maxLength(40, "is too long")),
  effectiveAt: dateTimeSchema(),
  newShares: positive("newShares"),
  oldShares: positive("oldShares"),
});

export const DataExportSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT, { error: `must be "${EXPORT_FORMAT}"` }),
  version: z.literal(EXPORT_VERSION, { error: `must be ${EXPORT_VERSION} (this instance reads version ${EXPORT_VERSION} files)` }),
  exportedAt: z.string(),
  brokerages: z.array(z.strictObject({ ref: ref(), name: NameSchema })),
  accounts: z.array(AccountSchema).check(z.maxLength(1000, "has more than 1000 accounts")),
  splits: z.optional(z.array(SplitSchema).check(z.maxLength(10_000, "has more than 10000 splits"))),
  playbooks: z.optional(z.array(PlaybookFileSchema).check(z.maxLength(1000, "has more than 1000 playbooks"))),
  /** What the trader's tags mean: setup, mistake or emotion. */
  tagKinds: z.optional(
    z.array(z.strictObject({ tag: TagSchema, kind: z.enum(["setup", "mistake", "emotion"], { error: "must be setup, mistake or emotion" }) })).check(
      z.maxLength(10_000, "has more than 10000 tags"),
    ),
  ),
});
export type DataExport = z.infer<typeof DataExportSchema>;

/** GET /api/auth/account/export: the user's brokerages and accounts with their ledgers, fills and journals. */
export async function exportUserData(deps: Pick<Deps, "db" | "now">, user: AuthUser): Promise<{ json: string; fileName: string }> {
  // The strategies' legs up to date with the trades first (docs/options.md).
  await settleStrategies(deps, user.id);
  const iso = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
  const [row] = rowsOf<{ json: string }>(
    await deps.db.execute(sql`
      select json_build_object(
        'format', ${EXPORT_FORMAT}::text, 'version', ${EXPORT_VERSION}::int, 'exportedAt', ${iso("now()")},
        'brokerages', coalesce((select json_agg(json_build_object('ref', b.id, 'name', b.name) order by b.created_at, b.id)
          from brokerages b where b.user_id = ${user.id}::uuid), '[]'::json),
        'accounts', coalesce((select json_agg(json_build_object(
            'name', a.name, 'currency', a.currency, 'timezone', a.timezone, 'brokerage', a.brokerage_id,
            'startingBalance', format_decimal(a.starting_balance),
            'startingBalanceAt', (select ${iso("o.occurred_at")} from ledger_entries o where o.account_id = a.id and o.type = 'opening' limit 1),
            'ledger', coalesce((select json_agg(json_build_object('type', l.type, 'amount', format_decimal(l.amount),
                'occurredAt', ${iso("l.occurred_at")}, 'note', l.note) order by l.occurred_at, l.id)
              from ledger_entries l where l.account_id = a.id and l.type in ('deposit', 'withdrawal', 'adjustment', 'prop_fee', 'payout')), '[]'::json),
            'fills', coalesce((select json_agg(json_build_object('ref', f.id, 'symbol', f.symbol, 'assetClass', f.asset_class,
                'multiplier', format_decimal(f.multiplier), 'side', f.side, 'quantity', format_decimal(f.quantity),
                'price', format_decimal(f.price), 'fees', format_decimal(f.fees), 'executedAt', ${iso("f.executed_at")},
                'executionId', f.execution_id, 'orderId', f.order_id, 'feesEstimated', f.fees_estimated, 'generated', f.generated) order by f.executed_at, f.id)
              from fills f where f.account_id = a.id), '[]'::json),
            'journal', coalesce((select json_agg(json_build_object('openFill', p.open_fill_id, 'notes', j.notes, 'tags', j.tags,
                'setup', j.setup, 'rating', j.rating, 'stopPrice', format_decimal(j.stop_price), 'targetPrice', format_decimal(j.target_price),
                'plannedRisk', format_decimal(j.planned_risk), 'playbook', j.playbook_id, 'playbookAnswers', j.playbook_answers) order by p.opened_at, p.id)
              from trade_journals j join positions p on p.id = j.position_id where j.account_id = a.id
                and (j.notes is not null or j.setup is not null or j.rating is not null or cardinality(j.tags) > 0
                  or j.stop_price is not null or j.target_price is not null or j.planned_risk is not null
                  or j.playbook_id is not null or j.playbook_answers <> '{}'::jsonb)), '[]'::json),
            'strategies', coalesce((select json_agg(json_build_object('ref', s.id, 'underlying', s.underlying, 'source', s.source,
                'legs', coalesce((select json_agg(l.fill_id order by l.executed_at, l.fill_id) from strategy_legs l join fills f on f.id = l.fill_id
                  where l.strategy_id = s.id), '[]'::json),
                'notes', s.notes, 'tags', s.tags, 'setup', s.setup, 'rating', s.rating, 'plannedRisk', format_decimal(s.planned_risk),
                'playbook', s.playbook_id) order by s.opened_at, s.id)
              from strategies s where s.account_id = a.id and (s.source = 'manual' or s.notes is not null or cardinality(s.tags) > 0
                or s.setup is not null or s.rating is not null or s.planned_risk is not null or s.playbook_id is not null)), '[]'::json),
            'days', coalesce((select json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'plan', d.plan, 'review', d.review,
                'mood', d.mood, 'tags', d.tags) order by d.day) from day_journals d where d.account_id = a.id), '[]'::json),
            'rules', coalesce((select json_agg(json_build_object('rule', r.params, 'weight', case r.weight when 3 then 'critical' when 2 then 'important' else 'nice' end,
                'enabled', r.enabled) order by r.created_at, r.id) from trading_rules r where r.account_id = a.id), '[]'::json),
            'defaultRisk', format_decimal(a.default_risk), 'feeSchedule', a.fee_schedule, 'taxStatus', a.tax_status,
            'expiryKept', coalesce((select json_agg(k.symbol order by k.symbol) from option_expiry_kept k where k.account_id = a.id), '[]'::json)
          ) order by a.created_at, a.id) from accounts a where a.user_id = ${user.id}::uuid), '[]'::json),
        'splits', coalesce((select json_agg(json_build_object('symbol', s.symbol, 'effectiveAt', ${iso("s.effective_at")},
            'newShares', format_decimal(s.new_shares), 'oldShares', format_decimal(s.old_shares)) order by s.effective_at, s.symbol)
          from splits s where s.user_id = ${user.id}::uuid), '[]'::json),
        'playbooks', coalesce((select json_agg(json_build_object('ref', b.id, 'name', b.name, 'description', b.description,
            'entryCriteria', b.entry_criteria, 'exitCriteria', b.exit_criteria, 'items', b.items, 'archived', b.archived_at is not null)
            order by b.created_at, b.id) from playbooks b where b.user_id = ${user.id}::uuid), '[]'::json),
        'tagKinds', coalesce((select json_agg(json_build_object('tag', k.tag, 'kind', k.kind) order by k.tag) from tag_kinds k where k.user_id = ${user.id}::uuid), '[]'::json)
      )::text as json`),
  );
  return { json: row!.json, fileName: `trading-journal-export-${deps.now().toISOString().slice(0, 10)}.json` };
}

/** The cross-references of a file the schema cannot see: every brokerage and opening fill named exists. */
function referenceProblems(data: DataExport): Array<{ path: PropertyKey[]; message: string }> {
  const problems: Array<{ path: PropertyKey[]; message: string }> = [];
  const brokerages = new Set(data.brokerages.map((b) => b.ref));
  if (brokerages.size < data.brokerages.length) problems.push({ path: ["brokerages"], message: "has two brokerages with the same ref" });
  const books = new Map((data.playbooks ?? []).map((b) => [b.ref, b]));
  if (books.size < (data.playbooks ?? []).length) problems.push({ path: ["playbooks"], message: "has two playbooks with the same ref" });
  (data.playbooks ?? []).forEach((b, i) =>
    b.items.forEach((item, k) => {
      if (!item.id) problems.push({ path: ["playbooks", i, "items", k, "id"], message: "is required" });
    }),
  );
  const names = new Set<string>();
  data.accounts.forEach((a, i) => {
    if (names.has(a.name.toLowerCase())) problems.push({ path: ["accounts", i, "name"], message: "is the name of another account in the file" });
    names.add(a.name.toLowerCase());
    if (a.brokerage !== null && !brokerages.has(a.brokerage)) problems.push({ path: ["accounts", i, "brokerage"], message: "names no brokerage in the file" });
    const fills = new Set(a.fills.map((f) => f.ref));
    if (fills.size < a.fills.length) problems.push({ path: ["accounts", i, "fills"], message: "has two fills with the same ref" });
    a.journal.forEach((j, k) => {
      if (!fills.has(j.openFill)) problems.push({ path: ["accounts", i, "journal", k, "openFill"], message: "names no fill of this account" });
      if (j.playbook && !books.has(j.playbook)) problems.push({ path: ["accounts", i, "journal", k, "playbook"], message: "names no playbook in the file" });
    });
    (a.strategies ?? []).forEach((st, k) => {
      st.legs.forEach((leg, n) => {
        if (!fills.has(leg)) problems.push({ path: ["accounts", i, "strategies", k, "legs", n], message: "names no fill of this account" });
      });
      if (st.playbook && !books.has(st.playbook)) problems.push({ path: ["accounts", i, "strategies", k, "playbook"], message: "names no playbook in the file" });
    });
    const days = new Set((a.days ?? []).map((d) => d.day));
    if (days.size < (a.days ?? []).length) problems.push({ path: ["accounts", i, "days"], message: "has two entries for the same day" });
  });
  return problems.slice(0, 20);
}

/** The largest value numeric(28, 10) holds, in units of 10^-10. */
const NUMERIC_LIMIT_UNITS = 10n ** BigInt(MAX_INTEGER_DIGITS + MAX_FRACTION_DIGITS);

/**
 * The rules the API applies to what a trader enters, applied to every row of a file (a file is not a way
 * round them): each fill's instrument as POST /api/fills resolves it (a stock ticker, an OCC option symbol, a
 * futures contract; a formula or markup is none of them), a fill's value within what the columns hold, and
 * each ledger row as POST /api/ledger/:id/entries takes it (a deposit adds, a withdrawal takes out, an
 * adjustment is not zero; the export writes withdrawals with their sign). Fills get the resolved
 * (upper-cased) symbol. At most 20 problems, each naming its row.
 */
function ruleProblems(data: DataExport): Array<{ path: PropertyKey[]; message: string }> {
  const problems: Array<{ path: PropertyKey[]; message: string }> = [];
  data.accounts.forEach((a, i) => {
    a.fills.forEach((f, k) => {
      const row = `fill ${k + 1} (ref ${f.ref}) of account "${a.name}"`;
      try {
        const instrument = resolveInstrument({ symbol: f.symbol, assetClass: f.assetClass, multiplier: f.multiplier });
        refuseOtherCurrency(instrument, a.currency);
        f.symbol = instrument.symbol;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        for (const field of err.fields ?? []) problems.push({ path: ["accounts", i, "fills", k, field.path], message: `${row}: ${field.path} ${field.message}` });
        return;
      }
      const notional = multiplyUnits(multiplyUnits(toUnits(f.quantity), toUnits(f.price)), toUnits(f.multiplier));
      if (notional + toUnits(f.fees) >= NUMERIC_LIMIT_UNITS) {
        problems.push({ path: ["accounts", i, "fills", k, "quantity"], message: `${row}: quantity x price x multiplier is larger than the journal can hold` });
      }
    });
    a.ledger.forEach((e, k) => {
      const units = toUnits(e.amount);
      const row = `ledger row ${k + 1} (${e.type} of ${e.amount}) of account "${a.name}"`;
      const wrong =
        units === 0n
          ? "must not be zero"
          : e.type === "deposit" && units < 0n
            ? "of a deposit must be positive"
            : OUTGOING_TYPES.has(e.type) && units > 0n
              ? `of a ${e.type === "withdrawal" ? "withdrawal" : e.type === "payout" ? "payout" : "prop firm's fee"} must be negative (what it took out)`
              : null;
      if (wrong) problems.push({ path: ["accounts", i, "ledger", k, "amount"], message: `${row}: amount ${wrong}` });
      if (e.note !== null && e.note.length > 500) problems.push({ path: ["accounts", i, "ledger", k, "note"], message: `${row}: note must be at most 500 characters` });
    });
  });
  (data.splits ?? []).forEach((sp, k) => {
    try {
      const instrument = resolveInstrument({ symbol: sp.symbol });
      if (instrument.assetClass !== "stock") problems.push({ path: ["splits", k, "symbol"], message: `split ${k + 1}: symbol must be a stock ticker` });
      sp.symbol = instrument.symbol;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      problems.push({ path: ["splits", k, "symbol"], message: `split ${k + 1}: ${err.message}` });
    }
    if (toUnits(sp.newShares) === toUnits(sp.oldShares)) problems.push({ path: ["splits", k, "newShares"], message: `split ${k + 1}: newShares must differ from oldShares` });
  });
  return problems.slice(0, 20);
}

/**
 * A JSON export checked as a whole before anything is written (the schema, every text storable, every ref
 * present, the journal's rules, timezones), ready for account_restore; a VALIDATION_ERROR names what is wrong.
 */
export function checkUserData(text: string): DataExport {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("VALIDATION_ERROR", "This file is not JSON. Choose a file made by Settings > Account > Export (JSON).", {
      fields: [{ path: "file", message: "is not JSON" }],
    });
  }
  const unstorable = textProblems(raw);
  if (unstorable.length) throw validationError(unstorable, "The file holds text that cannot be stored.");
  const parsed = z.safeParse(DataExportSchema, raw);
  if (!parsed.success) throw validationError(parsed.error.issues, "This file is not a journal export this instance can read; nothing was imported.");
  const problems = referenceProblems(parsed.data);
  if (problems.length) throw validationError(problems, "This file's references do not match up; nothing was imported.");
  const broken = ruleProblems(parsed.data);
  if (broken.length) throw validationError(broken, `${broken.length === 1 ? "A row" : "Some rows"} of this file break the journal's rules (each is named below); nothing was imported.`);
  for (const a of parsed.data.accounts) checkTimezone(a.timezone);
  return parsed.data;
}

/**
 * The file's tags as the API writes tags (lib/tags/tags.ts): the schema has trimmed them and refused blank ones;
 * here each is written in the spelling the user already has (or the file's first), and a list naming one tag
 * twice (in any case) keeps it once, as do the tags' kinds. Changes `data` in place.
 */
export async function canonicalizeFileTags(deps: Pick<Deps, "db">, userId: string, data: DataExport, more: Array<{ tags: string[] | null }> = []): Promise<void> {
  const lists = [...data.accounts.flatMap((a) => [...a.journal.map((j) => j.tags), ...(a.days ?? []).map((d) => d.tags)]), ...more.flatMap((m) => (m.tags ? [m.tags] : []))];
  // In the file's order: the accounts' journals and days, then the kinds.
  const spelling = await tagSpellings(deps, userId, [...lists.flat(), ...(data.tagKinds ?? []).map((k) => k.tag)]);
  const canonical = (tags: readonly string[]) => [...new Set(tags.map((t) => spelling.get(t.toLowerCase())!))];
  for (const a of data.accounts) {
    for (const j of a.journal) j.tags = canonical(j.tags);
    for (const d of a.days ?? []) d.tags = canonical(d.tags);
  }
  for (const m of more) if (m.tags) m.tags = canonical(m.tags);
  if (data.tagKinds) {
    const seen = new Set<string>();
    data.tagKinds = data.tagKinds.flatMap((k) => {
      const tag = spelling.get(k.tag.toLowerCase())!;
      if (seen.has(tag)) return [];
      seen.add(tag);
      return [{ ...k, tag }];
    });
  }
}

/** The account cap a restore must respect (FEATURE_GATING's Free plan), or null. */
export const restoreCap = (config: Deps["config"], user: AuthUser) => (isPlanCapped(config, user) ? FREE_PLAN_LIMITS.accounts : null);

/** account_restore's refusals in the words of the API (a caller's own error passes through unchanged). */
export function restoreError(err: unknown): unknown {
  const pg = pgError(err);
  if (pg?.code === RAISED_EXCEPTION && pg.message === "TIER_LIMIT_ACCOUNTS") {
    return new AppError("TIER_LIMIT_ACCOUNTS", `The Free plan includes ${FREE_PLAN_LIMITS.accounts} account${FREE_PLAN_LIMITS.accounts === 1 ? "" : "s"}, and this file would go past it. Upgrade to Pro, or import a file with fewer accounts; nothing was imported.`);
  }
  if (pg?.code === NUMERIC_OUT_OF_RANGE) {
    // Each row fits (ruleProblems); a running balance of the file's rows does not.
    return new AppError("VALIDATION_ERROR", "An account's running balance in this file grows larger than the journal can hold; nothing was imported.", {
      fields: [{ path: "accounts", message: "a running balance is larger than 18 digits" }],
    });
  }
  if (pg?.code === RAISED_EXCEPTION && pg.message.startsWith("ACCOUNT_EXISTS:")) {
    return new AppError("CONFLICT", `You already have an account named "${pg.message.slice("ACCOUNT_EXISTS:".length)}". Rename or delete it, then import again; nothing was imported.`);
  }
  return err;
}

export type RestoreSummary = { accounts: number; fills: number; entries: number; journaled: number };

/** POST /api/auth/account/import: a JSON export written into the user's data, all or nothing. */
export async function importUserData(deps: Pick<Deps, "db" | "config">, user: AuthUser, text: string): Promise<RestoreSummary> {
  const data = checkUserData(text);
  await canonicalizeFileTags(deps, user.id, data);
  try {
    const [row] = rowsOf<{ summary: RestoreSummary }>(
      await deps.db.execute(sql`select account_restore(${user.id}::uuid, ${JSON.stringify(data)}::jsonb, ${restoreCap(deps.config, user)}::integer) as summary`),
    );
    const { accounts, fills, entries, journaled } = row!.summary;
    return { accounts, fills, entries, journaled };
  } catch (err) {
    throw restoreError(err);
  }
}
