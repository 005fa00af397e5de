// Price bars (docs/charts.md): 1-minute and daily OHLCV bars of a symbol, a user's own, for the trade chart
// and the excursions. They come from the bar provider on the user's key (lib/market/bar-provider.ts) or
// from a candle CSV the user uploads; either way bars_store writes them and marks the days they cover.
// The candle CSV itself is read in lib/market/bars-upload.ts, apart, so the chart's Workers carry no CSV parser.
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { wallClock } from "../time/zoned.ts";
import { resolveInstrument } from "../instruments/instruments.ts";

/** What the stored bars are: 1-minute and daily. */
export const BAR_RESOLUTIONS = ["1m", "1d"] as const;
export type BarResolution = (typeof BAR_RESOLUTIONS)[number];

/** The zone of the trading day a 1-minute bar belongs to (US markets). */
export const MARKET_ZONE = "America/New_York";

/**
 * Largest candle CSV: 50,000 bars (half a year of regular-hours 1-minute bars, 200 years of daily ones), so
 * one statement writes it within what the serverless driver carries; upload a long history month by month.
 */
export const BARS_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const BARS_UPLOAD_MAX_ROWS = 50_000;

/** A bar as stored: its start (ISO 8601) and decimal strings. */
export type Bar = { t: string; open: string; high: string; low: string; close: string; volume: string };

/** The day key of an instant: its New York date for 1-minute bars, the first of its New York month for daily ones. */
export function dayKey(at: Date, resolution: BarResolution): string {
  const w = wallClock(at.getTime(), MARKET_ZONE);
  const pad = (n: number) => String(n).padStart(2, "0");
  return resolution === "1m" ? `${w.year}-${pad(w.month)}-${pad(w.day)}` : `${w.year}-${pad(w.month)}-01`;
}

/** The day keys (dayKey) a set of bars covers, each once. */
export const daysOf = (bars: readonly Bar[], resolution: BarResolution) => [...new Set(bars.map((b) => dayKey(new Date(b.t), resolution)))];

/** Writes bars of a user's symbol and marks the days they cover (see bars_store); returns how many were written. */
export async function storeBars(deps: Pick<Deps, "db">, userId: string, symbol: string, resolution: BarResolution, source: "provider" | "upload", bars: readonly Bar[], days: readonly string[]) {
  const json = JSON.stringify(bars.map((b) => [b.t, b.open, b.high, b.low, b.close, b.volume]));
  const [row] = rowsOf<{ written: number | string }>(
    await deps.db.execute(sql`select bars_store(${userId}::uuid, ${symbol}, ${resolution}, ${source}, ${json}::jsonb, ${`{${days.join(",")}}`}::text[]) as written`),
  );
  return Number(row?.written ?? 0);
}

/** A symbol that can have bars: a stock or a futures contract (options are charted by their fills). */
export function chartableSymbol(symbol: string): string {
  const instrument = resolveInstrument({ symbol });
  if (instrument.assetClass === "option") {
    throw new AppError("VALIDATION_ERROR", "Options are charted by their fills: bars are of stocks and futures.", {
      fields: [{ path: "symbol", message: "must be a stock or futures symbol" }],
    });
  }
  return instrument.symbol;
}
