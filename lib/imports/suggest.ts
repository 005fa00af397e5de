// A mapping suggested for a file no preset reads (docs/imports.md, "Any CSV"): from its header and a few of its
// rows, by rules. Names first (a column called "Qty" is the quantity), checked against the values (a "Price"
// column must hold numbers); then the values alone for what the names did not find (a column of BUY and SELL
// is the side, one of dates and times is when). It also reads the options the values give away: the date
// order (a day above 12), a decimal comma, sells written as negative quantities. The trader confirms it in the
// mapping form; nothing is imported on a guess.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { requireOwnAccount } from "../accounts/accounts.ts";
import type { AuthUser } from "../auth/session.ts";
import { isoUtc, rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import type { ImportMapping, ImportOptions, SuggestRequest } from "./schema.ts";
import { COLUMN_NAMES, columnKey, type ColumnField } from "./column-names.ts";
import { parseNumber, sideOf } from "./normalize.ts";

export type Suggestion = {
  mapping: Partial<ImportMapping>;
  options: ImportOptions;
  /** What the trader should check, in words ("the dates could be day or month first: read as month first"). */
  notes: string[];
};

/** Where a suggestion comes from: the trader's own mapping for this header (and when it was last used), or the rules. */
export type SuggestionAnswer = Suggestion & { source: "saved" | "rules"; savedAt: string | null };

/** One key per header layout: its cells trimmed, lowercased and joined, hashed (a header can be long). */
function headerKey(header: readonly string[]): string {
  return createHash("sha256").update(header.map((h) => h.trim().toLowerCase()).join("\u001f"), "utf8").digest("hex");
}

/**
 * A preview that read rows with the trader's own mapping keeps it (with its options: date format, number
 * format...) for the account and this header; the next file with the same header is offered it again.
 */
export async function rememberMapping(deps: Pick<Deps, "db">, accountId: string, header: readonly string[], mapping: ImportMapping, options: ImportOptions): Promise<void> {
  // The day of a time-only file is the file's, not the layout's.
  const { tradeDate: _day, ...kept } = options;
  await deps.db.execute(sql`insert into import_mappings (account_id, header_key, header, mapping, options)
    values (${accountId}::uuid, ${headerKey(header)}, ${JSON.stringify(header)}::jsonb, ${JSON.stringify(mapping)}::jsonb, ${JSON.stringify(kept)}::jsonb)
    on conflict (account_id, header_key) do update set mapping = excluded.mapping, options = excluded.options, header = excluded.header, used_at = now()`);
}

/**
 * POST /api/csv-import/suggest: the mapping the account used for this header before, else the rules'
 * suggestion. The header and the sample rows come from the import page, which has read the file's start.
 */
export async function suggestFor(deps: Pick<Deps, "db">, user: AuthUser, request: SuggestRequest): Promise<SuggestionAnswer> {
  if (request.accountId) {
    await requireOwnAccount(deps, user, request.accountId);
    const [saved] = rowsOf<{ mapping: ImportMapping | string; options: ImportOptions | string; used_at: string }>(
      await deps.db.execute(sql`select mapping, options, ${sql.raw(isoUtc("used_at"))} as used_at from import_mappings
        where account_id = ${request.accountId}::uuid and header_key = ${headerKey(request.header)}`),
    );
    if (saved) {
      const parse = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);
      return { mapping: parse(saved.mapping), options: parse(saved.options), notes: [], source: "saved", savedAt: saved.used_at };
    }
  }
  return { ...suggestMapping(request.header, request.rows), source: "rules", savedAt: null };
}

/** The fields the suggestion fills (COLUMN_NAMES has each field's header names). */
type Field = ColumnField;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DMY = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/;
const DMY_TIME = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})[ T,]+\d{1,2}:\d{2}(:\d{2})?\s*([AaPp][Mm])?$/;
const COMPACT_DATE_TIME = /^\d{8}[;, T]\d{6}$/;
const TIME = /^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*([AaPp][Mm])?$/;
const TICKER = /^[A-Za-z][A-Za-z0-9.\-/ ]{0,24}$/;
const CURRENCY = /^[A-Z]{3}$/;

type Kind = "dateTime" | "date" | "time" | "side" | "number" | "text";

type Column = {
  index: number;
  name: string;
  /** The name as matched: lowercase, underscores as spaces, spaces collapsed. */
  key: string;
  values: string[];
  kind: Kind;
  negative: boolean;
  integers: boolean;
};

const every = (values: string[], test: (v: string) => boolean) => values.length > 0 && values.every(test);

function kindOf(values: string[]): Kind {
  if (every(values, (v) => ISO_DATE_TIME.test(v) || DMY_TIME.test(v) || COMPACT_DATE_TIME.test(v))) return "dateTime";
  if (every(values, (v) => ISO_DATE.test(v) || DMY.test(v))) return "date";
  if (every(values, (v) => TIME.test(v))) return "time";
  if (every(values, (v) => sideOf(v, {}) !== null)) return "side";
  if (every(values, (v) => parseNumber(v, "1,234.56") !== null || parseNumber(v, "1.234,56") !== null)) return "number";
  return "text";
}

/** Whether the numbers are written with a decimal comma ("191,50", "1.234,56"): two digits or fewer after a lone comma, or a dot grouping before one. */
function decimalComma(columns: Column[]): boolean {
  return columns.some((c) => c.kind === "number" && c.values.some((v) => /^-?\d+,\d{1,2}$/.test(v.trim()) || /^-?\d{1,3}(\.\d{3})+,\d+$/.test(v.trim())));
}

/** The date order the values prove (a day above 12), or month first when none does, noted. */
function dateFormatOf(values: string[], notes: string[]): ImportOptions["dateFormat"] {
  if (values.some((v) => ISO_DATE.test(v.slice(0, 10)))) return "iso";
  if (values.some((v) => /^\d{8}/.test(v))) return "YYYYMMDD";
  let dayFirst = false;
  let monthFirst = false;
  for (const v of values) {
    const m = /^(\d{1,2})[/.-](\d{1,2})[/.-]/.exec(v);
    if (!m) continue;
    if (Number(m[1]) > 12) dayFirst = true;
    if (Number(m[2]) > 12) monthFirst = true;
  }
  if (dayFirst && !monthFirst) return "DD/MM/YYYY";
  if (monthFirst && !dayFirst) return "MM/DD/YYYY";
  // Dots (19.01.2024) are written day first wherever they are used.
  if (values.some((v) => /^\d{1,2}\.\d{1,2}\./.test(v))) return "DD/MM/YYYY";
  notes.push("No date in the sample has a day above 12, so the dates could be day or month first: they are read as month first (MM/DD/YYYY). Check the date format.");
  return "MM/DD/YYYY";
}

/**
 * The suggestion for a header and some of the rows under it (the first 20 are plenty). Columns without a
 * value in the sample are matched by name only.
 */
export function suggestMapping(header: readonly string[], rows: readonly (readonly string[])[]): Suggestion {
  const sample = rows.filter((r) => r.some((c) => c.trim() !== "")).slice(0, 50);
  const columns: Column[] = header.map((name, index) => {
    const values = sample.map((r) => (r[index] ?? "").trim()).filter((v) => v !== "" && !/^-+$/.test(v));
    const kind = kindOf(values);
    const numbers = kind === "number" ? values.map((v) => parseNumber(v, "1,234.56") ?? parseNumber(v, "1.234,56") ?? "") : [];
    return {
      index,
      name,
      key: columnKey(name),
      values,
      kind,
      negative: numbers.some((n) => n.startsWith("-")),
      integers: numbers.length > 0 && numbers.every((n) => /^-?\d+(\.0+)?$/.test(n)),
    };
  });
  const used = new Set<number>();
  const chosen: Partial<Record<Field, Column>> = {};
  const notes: string[] = [];
  const take = (field: Field, column: Column | undefined) => {
    if (!column || used.has(column.index)) return;
    chosen[field] = column;
    used.add(column.index);
  };
  /** Whether a column's values suit a field (an empty column suits any: its name decides). */
  const suits = (field: Field, c: Column): boolean => {
    if (c.values.length === 0) return true;
    switch (field) {
      case "executedAt":
        return c.kind === "dateTime";
      case "date":
        return c.kind === "date" || c.kind === "dateTime";
      case "time":
        return c.kind === "time";
      case "side":
        return c.kind === "side";
      case "quantity":
      case "price":
      case "fees":
      case "multiplier":
        return c.kind === "number";
      case "stopPrice":
      case "targetPrice":
        return c.kind === "number" && !c.negative;
      case "assetClass":
        return c.kind === "text";
      case "symbol":
        return c.kind === "text" && c.values.every((v) => TICKER.test(v));
      case "currency":
        return c.values.every((v) => CURRENCY.test(v.toUpperCase()));
      case "executionId":
      case "orderId":
        return true;
    }
  };
  const byName = (field: Field) => columns.find((c) => !used.has(c.index) && COLUMN_NAMES[field].test(c.key) && suits(field, c));

  // 1. Names the values agree with, most specific first (a "Date/Time" column before a "Date" one).
  for (const field of ["executedAt", "side", "quantity", "price", "fees", "executionId", "orderId", "currency", "symbol", "date", "time", "assetClass", "multiplier", "stopPrice", "targetPrice"] as const) take(field, byName(field));
  // 2. The values alone, for what the names did not find.
  const free = (kind: Kind) => columns.filter((c) => !used.has(c.index) && c.kind === kind);
  if (!chosen.executedAt && !chosen.date) {
    if (free("dateTime")[0]) take("executedAt", free("dateTime")[0]);
    else take("date", free("date")[0]);
  }
  if (chosen.date && !chosen.time) take("time", free("time")[0]);
  if (!chosen.side) take("side", free("side")[0]);
  if (!chosen.symbol) take("symbol", columns.find((c) => !used.has(c.index) && suits("symbol", c) && c.values.length > 0 && c.values.some((v) => /[A-Z]/.test(v))));
  const numbers = () => free("number");
  if (!chosen.quantity) {
    // Sizes are whole numbers more often than prices are.
    take("quantity", numbers().find((c) => c.integers) ?? numbers()[0]);
  }
  if (!chosen.price) take("price", numbers().find((c) => !c.integers && !c.negative) ?? numbers().find((c) => !c.negative));
  if (chosen.executedAt && chosen.date) delete chosen.date;

  const mapping: Partial<ImportMapping> = {};
  for (const [field, column] of Object.entries(chosen) as Array<[Field, Column]>) mapping[field] = column.name;

  const options: ImportOptions = {};
  const when = chosen.executedAt ?? chosen.date;
  if (when) options.dateFormat = dateFormatOf(when.values, notes);
  if (decimalComma(columns)) options.numberFormat = "1.234,56";
  if (!chosen.side && chosen.quantity?.negative) {
    options.sideFromQuantitySign = true;
    notes.push(`There is no side column and "${chosen.quantity.name}" has negative numbers: negative quantities are read as sells.`);
  }
  for (const field of ["symbol", "quantity", "price"] as const) {
    if (!chosen[field]) notes.push(`No column looks like the ${field}: choose it.`);
  }
  if (!when) notes.push("No column looks like the date and time of the fill: choose it.");
  if (!chosen.side && !options.sideFromQuantitySign) notes.push("No column looks like the side (buy or sell): choose it.");
  return { mapping, options, notes };
}
