// A candle CSV the user uploads (POST /api/bars/upload, and an archive's bars): read, checked row by row, and
// stored as their bars of the symbol, all or nothing (docs/charts.md).
import Papa from "papaparse";
import type { AuthUser } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { decodeCsv, parseNumber } from "../imports/normalize.ts";
import { toUnits } from "../money.ts";
import { inStoredRange } from "../time/range.ts";
import { BARS_UPLOAD_MAX_ROWS, chartableSymbol, daysOf, storeBars, type Bar, type BarResolution } from "./bars.ts";

export type RowProblem = { path: string; message: string };

const COLUMNS = ["time", "open", "high", "low", "close", "volume"] as const;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A bar's time: ISO 8601 with an offset (or Z), or epoch seconds. */
function parseBarTime(raw: string): Date | null {
  if (/^\d{9,11}$/.test(raw)) return new Date(Number(raw) * 1000);
  if (!ISO_WITH_OFFSET.test(raw)) return null;
  const at = new Date(raw.replace(" ", "T"));
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * Reads a candle CSV: a header naming time, open, high, low, close and volume (any order, any case; volume
 * may be left out), one bar per row. Every bad row is listed (at most 20), and no bar is returned if any is.
 */
export function parseCandleCsv(text: string): { bars: Bar[]; problems: RowProblem[] } {
  const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: "greedy" });
  const rows = parsed.data;
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const at: Record<string, number> = {};
  for (const c of COLUMNS) at[c] = header.indexOf(c);
  const missing = COLUMNS.filter((c) => c !== "volume" && at[c]! < 0);
  if (missing.length) {
    throw new AppError("VALIDATION_ERROR", `The file's first row must name the columns time, open, high, low, close and volume; ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing.`, {
      fields: [{ path: "file", message: `has no ${missing.join(", ")} column` }],
    });
  }
  if (rows.length - 1 > BARS_UPLOAD_MAX_ROWS) {
    throw new AppError("PAYLOAD_TOO_LARGE", `The file has ${rows.length - 1} bars; at most ${BARS_UPLOAD_MAX_ROWS} can be uploaded at once.`);
  }
  const bars: Bar[] = [];
  const problems: RowProblem[] = [];
  const seen = new Set<number>();
  for (let i = 1; i < rows.length && problems.length < 20; i++) {
    const cells = rows[i]!;
    const row = i + 1;
    const cell = (c: string) => (at[c]! < 0 ? "" : (cells[at[c]!] ?? "").trim());
    const fail = (column: string, message: string) => problems.push({ path: `rows.${row}.${column}`, message: `row ${row}: ${column} ${message}` });
    const time = parseBarTime(cell("time"));
    if (!time || !inStoredRange(time.getTime())) {
      fail("time", `"${cell("time").slice(0, 40)}" is not an ISO 8601 time with an offset or epoch seconds`);
      continue;
    }
    if (seen.has(time.getTime())) {
      fail("time", "repeats an earlier row's time");
      continue;
    }
    seen.add(time.getTime());
    const values: Record<string, string> = {};
    let ok = true;
    for (const c of ["open", "high", "low", "close", "volume"] as const) {
      const raw = cell(c);
      if (c === "volume" && raw === "") {
        values[c] = "0";
        continue;
      }
      const n = parseNumber(raw, "1,234.56");
      if (n === null || n.startsWith("-")) {
        fail(c, `"${raw.slice(0, 40)}" is not a number of zero or more`);
        ok = false;
      } else values[c] = n;
    }
    if (!ok) continue;
    const [o, h, l, cl] = [values.open!, values.high!, values.low!, values.close!].map(toUnits) as [bigint, bigint, bigint, bigint];
    if (h < o || h < cl || h < l) {
      fail("high", "is below the bar's open, low or close");
      continue;
    }
    if (l > o || l > cl) {
      fail("low", "is above the bar's open or close");
      continue;
    }
    bars.push({ t: time.toISOString(), open: values.open!, high: values.high!, low: values.low!, close: values.close!, volume: values.volume! });
  }
  if (rows.length < 2 && problems.length === 0) problems.push({ path: "file", message: "holds no bars: one row per bar after the header" });
  return { bars: problems.length ? [] : bars.sort((a, b) => a.t.localeCompare(b.t)), problems };
}

/** POST /api/bars/upload: a candle CSV stored as the user's bars of the symbol, all or nothing. */
export async function uploadBars(deps: Pick<Deps, "db">, user: AuthUser, input: { symbol: string; resolution: BarResolution; bytes: Uint8Array }) {
  const symbol = chartableSymbol(input.symbol);
  const { bars, problems } = parseCandleCsv(decodeCsv(input.bytes));
  if (problems.length) {
    throw new AppError("VALIDATION_ERROR", `${problems.length === 1 ? "A row" : "Some rows"} of the file are not bars (each is named below); nothing was stored.`, { fields: problems });
  }
  await storeBars(deps, user.id, symbol, input.resolution, "upload", bars, daysOf(bars, input.resolution));
  return { symbol, resolution: input.resolution, bars: bars.length, from: bars[0]!.t, to: bars.at(-1)!.t };
}
