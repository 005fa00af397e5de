// Reading the start of a CSV file in the browser: enough to find its header row, pick a broker preset and
// offer the header's columns for a manual mapping. The server parses the whole file again (papaparse); this
// only has to agree with it on the first rows, so a small quote-aware splitter is enough.
import type { ImportMapping, ImportOptions } from "../../../../lib/imports/schema.ts";
import { COLUMN_NAMES, columnKey } from "../../../../lib/imports/column-names.ts";

export type PresetLike = { id: string; name: string; headers: string[]; mapping: ImportMapping; options: ImportOptions };

export type Delimiter = "," | ";" | "\t" | "|";
const DELIMITERS: readonly Delimiter[] = [",", ";", "\t", "|"];

/** How much of the file is read for detection: statements put their trades section well below the top. */
export const SNIFF_BYTES = 256 * 1024;

/** Counts each candidate delimiter outside quotes on the first non-blank line; the most frequent wins. */
export function detectDelimiter(text: string): Delimiter {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  let best: Delimiter = ",";
  let bestCount = 0;
  for (const d of DELIMITERS) {
    let count = 0;
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) count++;
    }
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Splits CSV text into rows of cells (RFC 4180 quotes, doubled quotes, newlines inside quotes). When the
 * text is a cut-off start of a file, `partial` drops the last row, which may be incomplete.
 */
export function parseCsvRows(text: string, delimiter: Delimiter, partial = false): string[][] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let i = 0;
  while (i < body.length) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === "") quoted = true;
    else if (ch === delimiter) {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      if (ch === "\r" && body[i + 1] === "\n") i++;
    } else cell += ch;
    i++;
  }
  const ended = body.endsWith("\n") || body.endsWith("\r");
  if (!ended && (cell !== "" || row.length > 0)) {
    row.push(cell);
    if (!partial) rows.push(row);
  }
  return rows;
}

const normal = (cell: string) => cell.trim().replace(/\s+/g, " ").toLowerCase();
const isBlank = (row: string[]) => row.every((c) => c.trim() === "");

/** The columns a preset reads (mapping, extra fees, row filters): all must be in the header for it to fit. */
export function presetColumns(preset: PresetLike): string[] {
  const m = preset.mapping;
  const cols = [m.executedAt, m.date, m.time, m.symbol, m.side, m.quantity, m.price, m.fees, m.executionId, m.orderId, m.assetClass, m.multiplier, m.currency];
  for (const c of m.extraFees ?? []) cols.push(c);
  for (const f of preset.options.rowFilters ?? []) cols.push(f.column);
  return cols.filter((c): c is string => c !== undefined && c !== "");
}

/** The header row the server would use with these options: the first row holding `headerRowContains`, else the first non-blank row. */
export function findHeaderRow(rows: string[][], headerRowContains?: string[]): { index: number; cells: string[] } | null {
  if (headerRowContains?.length) {
    const wanted = headerRowContains.map(normal);
    const index = rows.findIndex((r) => {
      const cells = new Set(r.map(normal));
      return wanted.every((w) => cells.has(w));
    });
    return index < 0 ? null : { index, cells: rows[index]!.map((c) => c.trim()) };
  }
  const index = rows.findIndex((r) => !isBlank(r));
  return index < 0 ? null : { index, cells: rows[index]!.map((c) => c.trim()) };
}

export type PresetMatch = {
  preset: PresetLike;
  /** Share of the preset's named headers found in the file's header row (0..1). */
  score: number;
  header: string[];
};

/**
 * The preset whose header row this file has. A preset fits only when every column it reads is present;
 * among those, the one whose full header row is best covered wins (so a broker's own preset beats the
 * generic template when both fit). Null when none fits.
 */
export function detectPreset(rows: string[][], presets: readonly PresetLike[]): PresetMatch | null {
  let best: PresetMatch | null = null;
  for (const preset of presets) {
    const header = findHeaderRow(rows, preset.options.headerRowContains);
    if (!header) continue;
    const have = new Set(header.cells.map(normal));
    // A column named by its number (an unnamed one, as DEGIRO's currencies) only has to exist.
    if (!presetColumns(preset).every((c) => have.has(normal(c)) || (/^\d+$/.test(c) && Number(c) <= header.cells.length))) continue;
    const named = preset.headers.filter((h) => h.trim() !== "");
    const score = named.length ? named.filter((h) => have.has(normal(h))).length / named.length : 0;
    if (!best || score > best.score || (score === best.score && named.length > best.preset.headers.length)) {
      best = { preset, score, header: header.cells };
    }
  }
  return best;
}

/** The fields a mapping can fill, in the order the manual mapping form shows them. */
export const TARGET_FIELDS = [
  { key: "executedAt", label: "Date and time", hint: "One column with the date and time of the fill." },
  { key: "date", label: "Date (separate column)", hint: "When date and time are in two columns." },
  { key: "time", label: "Time (separate column)", hint: "With a date column, or alone with a trade date below." },
  { key: "symbol", label: "Symbol", hint: "Required." },
  { key: "side", label: "Side", hint: "Buy or sell. Leave empty when sells have negative quantities." },
  { key: "quantity", label: "Quantity", hint: "Required." },
  { key: "price", label: "Price", hint: "Required." },
  { key: "fees", label: "Fees", hint: "Commission and fees of the fill." },
  { key: "executionId", label: "Execution ID", hint: "The broker's fill id: makes re-imports skip exact duplicates." },
  { key: "orderId", label: "Order ID", hint: "The broker's order: the legs of one multi-leg option order make one strategy." },
  { key: "assetClass", label: "Asset class", hint: "" },
  { key: "multiplier", label: "Multiplier", hint: "Contract multiplier (options, futures)." },
  { key: "currency", label: "Currency", hint: "Each row's currency: rows in another currency than the account's are refused, not converted." },
  { key: "stopPrice", label: "Stop", hint: "The trade's stop: goes onto the trade the fill joins, unless it has one already." },
  { key: "targetPrice", label: "Target", hint: "The trade's profit target, likewise." },
] as const;

export type TargetField = (typeof TARGET_FIELDS)[number]["key"];
/** The form's state: one chosen column (or "") per target field. */
export type MappingSelection = Record<TargetField, string>;

export const emptySelection = (): MappingSelection =>
  Object.fromEntries(TARGET_FIELDS.map((f) => [f.key, ""])) as MappingSelection;

/**
 * A first guess at the mapping from header names alone (the names the server's suggestion uses too:
 * lib/imports/column-names.ts), shown until that suggestion arrives; the reader checks and corrects it.
 */
export function guessSelection(header: readonly string[]): MappingSelection {
  const out = emptySelection();
  const used = new Set<string>();
  for (const { key } of TARGET_FIELDS) {
    const hit = header.find((h) => h !== "" && !used.has(h) && COLUMN_NAMES[key].test(columnKey(h)));
    if (hit) {
      out[key] = hit;
      used.add(hit);
    }
  }
  // One column with date and time wins over separate guesses that landed on the same kind of column.
  if (out.executedAt) {
    out.date = "";
    if (out.time) used.delete(out.time);
    out.time = "";
  }
  return out;
}

/** A preset's mapping as the form's selection (to start a manual mapping from a detected preset). */
export function selectionFromMapping(mapping: ImportMapping): MappingSelection {
  const out = emptySelection();
  for (const { key } of TARGET_FIELDS) out[key] = mapping[key] ?? "";
  return out;
}

export type MappingProblem = { field: TargetField; message: string };

/**
 * The mapping the API takes, from the form's selection, or the problems that keep it from being one.
 * Mirrors the server's rules so the reader hears about them before uploading.
 */
export function buildMapping(
  selection: MappingSelection,
  opts: { sideFromQuantitySign?: boolean; tradeDate?: string; extraFees?: string[] } = {},
): { mapping: ImportMapping; problems: [] } | { mapping: null; problems: MappingProblem[] } {
  const problems: MappingProblem[] = [];
  for (const key of ["symbol", "quantity", "price"] as const) {
    if (!selection[key]) problems.push({ field: key, message: "must be chosen" });
  }
  const hasWhen = selection.executedAt !== "" || selection.date !== "" || (selection.time !== "" && Boolean(opts.tradeDate));
  if (!hasWhen) {
    problems.push({
      field: "executedAt",
      message: selection.time ? "needs a date column, or a trade date for a file with times only" : "must be chosen (or a date column)",
    });
  }
  if (selection.executedAt && (selection.date || selection.time)) {
    problems.push({ field: "date", message: "must be empty when one column holds the date and time" });
  }
  if (!selection.side && !opts.sideFromQuantitySign) {
    problems.push({ field: "side", message: "must be chosen, or tick “negative quantity means sell”" });
  }
  const chosen = TARGET_FIELDS.map((f) => selection[f.key]).filter((c) => c !== "");
  const twice = chosen.find((c, i) => chosen.indexOf(c) !== i);
  if (twice) {
    const field = TARGET_FIELDS.filter((f) => selection[f.key] === twice)[1]!.key;
    problems.push({ field, message: `uses the column “${twice}”, which is already mapped` });
  }
  if (problems.length) return { mapping: null, problems };
  const mapping: Record<string, string | string[]> = {};
  for (const { key } of TARGET_FIELDS) if (selection[key]) mapping[key] = selection[key];
  if (opts.extraFees?.length) mapping.extraFees = opts.extraFees;
  return { mapping: mapping as ImportMapping, problems: [] };
}

/** Column choices for a file without a header row: the API takes 1-based column numbers. */
export function numberedColumns(firstRow: readonly string[]): { value: string; label: string }[] {
  return firstRow.map((cell, i) => ({ value: String(i + 1), label: `Column ${i + 1}${cell.trim() ? ` (e.g. “${cell.trim().slice(0, 24)}”)` : ""}` }));
}

/** Reads the start of a file as text (UTF-8): the part detection needs, never the whole file. */
export async function readFileStart(file: Blob, bytes = SNIFF_BYTES): Promise<{ text: string; complete: boolean }> {
  const slice = file.slice(0, bytes);
  const text = await slice.text();
  return { text, complete: file.size <= bytes };
}
