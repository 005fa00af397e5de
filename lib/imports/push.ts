// The fill push API (docs/imports.md, "Pushing fills from a script"): a script or a trading platform POSTs a
// batch of fills with an Idempotency-Key, and the batch goes through the CSV import pipeline itself: written as
// a generic-layout file (papaparse), normalised by normalizeCsv (instruments, the account's fee schedule),
// duplicates marked against the account, staged and committed by import_commit in one statement, so a batch is
// all or nothing, shows in the import history and can be undone like a file.
//
// Idempotency: one import per user and key (a unique index). The request that inserts the row does the work and
// stores its answer on it; a retry, or a concurrent twin, with the same key and the same body gets that answer
// (the twin waits for it), with the same key and another body 409 CONFLICT. A batch that fails leaves no row,
// so it can be sent again with the same key.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import * as z from "zod/mini";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import type { FeeSchedule } from "../accounts/fees.ts";
import { NewFillSchema } from "../trades/schema.ts";
import { fromUnits } from "../money.ts";
import { cashEffectUnits } from "../trades/cash.ts";
import { commitImport, markDuplicates, openFuturesPositions, stagedJson } from "./imports.ts";
import { normalizeCsv, type StagedFill } from "./normalize.ts";
import { findPreset } from "./presets.ts";

export const PUSH_MAX_FILLS = 1000;
/** How long a request waits for its twin (same key, same body) to finish before answering 409. */
const TWIN_WAIT_MS = 20_000;

const PushFillSchema = z.strictObject({
  symbol: NewFillSchema.shape.symbol,
  side: NewFillSchema.shape.side,
  quantity: NewFillSchema.shape.quantity,
  price: NewFillSchema.shape.price,
  fees: NewFillSchema.shape.fees,
  executedAt: NewFillSchema.shape.executedAt,
  executionId: NewFillSchema.shape.executionId,
});

export const PushBatchSchema = z.strictObject({
  accountId: z.uuid("must be a uuid"),
  fills: z.array(PushFillSchema).check(z.minLength(1, "must hold at least one fill"), z.maxLength(PUSH_MAX_FILLS, `must hold at most ${PUSH_MAX_FILLS} fills`)),
});
export type PushBatch = z.infer<typeof PushBatchSchema>;

export const IdempotencyKeySchema = z.string().check(z.regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 visible ASCII characters"));

export type PushResult = {
  importId: string;
  imported: number;
  duplicates: number;
  fills: Array<{ index: number; status: "imported" | "duplicate"; fillId: string | null }>;
};

const HEADERS = ["Date/Time", "Symbol", "Side", "Quantity", "Price", "Fees", "Execution ID"];

/** Pushes a batch (see the file's comment); the answer of its first run, whichever request ran it. */
export async function pushFills(deps: Pick<Deps, "db" | "config" | "now" | "storage" | "log" | "analytics">, user: AuthUser, key: string, batch: PushBatch): Promise<PushResult> {
  const requestHash = createHash("sha256").update(JSON.stringify(batch)).digest("hex");
  const earlier = await replay(deps, user, key, requestHash, false);
  if (earlier) return earlier;

  const account = await requireOwnAccount(deps, user, batch.accountId);
  const generic = findPreset("generic")!;
  const text = Papa.unparse({
    fields: HEADERS,
    data: batch.fills.map((f) => [f.executedAt, f.symbol, f.side, f.quantity, f.price, f.fees ?? "", f.executionId ?? ""]),
  });
  const [schedule] = rowsOf<{ fee_schedule: FeeSchedule | string | null }>(await deps.db.execute(sql`select fee_schedule from accounts where id = ${account.id}::uuid`));
  const feeSchedule = typeof schedule?.fee_schedule === "string" ? (JSON.parse(schedule.fee_schedule) as FeeSchedule) : (schedule?.fee_schedule ?? null);
  const { fills, errors } = normalizeCsv(text, generic.mapping, generic.options, { ...account, feeSchedule }, PUSH_MAX_FILLS);
  if (errors.length) {
    // Row 2 of the file is fills[0]. Nothing is written.
    throw new AppError("VALIDATION_ERROR", "Some fills cannot be imported, so none were.", {
      fields: errors.slice(0, 50).map((e) => ({ path: `fills.${e.row - 2}${e.column ? `.${fieldOf(e.column)}` : ""}`, message: e.message })),
    });
  }
  await markDuplicates(deps, account.id, fills);
  const fresh = fills.filter((f) => !f.duplicate);
  const cash = cashEffectUnits(fresh, await openFuturesPositions(deps, account.id, fresh));
  const summary = { rows: fills.length, skipped: 0, valid: fills.length, invalid: 0, duplicate: fills.length - fresh.length, toImport: fresh.length, cashEffect: fromUnits(cash) };
  const importId = crypto.randomUUID();
  const inserted = rowsOf(
    await deps.db.execute(sql`insert into csv_imports (id, user_id, account_id, file_name, preset_id, expires_at, summary, staged, staged_bytes,
        idempotency_key, request_hash)
      values (${importId}::uuid, ${user.id}::uuid, ${account.id}::uuid, 'API push', 'generic',
        ${new Date(deps.now().getTime() + 10 * 60_000).toISOString()}::timestamptz, ${JSON.stringify(summary)}::jsonb, ${stagedJson(fills)}::jsonb, 0,
        ${key}, ${requestHash})
      on conflict (user_id, idempotency_key) where idempotency_key is not null do nothing
      returning 1`),
  );
  // A twin got there first: its answer, once it has one.
  if (!inserted.length) return (await replay(deps, user, key, requestHash, true))!;
  try {
    await commitImport(deps, user, importId);
    const result = await resultOf(deps, importId, fills);
    // Answered as stored, so the first answer and every replay are the same bytes.
    const [stored] = rowsOf<{ push_result: PushResult | string }>(
      await deps.db.execute(sql`update csv_imports set push_result = ${JSON.stringify(result)}::jsonb where id = ${importId}::uuid returning push_result`),
    );
    return typeof stored!.push_result === "string" ? (JSON.parse(stored!.push_result) as PushResult) : stored!.push_result;
  } catch (err) {
    // Not committed: the key is free again for a retry.
    await deps.db.execute(sql`delete from csv_imports where id = ${importId}::uuid and status = 'staged'`).catch(() => undefined);
    throw err;
  }
}

const fieldOf = (column: string) =>
  ({ "Date/Time": "executedAt", Symbol: "symbol", Side: "side", Quantity: "quantity", Price: "price", Fees: "fees", "Execution ID": "executionId" })[column] ?? column;

/**
 * The answer stored under the key, when there is one. With `wait`, a twin still committing is waited for; a
 * key used with another body is 409 CONFLICT.
 */
async function replay(deps: Pick<Deps, "db">, user: AuthUser, key: string, requestHash: string, wait: boolean): Promise<PushResult | null> {
  const started = Date.now();
  for (;;) {
    const [row] = rowsOf<{ request_hash: string; push_result: PushResult | string | null }>(
      await deps.db.execute(sql`select request_hash, push_result from csv_imports where user_id = ${user.id}::uuid and idempotency_key = ${key}`),
    );
    if (!row) {
      if (!wait) return null;
      // The twin failed and let the key go: this request is answered as a retry would be.
      throw new AppError("CONFLICT", "Another request with this Idempotency-Key failed meanwhile; send the batch again.");
    }
    if (row.request_hash !== requestHash) {
      throw new AppError("CONFLICT", "This Idempotency-Key was already used for a different batch: use a new key for new fills.");
    }
    if (row.push_result) return typeof row.push_result === "string" ? (JSON.parse(row.push_result) as PushResult) : row.push_result;
    if (Date.now() - started > TWIN_WAIT_MS) throw new AppError("CONFLICT", "A request with this Idempotency-Key is still being processed; retry shortly.");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Which pushed fills the commit wrote (matched by execution id, else by what the fill is) and which it skipped. */
async function resultOf(deps: Pick<Deps, "db">, importId: string, fills: StagedFill[]): Promise<PushResult> {
  const written = rowsOf<{ id: string; symbol: string; side: string; quantity: string; price: string; executed_at: string; execution_id: string | null }>(
    await deps.db.execute(sql`select id::text, symbol, side, quantity::text, price::text, ${sql.raw(isoUtc("executed_at"))} as executed_at, execution_id
      from fills where import_id = ${importId}::uuid`),
  );
  const byKey = new Map<string, string[]>();
  const keyOf = (f: { execution_id: string | null; symbol: string; side: string; quantity: string; price: string; executed_at: string }) =>
    f.execution_id ?? `${f.symbol}|${f.side}|${Number(f.quantity)}|${Number(f.price)}|${f.executed_at.slice(0, 23)}`;
  for (const w of written) byKey.set(keyOf(w), [...(byKey.get(keyOf(w)) ?? []), w.id]);
  const results = fills.map((f, index) => {
    const id = f.duplicate ? undefined : byKey.get(keyOf(f))?.shift();
    return { index, status: id ? ("imported" as const) : ("duplicate" as const), fillId: id ?? null };
  });
  return { importId, imported: results.filter((r) => r.status === "imported").length, duplicates: results.filter((r) => r.status === "duplicate").length, fills: results };
}
