// A column mapping suggested by the trader's own model (docs/imports.md, "Any CSV"): for a file no preset reads
// and the rules could not fully map, when the trader asks for it. The model gets the header and the first
// MODEL_SAMPLE_ROWS rows (nothing else of the journal) through the same seam as the advisor (deps.model, the AI
// SDK), metered like a turn when billing is on. Its answer is only a suggestion: every field must name a column
// of the header and every option must be one the import knows, or it is dropped; the trader confirms the
// mapping in the form, and nothing is imported on a guess.
import * as z from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { DATE_FORMATS, type ImportMapping, type ImportOptions } from "../imports/schema.ts";
import type { Suggestion } from "../imports/suggest.ts";
import { askOnce } from "./ask-once.ts";
import type { ProviderFailure } from "./model.ts";
import type { ModelProvider } from "../providers/providers.ts";
import { PROVIDER_NAMES } from "../providers/schema.ts";

/** Rows of the file the model is shown (the header besides). */
export const MODEL_SAMPLE_ROWS = 5;
const MAX_OUTPUT_TOKENS = 1500;
const CALL_TIMEOUT_MS = 60_000;

/** The fields the model may fill: the ones a broker's trade list usually has (the form offers the rest). */
const FIELDS = ["executedAt", "date", "time", "symbol", "side", "quantity", "price", "fees", "executionId", "assetClass", "multiplier", "contract", "netAmount", "currency"] as const;

const INSTRUCTIONS = `You map the columns of a broker's CSV export of trade executions to the fields of a trading journal's import.
Answer with one JSON object and nothing else:
{"mapping": {"<field>": "<a column name copied exactly from the header>"}, "options": {"dateFormat": "iso" | "MM/DD/YYYY" | "DD/MM/YYYY" | "YYYYMMDD", "numberFormat": "1,234.56" | "1.234,56", "sideFromQuantitySign": true | false}, "notes": ["<one short sentence the trader should check>"]}
Fields: executedAt (the execution's date and time in one column), date and time (when they are two columns; then no executedAt), symbol (the ticker or contract), side (buy or sell), quantity, price (per share or contract), fees (commission), executionId (the broker's id of the execution), assetClass, multiplier, contract (a text naming an option contract), netAmount (the row's net cash), currency.
Leave out every field no column holds; never invent a column. sideFromQuantitySign is true only when there is no side column and sells are negative quantities. At most three notes.`;

const AnswerSchema = z.looseObject({
  mapping: z.record(z.string(), z.unknown()),
  options: z.optional(z.record(z.string(), z.unknown())),
  notes: z.optional(z.array(z.unknown())),
});

export type ModelSuggestion = Suggestion & { source: "model"; savedAt: null; provider: ModelProvider; model: string };

/** The model's text as a suggestion: only what names a real column or a known option is kept. */
export function suggestionFromAnswer(text: string, header: readonly string[]): Suggestion | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const parsed = z.safeParse(AnswerSchema, raw);
  if (!parsed.success) return null;
  const columns = new Map(header.filter((h) => h.trim() !== "").map((h) => [h.trim().toLowerCase(), h]));
  const mapping: Partial<ImportMapping> = {};
  for (const field of FIELDS) {
    const named = parsed.data.mapping[field];
    const column = typeof named === "string" ? columns.get(named.trim().toLowerCase()) : undefined;
    if (column !== undefined) mapping[field] = column;
  }
  if (!Object.keys(mapping).length) return null;
  if (mapping.executedAt && (mapping.date || mapping.time)) delete mapping.executedAt;
  const given = parsed.data.options ?? {};
  const options: ImportOptions = {};
  if (DATE_FORMATS.includes(given.dateFormat as (typeof DATE_FORMATS)[number])) options.dateFormat = given.dateFormat as ImportOptions["dateFormat"];
  if (given.numberFormat === "1,234.56" || given.numberFormat === "1.234,56") options.numberFormat = given.numberFormat;
  if (given.sideFromQuantitySign === true && !mapping.side) options.sideFromQuantitySign = true;
  const notes = (parsed.data.notes ?? [])
    .filter((n): n is string => typeof n === "string" && n.trim() !== "")
    .slice(0, 3)
    .map((n) => (n.length > 300 ? `${n.slice(0, 297)}...` : n.trim()));
  return { mapping, options, notes };
}

const failureError = (failure: ProviderFailure) =>
  failure.keyRefused ? new AppError("PROVIDER_KEY_INVALID", failure.message) : new AppError("SERVICE_UNAVAILABLE", failure.message, { headers: { "Retry-After": "30" } });

/**
 * POST /api/advisor/import-mapping: the trader's model reads the header and the first rows and suggests the
 * mapping. 409 PROVIDER_KEY_REQUIRED without a key of that provider; with billing on, 409 MODEL_NOT_PRICED or
 * 402 INSUFFICIENT_CREDITS as for a turn, and the call's tokens charged.
 */
export async function suggestMappingByModel(
  deps: Pick<Deps, "db" | "config" | "now" | "log" | "model">,
  user: AuthUser,
  request: { provider: ModelProvider; model?: string | undefined; header: string[]; rows: string[][] },
): Promise<ModelSuggestion> {
  const name = PROVIDER_NAMES[request.provider];
  const sample = request.rows.slice(0, MODEL_SAMPLE_ROWS);
  const text = `Header: ${JSON.stringify(request.header)}\nFirst rows:\n${sample.map((r) => JSON.stringify(r)).join("\n")}`;
  const { text: answer, model, finished, failure } = await askOnce(deps, user.id, {
    provider: request.provider,
    model: request.model,
    instructions: INSTRUCTIONS,
    text,
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  if (!finished && failure) throw failureError(failure);
  const suggestion = suggestionFromAnswer(answer, request.header);
  if (!suggestion) {
    throw new AppError("SERVICE_UNAVAILABLE", `${name}'s answer was not a mapping of this file's columns. The form keeps what it had: map the columns yourself, or ask again.`);
  }
  return {
    ...suggestion,
    notes: [`Suggested by ${model} from the column names and the first ${sample.length} rows: check each column before previewing.`, ...suggestion.notes],
    source: "model",
    savedAt: null,
    provider: request.provider,
    model,
  };
}
