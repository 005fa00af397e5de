// CSV import: preview (parse, check, mark duplicates, stage), commit (claim exactly once, then apply in
// one statement), undo, history. Staging lives in object storage when deps.storage is present (the row keeps
// the key in staged_key), else inline in Postgres (csv_imports.staged).
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { track } from "../analytics/index.ts";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { csvImports } from "../db/schema.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { isDatabaseUnavailable, pgError } from "../db/errors.ts";
import { AppError } from "../errors.ts";
import { storableText } from "../text.ts";
import { drainObjectDeletions } from "../storage/deletions.ts";
import { stagedImportKey, StorageUnavailableError } from "../storage/index.ts";
import { formatDecimal, fromUnits, multiplyUnits, toUnits } from "../money.ts";
import { cashEffectUnits, type OpenPosition } from "../trades/cash.ts";
import { decodeCsv, normalizeCsv, type RowError, type RowSkip, type StagedFill } from "./normalize.ts";
import { findPreset } from "./presets.ts";
import { rememberMapping } from "./suggest.ts";
import type { FeeSchedule } from "../accounts/fees.ts";
import type { ImportRequest } from "./schema.ts";

/** At most this many row errors and preview fills are returned; the counts always cover every row. */
const ERRORS_SHOWN = 500;
const FILLS_SHOWN = 200;
const ROWS_SHOWN = 200;

/** What two records of one execution share: symbol, time to the second, side, quantity and price. */
const fingerprint = (f: Pick<StagedFill, "symbol" | "executed_at" | "side" | "quantity" | "price">) =>
  // Both sides write times as "YYYY-MM-DDTHH:MM:SS.mmmZ" (normalize.ts, isoUtc): the first 19 characters are the second.
  `${f.symbol}|${f.executed_at.slice(0, 19)}|${f.side}|${formatDecimal(f.quantity)}|${formatDecimal(f.price)}`;

/**
 * Marks the fills (not duplicates) that the trader deleted by hand before (fill_tombstones: an import undone and
 * made again, or the same file imported after a fill of it was deleted), with when: the preview says they come
 * back. Matched as duplicates are: the same execution id, or the same fingerprint unless both carry different
 * ids. Answers how many.
 */
async function markDeletedByHand(deps: Pick<Deps, "db">, accountId: string, fills: StagedFill[]): Promise<number> {
  if (!fills.length) return 0;
  const times = fills.map((f) => f.executed_at);
  const tombs = rowsOf<{ symbol: string; executed_at: string; side: "buy" | "sell"; quantity: string; price: string; execution_id: string | null; deleted_at: string }>(
    await deps.db.execute(sql`select symbol, ${sql.raw(isoUtc("executed_at"))} as executed_at, side, quantity::text as quantity, price::text as price,
        execution_id, ${sql.raw(isoUtc("deleted_at"))} as deleted_at
      from fill_tombstones where account_id = ${accountId}::uuid
        and symbol in (select jsonb_array_elements_text(${JSON.stringify([...new Set(fills.map((f) => f.symbol))])}::jsonb))
        and executed_at >= date_trunc('second', ${times.reduce((a, b) => (a < b ? a : b))}::timestamptz)
        and executed_at < date_trunc('second', ${times.reduce((a, b) => (a > b ? a : b))}::timestamptz) + interval '1 second'
      order by deleted_at desc`),
  );
  if (!tombs.length) return 0;
  const byPrint = new Map<string, typeof tombs>();
  const byId = new Map<string, string>();
  for (const t of tombs) {
    byPrint.set(fingerprint(t), [...(byPrint.get(fingerprint(t)) ?? []), t]);
    if (t.execution_id && !byId.has(t.execution_id)) byId.set(t.execution_id, t.deleted_at);
  }
  let n = 0;
  for (const f of fills) {
    const at = (f.execution_id ? byId.get(f.execution_id) : undefined) ?? byPrint.get(fingerprint(f))?.find((t) => sameExecution(t.execution_id, f.execution_id))?.deleted_at;
    if (at === undefined) continue;
    f.deleted_at = at;
    n += 1;
  }
  return n;
}

/** Two records with the same fingerprint are one execution unless both carry execution ids and they differ. */
const sameExecution = (a: string | null, b: string | null) => a === null || b === null || a === b;

/**
 * Marks fills already in the account, or earlier in the same file, as duplicates (DESIGN.md section 9): the
 * same execution id, or the same fingerprint unless both carry different execution ids, so the same
 * executions exported by two formats (one with ids, one without) are recognised. import_apply applies the
 * same rule again at commit, against what arrived in between.
 */
export async function markDuplicates(deps: Pick<Deps, "db">, accountId: string, fills: StagedFill[]): Promise<void> {
  const ids = fills.flatMap((f) => (f.execution_id ? [f.execution_id] : []));
  const existingIds = new Set(
    ids.length
      ? rowsOf<{ execution_id: string }>(
          await deps.db.execute(sql`select execution_id from fills where account_id = ${accountId}
            and execution_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`),
        ).map((r) => r.execution_id)
      : [],
  );
  const existingPrints = new Map<string, Array<string | null>>();
  if (fills.length) {
    const symbols = [...new Set(fills.map((f) => f.symbol))];
    const times = fills.map((f) => f.executed_at);
    const rows = rowsOf<{ symbol: string; executed_at: string; side: "buy" | "sell"; quantity: string; price: string; execution_id: string | null }>(
      await deps.db.execute(sql`select symbol, ${sql.raw(isoUtc("executed_at"))} as executed_at,
          side, quantity::text as quantity, price::text as price, execution_id
        from fills where account_id = ${accountId}
          and symbol in (select jsonb_array_elements_text(${JSON.stringify(symbols)}::jsonb))
          and executed_at >= date_trunc('second', ${times.reduce((a, b) => (a < b ? a : b))}::timestamptz)
          and executed_at < date_trunc('second', ${times.reduce((a, b) => (a > b ? a : b))}::timestamptz) + interval '1 second'`),
    );
    for (const r of rows) {
      const print = fingerprint(r);
      existingPrints.set(print, [...(existingPrints.get(print) ?? []), r.execution_id]);
    }
  }
  // Rows that all carry ids can only match each other by id; fingerprints are needed when the account has
  // fills in the file's span or a row has no id (a 10,000-row broker file with ids skips them).
  const needPrints = existingPrints.size > 0 || fills.some((f) => f.execution_id === null);
  const seenIds = new Set<string>();
  const seenPrints = new Map<string, Array<string | null>>();
  for (const f of fills) {
    const id = f.execution_id;
    f.duplicate = id !== null && (existingIds.has(id) || seenIds.has(id));
    if (id !== null) seenIds.add(id);
    if (!needPrints) continue;
    const print = fingerprint(f);
    const matches = (others: Array<string | null> | undefined) => (others ?? []).some((other) => sameExecution(other, id));
    f.duplicate ||= matches(existingPrints.get(print)) || matches(seenPrints.get(print));
    seenPrints.set(print, [...(seenPrints.get(print) ?? []), id]);
  }
}

/** The open futures positions of the symbols about to be imported: what their fills will realise against. */
export async function openFuturesPositions(deps: Pick<Deps, "db">, accountId: string, fills: StagedFill[]): Promise<Map<string, OpenPosition>> {
  const symbols = [...new Set(fills.filter((f) => f.asset_class === "future").map((f) => f.symbol))];
  if (!symbols.length) return new Map();
  const rows = rowsOf<{ symbol: string; direction: "long" | "short"; open_quantity: string; entry_quantity: string; entry_value: string; exit_value: string; gross_pnl: string }>(
    await deps.db.execute(sql`select symbol, direction, open_quantity::text, entry_quantity::text, entry_value::text, exit_value::text, gross_pnl::text
      from positions where account_id = ${accountId} and closed_at is null
        and symbol in (select jsonb_array_elements_text(${JSON.stringify(symbols)}::jsonb))`),
  );
  return new Map(
    rows.map((r) => [
      r.symbol,
      { direction: r.direction, openQuantity: r.open_quantity, entryQuantity: r.entry_quantity, entryValue: r.entry_value, exitValue: r.exit_value, grossPnl: r.gross_pnl },
    ]),
  );
}

/**
 * The staged fills as import_apply reads them: one array per fill (symbol, asset class, multiplier, side,
 * quantity, price, fees, executed_at, execution id, duplicate). Without the keys of an object per fill it
 * is less than half the size (a 165,000-row file stages 13 MB, not 33), in Node's memory, on the wire and
 * in the table. Made in parts of `perPart` fills, each a JSON array, one at a time: with `release`, each
 * fill is let go once it is in its part (the caller's array is left empty).
 */
export function* stagedParts(fills: (StagedFill | undefined)[], perPart: number, release = false): Generator<string> {
  // A thousand fills at a time: a few hundred strings before the join, not one per fill.
  let batches: string[] = [];
  for (let i = 0; i < fills.length; i += 1000) {
    // An estimated fee adds an 11th element (import_apply reads its absence as reported fees); a plan the
    // 12th and 13th (stop, target; null when absent); a broker order the 14th; another journal's notes and
    // tags the 15th and 16th.
    const batch = (fills.slice(i, i + 1000) as StagedFill[]).map((f) => {
      const row: unknown[] = [f.symbol, f.asset_class, f.multiplier, f.side, f.quantity, f.price, f.fees, f.executed_at, f.execution_id, Boolean(f.duplicate)];
      if (f.notes !== undefined || f.tags !== undefined) row.push(Boolean(f.fees_estimated), f.stop_price ?? null, f.target_price ?? null, f.order_id ?? null, f.notes ?? null, f.tags ?? null);
      else if (f.order_id !== undefined) row.push(Boolean(f.fees_estimated), f.stop_price ?? null, f.target_price ?? null, f.order_id);
      else if (f.stop_price !== undefined || f.target_price !== undefined) row.push(Boolean(f.fees_estimated), f.stop_price ?? null, f.target_price ?? null);
      else if (f.fees_estimated) row.push(true);
      return row;
    });
    if (release) fills.fill(undefined, i, i + 1000);
    batches.push(JSON.stringify(batch).slice(1, -1));
    if (batches.length * 1000 >= perPart || i + 1000 >= fills.length) {
      yield `[${batches.join(",")}]`;
      batches = [];
    }
  }
  if (release) fills.length = 0;
}

/** All the staged fills as one JSON array (stagedParts' order): what object storage and a pushed batch hold. */
export function stagedJson(fills: readonly StagedFill[]): string {
  const [whole] = stagedParts(fills as StagedFill[], Number.POSITIVE_INFINITY);
  return whole ?? "[]";
}

/**
 * Fills per part of a preview staged in Postgres (csv_import_parts): ~0.8 MB of JSON, made and written one
 * at a time. Staged as one parameter, a 10 MB file's 13 MB of JSON was held whole and then copied twice by
 * the Node driver into buffers of its own (issue 40).
 */
export const IMPORT_PART_FILLS = 10_000;
/** staged_parts while a preview writes its parts: never a count, so no commit takes it meanwhile. */
const PARTS_BEING_WRITTEN = -1;

/** A preview's upload. `bytes` is handed over: the preview lets go of it once the text is read. */
export type PreviewInput = {
  fileName: string | null;
  bytes: Uint8Array;
  request: ImportRequest;
  /**
   * A broker sync's statement (lib/sync): fills executed before `notBefore` (the connection's start date) and fills
   * the trader deleted by hand (fill_tombstones) are left out, each listed as skipped with why; the answer says how
   * many were deleted ones (`skippedDeleted`). An upload brings a deleted fill back: the trader chose the file.
   * `maxRows`: a sync's own row limit (a first sync of a long history is more than an upload's CSV_IMPORT_MAX_ROWS).
   */
  sync?: { notBefore: Date | null; maxRows?: number };
};

/** Keeps the fills `keep` says, in place (a file's fills can be too many to spread into a call), listing the others as skipped. */
function leaveOut(fills: StagedFill[], skipped: RowSkip[], reasonOf: (f: StagedFill) => string | null): number {
  let kept = 0;
  let left = 0;
  for (const f of fills) {
    const reason = reasonOf(f);
    if (reason === null) fills[kept++] = f;
    else {
      skipped.push({ row: f.row, reason });
      left += 1;
    }
  }
  fills.length = kept;
  if (left > 0) skipped.sort((a, b) => a.row - b.row);
  return left;
}

export async function previewImport(deps: Pick<Deps, "db" | "config" | "now" | "storage" | "log" | "analytics">, user: AuthUser, input: PreviewInput) {
  const { request } = input;
  const account = await requireOwnAccount(deps, user, request.accountId);
  const preset = request.presetId ? findPreset(request.presetId) : undefined;
  if (request.presetId && !preset) {
    throw new AppError("VALIDATION_ERROR", `Unknown preset "${request.presetId}".`, { fields: [{ path: "presetId", message: "is not a known preset" }] });
  }
  const mapping = request.mapping ?? preset!.mapping;
  const options = { ...preset?.options, ...request.options };
  // One representation of the file at a time (a 10 MB file is ~165,000 rows): the text lives only while it
  // is read, a row's cells only while that row is normalised (normalizeCsv), the fill objects until the
  // staged JSON is made, and what the answer shows is taken from them before they go.
  const text = decodeCsv(input.bytes);
  input.bytes = new Uint8Array(0);
  const [schedule] = rowsOf<{ fee_schedule: FeeSchedule | string | null }>(
    await deps.db.execute(sql`select fee_schedule from accounts where id = ${account.id}::uuid`),
  );
  const feeSchedule = typeof schedule?.fee_schedule === "string" ? (JSON.parse(schedule.fee_schedule) as FeeSchedule) : (schedule?.fee_schedule ?? null);
  const { fills, errors, skipped, rowCount, header, brokerRates } = normalizeCsv(text, mapping, options, { ...account, feeSchedule }, input.sync?.maxRows ?? deps.config.CSV_IMPORT_MAX_ROWS);
  // A mapping of the trader's own that read rows is kept for the next file with this header.
  if (request.mapping && header && fills.length > 0) await rememberMapping(deps, account.id, header, request.mapping, request.options ?? {});
  const notBefore = input.sync?.notBefore?.toISOString();
  if (notBefore) leaveOut(fills, skipped, (f) => (f.executed_at < notBefore ? "executed before the connection's start date" : null));
  await markDuplicates(deps, account.id, fills);
  let fresh = fills.filter((f) => !f.duplicate);
  let restored = await markDeletedByHand(deps, account.id, fresh);
  let skippedDeleted = 0;
  if (input.sync && restored > 0) {
    skippedDeleted = leaveOut(fills, skipped, (f) => (f.deleted_at ? "deleted by you: a sync does not bring it back" : null));
    fresh = fresh.filter((f) => !f.deleted_at);
    restored = 0;
  }
  const cash = cashEffectUnits(fresh, await openFuturesPositions(deps, account.id, fresh));
  const bySymbol = new Map<string, { fills: number; netQuantity: bigint }>();
  for (const f of fresh) {
    const s = bySymbol.get(f.symbol) ?? { fills: 0, netQuantity: 0n };
    s.fills += 1;
    s.netQuantity += (f.side === "buy" ? 1n : -1n) * toUnits(f.quantity);
    bySymbol.set(f.symbol, s);
  }
  const summary = {
    rows: rowCount,
    /** Rows a preset leaves out on purpose (other sections, cancelled orders, cash movements): listed in `rows`. */
    skipped: skipped.length,
    valid: fills.length,
    invalid: new Set(errors.map((e) => e.row)).size,
    duplicate: fills.length - fresh.length,
    toImport: fresh.length,
    /** Of those, fills the trader deleted by hand (after an undo, the same file again brings them back). */
    deletedByHand: restored,
    cashEffect: fromUnits(cash),
  };
  const shown = {
    ...(mapping.pnl ? { reconciliation: reconcile(fills) } : {}),
    errors: errors.slice(0, ERRORS_SHOWN) as RowError[],
    symbols: [...bySymbol].map(([symbol, s]) => ({ symbol, fills: s.fills, netQuantity: fromUnits(s.netQuantity) })),
    fills: fills.slice(0, FILLS_SHOWN).map(toPreviewFill),
    rows: previewRows(fills, errors, skipped),
  };
  fresh.length = 0;
  const cap = deps.config.CSV_IMPORT_MAX_STAGED_BYTES;
  const tooLarge = (bytes: number) =>
    new AppError("PAYLOAD_TOO_LARGE", `The staged import would be ${bytes} bytes or more; the limit is ${cap} (CSV_IMPORT_MAX_STAGED_BYTES).`);
  const expiresAt = new Date(deps.now().getTime() + deps.config.CSV_IMPORT_STAGING_TTL_MINUTES * 60_000);
  const importId = crypto.randomUUID();
  const stagedKey = deps.storage ? stagedImportKey(user.id, importId) : null;
  const row = {
    id: importId, userId: user.id, accountId: account.id, fileName: storableFileName(input.fileName), presetId: preset?.id ?? null, expiresAt, summary,
    brokerRates: brokerRates.length ? brokerRates : null,
  };
  // A staging that failed part-way: its row goes (with its parts, or queueing its object's key).
  const dropRow = () =>
    deps.db
      .delete(csvImports)
      .where(eq(csvImports.id, importId))
      .catch((dbErr: unknown) => deps.log.error("could not remove the row of a failed staging", { importId, error: String(dbErr) }));
  if (!stagedKey) {
    // Without object storage: the row first, then the parts, made and written one at a time (each fill let go
    // once in its part), then their count; a commit takes the import only once all are there.
    await deps.db.insert(csvImports).values({ ...row, stagedParts: PARTS_BEING_WRITTEN });
    try {
      // The bytes of the fills as one JSON array: the first part's, then each other's but one bracket and a comma.
      let bytes = 0;
      let count = 0;
      for (const part of stagedParts(fills, IMPORT_PART_FILLS, true)) {
        // Counted without a copy (TextEncoder would make one as large as the JSON).
        bytes += Buffer.byteLength(part, "utf8") - (count > 0 ? 1 : 0);
        if (bytes > cap) throw tooLarge(bytes);
        await deps.db.execute(sql`insert into csv_import_parts (import_id, part, fills) values (${importId}::uuid, ${count}, ${part}::jsonb)`);
        count += 1;
      }
      await deps.db.update(csvImports).set({ stagedParts: count, stagedBytes: bytes }).where(eq(csvImports.id, importId));
    } catch (err) {
      await dropRow();
      throw err;
    }
  } else {
    const staged = stagedJson(fills);
    // The fill objects are in the JSON now: let them go before the bucket takes it.
    fills.length = 0;
    const stagedBytes = Buffer.byteLength(staged, "utf8");
    if (stagedBytes > cap) throw tooLarge(stagedBytes);
    // The row first, then the object: a failed insert leaves nothing in the bucket, and a row whose object
    // never arrived (a crash in between) answers 410 on commit and is purged with its lifetime.
    await deps.db.insert(csvImports).values({ ...row, stagedKey, stagedBytes });
    try {
      await deps.storage!.put(stagedKey, staged);
    } catch (err) {
      // No row may claim an object that is not there. Deleting it queues the key, in case the put reached
      // the store after all; the purge job removes it then.
      await dropRow();
      throw storageFailure(deps, err);
    }
  }
  track(deps, "import previewed", user.id, {
    format: preset?.id ?? "custom",
    rows: summary.rows,
    fills: summary.valid,
    duplicates: summary.duplicate,
    errors: summary.invalid,
  });
  return {
    importId,
    expiresAt: expiresAt.toISOString(),
    summary,
    ...shown,
    ...(input.sync ? { skippedDeleted, skippedReasons: reasonsOf(skipped) } : {}),
  };
}

/**
 * Another journal's file against what the journal makes of it (docs/imports.md, "Moving from another
 * journal"): per symbol, the file's own P&L (mapping.pnl, before fees) and the journal's, the cash of the
 * symbol's fills read from the file (sells less buys, times the multiplier, before fees): what its trades
 * realise once closed. The symbols where the two differ are listed; a file that only closes what it opens
 * agrees to the cent.
 */
function reconcile(fills: readonly StagedFill[]) {
  const per = new Map<string, { file: bigint; journal: bigint }>();
  for (const f of fills) {
    const s = per.get(f.symbol) ?? { file: 0n, journal: 0n };
    if (f.file_pnl !== undefined) s.file += toUnits(f.file_pnl);
    const notional = multiplyUnits(multiplyUnits(toUnits(f.quantity), toUnits(f.price)), toUnits(f.multiplier));
    s.journal += f.side === "sell" ? notional : -notional;
    per.set(f.symbol, s);
  }
  let file = 0n;
  let journal = 0n;
  const differ: Array<{ symbol: string; file: string; journal: string }> = [];
  for (const [symbol, s] of [...per].sort(([a], [b]) => a.localeCompare(b))) {
    file += s.file;
    journal += s.journal;
    if (s.file !== s.journal) differ.push({ symbol, file: fromUnits(s.file), journal: fromUnits(s.journal) });
  }
  return { file: fromUnits(file), journal: fromUnits(journal), matches: differ.length === 0, differ };
}

/** A sync's skipped rows as counts per reason, most first (a run's "why"). */
function reasonsOf(skipped: readonly RowSkip[]): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>();
  for (const s of skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

/**
 * The upload's name as a label the history can show: a browser sends what the file system has, so NUL
 * characters and lone surrogates (which Postgres cannot store) are dropped, and it is cut to 255 characters.
 */
function storableFileName(name: string | null): string | null {
  if (name === null) return null;
  const cleaned = storableText(name.slice(0, 255)).trim();
  return cleaned === "" ? null : cleaned;
}

/**
 * The first ROWS_SHOWN data rows of the file, in file order, each with what becomes of it (DESIGN.md's
 * `rows`): `valid` (imported on commit), `duplicate` (skipped unless includeDuplicates), `invalid` with its
 * errors, or `skipped` with the reason the format leaves it out.
 */
function previewRows(fills: StagedFill[], errors: readonly RowError[], skipped: readonly RowSkip[]) {
  // Each list is in file order, so the first ROWS_SHOWN rows of the file are among the first ROWS_SHOWN
  // entries of each (errors: of each row's errors, a row may have several); the rest is never looked at.
  const cutoff = [skipped[ROWS_SHOWN - 1]?.row, fills[ROWS_SHOWN - 1]?.row].reduce<number>((min, r) => (r !== undefined && r < min ? r : min), Infinity);
  const byRow = new Map<number, { fill?: StagedFill; errors?: { column?: string; message: string }[]; skipped?: string }>();
  for (const k of skipped) {
    if (k.row > cutoff) continue;
    byRow.set(k.row, { skipped: k.reason });
  }
  for (const f of fills) {
    if (f.row > cutoff) continue;
    byRow.set(f.row, { ...byRow.get(f.row), fill: f });
  }
  for (const e of errors) {
    if (e.row > cutoff) continue;
    const entry = byRow.get(e.row) ?? {};
    (entry.errors ??= []).push(e.column === undefined ? { message: e.message } : { column: e.column, message: e.message });
    byRow.set(e.row, entry);
  }
  return [...byRow.keys()]
    .sort((a, b) => a - b)
    .slice(0, ROWS_SHOWN)
    .map((row) => {
      const { fill, errors: rowErrors, skipped: reason } = byRow.get(row)!;
      if (reason !== undefined) return { row, status: "skipped" as const, reason };
      if (rowErrors) return { row, status: "invalid" as const, errors: rowErrors };
      return { row, status: fill!.duplicate ? ("duplicate" as const) : ("valid" as const), fill: toPreviewFill(fill!) };
    });
}

function toPreviewFill(f: StagedFill) {
  return {
    row: f.row,
    symbol: f.symbol,
    assetClass: f.asset_class,
    multiplier: formatDecimal(f.multiplier),
    side: f.side,
    quantity: formatDecimal(f.quantity),
    price: formatDecimal(f.price),
    fees: formatDecimal(f.fees),
    feesEstimated: Boolean(f.fees_estimated),
    ...(f.stop_price !== undefined ? { stopPrice: formatDecimal(f.stop_price) } : {}),
    ...(f.target_price !== undefined ? { targetPrice: formatDecimal(f.target_price) } : {}),
    executedAt: f.executed_at,
    executionId: f.execution_id,
    duplicate: Boolean(f.duplicate),
    /** When the trader deleted this execution by hand; the import brings it back. Null otherwise. */
    deletedAt: f.deleted_at ?? null,
  };
}

/** Logs why object storage failed (operation and status, never a credential) and answers 503. */
function storageFailure(deps: Pick<Deps, "log">, err: unknown): unknown {
  if (err instanceof StorageUnavailableError) deps.log.warn("object storage unavailable", { operation: err.operation, detail: err.detail });
  return err;
}

const PREVIEW_GONE = "The staged preview is no longer available; upload the file again.";

/**
 * The fills of an import staged in object storage, read before its commit (reading changes nothing). A
 * missing (or unreadable) object ends the import: the row is deleted and the caller gets 410; a store that
 * is down answers 503 and leaves the import staged.
 */
async function readStagedObject(deps: Pick<Deps, "db" | "now" | "storage" | "log">, user: AuthUser, importId: string, key: string): Promise<string> {
  let text: string | null = null;
  try {
    // Without storage (the variables were unset after this preview was staged) the object is unreachable.
    text = deps.storage ? await deps.storage.get(key) : null;
  } catch (err) {
    throw storageFailure(deps, err);
  }
  let valid = false;
  try {
    valid = text !== null && Array.isArray(JSON.parse(text));
  } catch {
    valid = false;
  }
  if (!valid) {
    deps.log.warn("staged import object missing or unreadable", { importId });
    const gone = await deps.db.delete(csvImports).where(and(eq(csvImports.id, importId), eq(csvImports.status, "staged"))).returning({ id: csvImports.id });
    // Committed meanwhile by another request (which removed the object): that one says so.
    if (!gone[0]) return claimFailure(deps, user, importId);
    await drainObjectDeletions(deps, [key]);
    throw new AppError("GONE", PREVIEW_GONE);
  }
  return text!;
}

/** Why a claim failed: 404 (not the user's), 410 (expired), 409 (already committing or committed). */
async function claimFailure(deps: Pick<Deps, "db" | "now">, user: AuthUser, importId: string): Promise<never> {
  const [row] = await deps.db
    .select({ status: csvImports.status, expiresAt: csvImports.expiresAt })
    .from(csvImports)
    .where(and(eq(csvImports.id, importId), eq(csvImports.userId, user.id)));
  if (!row) throw new AppError("NOT_FOUND", "No such import.");
  if (row.status === "staged" && row.expiresAt <= deps.now()) throw new AppError("GONE", "This preview has expired; upload the file again.");
  // Its parts still being written (import_commit takes a preview only whole).
  if (row.status === "staged") throw new AppError("CONFLICT", "This preview is still being staged; try again in a moment.");
  throw new AppError("CONFLICT", row.status === "committing" ? "This import is being committed." : `This import is already ${row.status}.`);
}

/**
 * Commits a staged import exactly once, all or nothing, in one statement (import_commit: the claim, staged
 * -> committing, conditional so of any number of concurrent commits exactly one proceeds, then
 * import_apply). A preview staged in object storage has its fills read first, so it commits the same way.
 */
export async function commitImport(
  deps: Pick<Deps, "db" | "now" | "storage" | "log" | "analytics">,
  user: AuthUser,
  importId: string,
  includeDuplicates = false,
) {
  const [own] = await deps.db
    .select({ ...IMPORT_COLUMNS, stagedKey: csvImports.stagedKey })
    .from(csvImports)
    .where(and(eq(csvImports.id, importId), eq(csvImports.userId, user.id), eq(csvImports.status, "staged")));
  const stagedKey = own?.stagedKey ?? null;
  const fills = stagedKey ? await readStagedObject(deps, user, importId, stagedKey) : null;
  // One statement commits the import and keeps the broker's rates it carried, and its answer is the answer: a
  // database lost just after it cannot turn a committed import into an error (the load harness found one).
  const [applied] = await deps.db
      .execute(
        sql`with c as (select import_commit(${importId}, ${user.id}, ${deps.now().toISOString()}::timestamptz, ${includeDuplicates}, ${fills}::jsonb) as written, now() as at),
          ${brokerRatesKept(user.id, importId, sql`exists (select 1 from c where c.written is not null)`)}
          select written, ${sql.raw(isoUtc("at"))} as at from c`,
      )
      .then((result) => rowsOf<{ written: number | null; at: string }>(result))
      .catch(async (err: unknown) => {
        // The connection lost with the statement's answer: it may have committed. Asked once more, the import
        // says so; if the database is still away, the 503 stands (and a retry answers what happened).
        if (isDatabaseUnavailable(err) && (await statusAfterLostAnswer(deps, user, importId)) === "committed") return [null];
        throw unstorable(deps, importId, err);
      });
  if (applied === null) return getImport(deps, user, importId);
  if (applied?.written === null || applied?.written === undefined) return claimFailure(deps, user, importId);
  // Staged only after the first read (its parts were still being written): read back what was committed.
  if (!own) return getImport(deps, user, importId);
  const { stagedKey: _key, ...row } = own;
  return committed(deps, user, { ...row, status: "committed", committedAt: new Date(applied.at), fillsCreated: applied.written }, stagedKey);
}

/**
 * The broker's own rates a committed import carried (docs/currencies.md), as CTEs of the commit's statement,
 * written when `when` holds: each date's rate of the account's currency to the broker's base, the last import's
 * winning; the user's rates' version moves when one changed, so figures in the base read them. Kept after an
 * undo: a rate the broker gave stays true.
 */
function brokerRatesKept(userId: string, importId: string, when: SQL): SQL {
  return sql`given as (
      select a.id as account_id, a.currency, r.base, r.day, r.k from csv_imports i join accounts a on a.id = i.account_id,
        jsonb_to_recordset(i.broker_rates) as r(day date, base text, k numeric)
      where i.id = ${importId}::uuid and i.broker_rates is not null and ${when}
    ),
    kept as (
      insert into fx_broker_rates as b (user_id, account_id, currency, base, day, k) select ${userId}::uuid, account_id, currency, base, day, k from given
      on conflict (account_id, base, day) do update set k = excluded.k, created_at = now() where b.k is distinct from excluded.k
      returning 1
    ),
    bumped as (update user_settings set fx_version = fx_version + 1 where user_id = ${userId}::uuid and exists (select 1 from kept) returning 1)`;
}

/** The import's status read once more after a statement lost its answer with its connection; null when that fails too. */
async function statusAfterLostAnswer(deps: Pick<Deps, "db">, user: AuthUser, importId: string): Promise<string | null> {
  try {
    return (await getImport(deps, user, importId)).status;
  } catch {
    return null;
  }
}

/** A value the database refused (class 22) as the trader's 400; any other failure as it is. */
function unstorable(deps: Pick<Deps, "log">, importId: string, err: unknown): unknown {
  const pg = pgError(err);
  if (!pg?.code.startsWith("22")) return err;
  deps.log.warn("import could not be written", { importId, code: pg.code });
  return new AppError("VALIDATION_ERROR", "This import holds a value the database cannot store, so nothing was written. It is still staged: discard it, fix the file and preview it again.", {
    fields: [{ path: "file", message: "holds a value the database cannot store" }],
  });
}

/** The committed import as the answer shows it; its object (import_apply cleared staged_key) removed now, or by the purge job. */
async function committed(deps: Pick<Deps, "db" | "storage" | "log" | "analytics">, user: AuthUser, row: ImportRow, stagedKey: string | null) {
  if (stagedKey) await drainObjectDeletions(deps, [stagedKey]).catch((err: unknown) => deps.log.warn("staged object left for the purge job", { importId: row.id, error: err instanceof Error ? err.message : String(err) }));
  const done = toImport(row);
  track(deps, "import committed", user.id, { fills: done.fillsCreated ?? 0 });
  return done;
}

/** Every column an answer shows: never `staged` (a preview's fills, up to CSV_IMPORT_MAX_STAGED_BYTES). */
const IMPORT_COLUMNS = {
  id: csvImports.id,
  accountId: csvImports.accountId,
  status: csvImports.status,
  fileName: csvImports.fileName,
  presetId: csvImports.presetId,
  createdAt: csvImports.createdAt,
  expiresAt: csvImports.expiresAt,
  committedAt: csvImports.committedAt,
  undoneAt: csvImports.undoneAt,
  summary: csvImports.summary,
  fillsCreated: csvImports.fillsCreated,
};

export async function getImport(deps: Pick<Deps, "db">, user: AuthUser, importId: string) {
  const [row] = await deps.db
    .select(IMPORT_COLUMNS)
    .from(csvImports)
    .where(and(eq(csvImports.id, importId), eq(csvImports.userId, user.id)));
  if (!row) throw new AppError("NOT_FOUND", "No such import.");
  return toImport(row);
}

type ImportRow = Pick<typeof csvImports.$inferSelect, keyof typeof IMPORT_COLUMNS>;

function toImport(row: ImportRow) {
  return {
    importId: row.id,
    accountId: row.accountId,
    status: row.status,
    fileName: row.fileName,
    presetId: row.presetId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    committedAt: row.committedAt?.toISOString() ?? null,
    undoneAt: row.undoneAt?.toISOString() ?? null,
    summary: row.summary,
    fillsCreated: row.fillsCreated,
  };
}

/** Discards a staged preview (and its object; if the store is down, the purge job removes it later). */
export async function discardImport(deps: Pick<Deps, "db" | "storage" | "log">, user: AuthUser, importId: string): Promise<void> {
  const gone = await deps.db
    .delete(csvImports)
    .where(and(eq(csvImports.id, importId), eq(csvImports.userId, user.id), eq(csvImports.status, "staged")))
    .returning({ id: csvImports.id, stagedKey: csvImports.stagedKey });
  if (!gone[0]) {
    await getImport(deps, user, importId); // 404 when it is not theirs
    throw new AppError("CONFLICT", "Only a staged preview can be discarded; undo a committed import instead.");
  }
  if (gone[0].stagedKey) await drainObjectDeletions(deps, [gone[0].stagedKey]);
}

export async function undoImport(deps: Pick<Deps, "db" | "analytics">, user: AuthUser, importId: string) {
  const before = await getImport(deps, user, importId);
  // The answer is built from the undoing statement's own result (its now() is undone_at), so a database lost
  // just after it cannot turn an undone import into an error.
  const [row] = await deps.db
    .execute(sql`select import_undo(${user.id}, ${importId}) as removed, ${sql.raw(isoUtc("now()"))} as at`)
    .then((result) => rowsOf<{ removed: number | null; at: string }>(result))
    .catch(async (err: unknown) => {
      if (isDatabaseUnavailable(err) && (await statusAfterLostAnswer(deps, user, importId)) === "undone") return [null];
      throw err;
    });
  if (row === null) return getImport(deps, user, importId);
  if (row?.removed === null || row?.removed === undefined) {
    const current = await getImport(deps, user, importId);
    throw new AppError("CONFLICT", `Only a committed import can be undone (this one is ${current.status}).`);
  }
  track(deps, "import undone", user.id, { fills: row.removed });
  return { ...before, status: "undone" as const, undoneAt: new Date(row.at).toISOString() };
}

/** Import history of one account, newest first, without previews that expired uncommitted. */
export async function importHistory(deps: Pick<Deps, "db">, user: AuthUser, accountId: string) {
  await requireOwnAccount(deps, user, accountId);
  const rows = await deps.db
    .select(IMPORT_COLUMNS)
    .from(csvImports)
    // A preview never committed leaves the history when it expires (the purge job deletes it soon after).
    .where(and(eq(csvImports.accountId, accountId), eq(csvImports.userId, user.id), sql`not (${csvImports.status} = 'staged' and ${csvImports.expiresAt} <= now())`))
    .orderBy(desc(csvImports.createdAt))
    .limit(200);
  return { imports: rows.map(toImport) };
}

/**
 * Job: staged previews past their lifetime, then every queued object (theirs, and any removal an earlier
 * request could not finish).
 */
export async function purgeExpiredImports(deps: Pick<Deps, "db" | "now" | "storage" | "log">): Promise<number> {
  const gone = await deps.db
    .delete(csvImports)
    .where(and(eq(csvImports.status, "staged"), sql`${csvImports.expiresAt} < ${deps.now()}`))
    .returning({ id: csvImports.id });
  await drainObjectDeletions(deps);
  return gone.length;
}

/** Job: commits interrupted between claim and apply (they wrote nothing: apply is all-or-nothing). */
export async function recoverOrphanedImports(deps: Pick<Deps, "db" | "now" | "config" | "storage" | "log">): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - deps.config.CSV_IMPORT_CLAIM_TIMEOUT_SECONDS * 1000);
  const gone = await deps.db
    .delete(csvImports)
    .where(and(eq(csvImports.status, "committing"), sql`${csvImports.claimedAt} < ${cutoff}`))
    .returning({ id: csvImports.id, stagedKey: csvImports.stagedKey });
  const keys = gone.flatMap((g) => (g.stagedKey ? [g.stagedKey] : []));
  if (keys.length) await drainObjectDeletions(deps, keys);
  return gone.length;
}
