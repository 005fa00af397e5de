// A trade's chart (docs/charts.md, "The chart"): its bars around it, every fill, the average cost while it
// was open, the plan's stop and target, and its running P&L. Bars are the user's own: stored ones are read;
// with a bar provider key the days missing are queued and the first few fetched now (lib/market/bar-queue.ts),
// the rest arrive by the fetch-bars job and the answer says which are still missing. Options are drawn by
// their fills only. A provider that fails never makes this fail: the chart says what is missing.
import * as z from "zod/mini";
import { sql } from "drizzle-orm";
import { BARS } from "../advisor/providers.ts";
import type { AuthUser } from "../auth/session.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { formatDecimal, fromUnits, toUnits } from "../money.ts";
import { averageCostLine, type ChartFill } from "./running-pnl.ts";
import { fetchDaysNow, queueBarDays, type DayRow } from "./bar-queue.ts";
import { dayKey, type BarResolution } from "./bars.ts";

export const CHART_RESOLUTIONS = ["1m", "5m", "15m", "1h", "1d"] as const;
export type ChartResolution = (typeof CHART_RESOLUTIONS)[number];

const STEP_MS: Record<ChartResolution, number> = { "1m": 60_000, "5m": 300_000, "15m": 900_000, "1h": 3_600_000, "1d": 86_400_000 };
/** Bars drawn before the trade's open and after its close, by default. */
const DEFAULT_PADDING = 30;
/** Trading days of 1-minute bars one chart may span (choose 1d beyond). */
export const MAX_MINUTE_DAYS = 30;
/** Days the trade page fetches from the provider itself; the job fetches the rest. */
export const INLINE_FETCHES = 2;

const count = () => z.optional(z.pipe(z.string().check(z.regex(/^\d{1,3}$/, "must be a whole number from 0 to 500")), z.transform(Number)).check(z.refine((n: number) => n <= 500, "must be at most 500")));
export const ChartQuerySchema = z.object({
  resolution: z.optional(z.enum(CHART_RESOLUTIONS, { error: `must be one of ${CHART_RESOLUTIONS.join(", ")}` })),
  /** Bars before the open and after the close (default 30). */
  before: count(),
  after: count(),
});
export type ChartQuery = z.infer<typeof ChartQuerySchema>;

/** The resolution a trade is best read at: 1-minute within 6 hours, 5-minute within 2 days, else daily. */
export function defaultResolution(openedAt: number, closedAt: number): ChartResolution {
  const span = closedAt - openedAt;
  return span <= 6 * 3_600_000 ? "1m" : span <= 2 * 86_400_000 ? "5m" : "1d";
}

/** The day keys of the stored bars a window needs: New York weekdays (1m), or months (1d). */
function daysOf(from: number, to: number, base: BarResolution): string[] {
  const days = new Set<string>();
  const stride = base === "1m" ? 3_600_000 : 86_400_000;
  for (let t = from; t < to + stride; t += stride) days.add(dayKey(new Date(Math.min(t, to)), base));
  const weekday = (d: string) => ![0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay());
  return [...days].filter((d) => base !== "1m" || weekday(d)).sort();
}

type BarOut = { t: string; open: string; high: string; low: string; close: string; volume: string };
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The trade as its chart needs it, with its fills: one query, owner checked. */
async function chartTrade(deps: Pick<Deps, "db">, user: AuthUser, tradeId: string) {
  const [row] = rowsOf<{ trade: string }>(
    await deps.db.execute(sql`select json_build_object('id', p.id, 'symbol', p.symbol, 'assetClass', p.asset_class, 'direction', p.direction,
        'openedAt', to_char(p.opened_at at time zone 'UTC', ${sql.raw(ISO)}), 'closedAt', to_char(p.closed_at at time zone 'UTC', ${sql.raw(ISO)}),
        'multiplier', format_decimal(p.multiplier), 'stopPrice', format_decimal(j.stop_price), 'targetPrice', format_decimal(j.target_price),
        'fills', (select json_agg(json_build_object('id', f.id, 't', to_char(pf.executed_at at time zone 'UTC', ${sql.raw(ISO)}), 'side', f.side,
            'quantity', format_decimal(pf.quantity), 'price', format_decimal(f.price), 'role', pf.role) order by pf.executed_at, f.id)
          from position_fills pf join fills f on f.id = pf.fill_id where pf.position_id = p.id))::text as trade
      from positions p join accounts a on a.id = p.account_id left join trade_journals j on j.position_id = p.id
      where p.id = ${tradeId} and a.user_id = ${user.id}`),
  );
  if (!row) throw new AppError("NOT_FOUND", "No such trade.");
  return JSON.parse(row.trade) as {
    id: string;
    symbol: string;
    assetClass: "stock" | "option" | "future";
    direction: "long" | "short";
    openedAt: string;
    closedAt: string | null;
    multiplier: string;
    stopPrice: string | null;
    targetPrice: string | null;
    fills: ChartFill[] | null;
  };
}

type RawBar = [number, string, string, string, string, string];
type StoredDay = Pick<DayRow, "day" | "status" | "detail"> & { bars: RawBar[] | null; source: "provider" | "upload" | null };

/**
 * What is stored for a window's days, in one query: whether the user has a bar provider key, the states of
 * the days, and each day's bars as one JSON text (bar_days.bars_json, written with the bars by bars_store).
 */
async function stored(deps: Pick<Deps, "db">, userId: string, symbol: string, base: BarResolution, days: readonly string[]) {
  const [row] = rowsOf<{ key: boolean; days: string }>(
    await deps.db.execute(sql`select exists (select 1 from stored_keys where user_id = ${userId}::uuid and provider = ${BARS}) as key,
      coalesce((select json_agg(json_build_object('day', day, 'status', status, 'detail', detail, 'source', source, 'bars', bars_json::json))
        from bar_days where user_id = ${userId}::uuid and symbol = ${symbol} and resolution = ${base} and day = any(${`{${days.join(",")}}`}::text[])), '[]')::text as days`),
  );
  return { key: Boolean(row?.key), states: JSON.parse(row?.days ?? "[]") as StoredDay[] };
}

/**
 * The window's bars from its days' JSON: the stored resolution as it is; 5m, 15m and 1h binned from the
 * 1-minute bars (on the epoch's multiples of the step: the hour and its quarters, UTC).
 */
function windowBars(days: readonly StoredDay[], resolution: ChartResolution, from: Date, to: Date): BarOut[] {
  const [lo, hi] = [from.getTime() / 1000, to.getTime() / 1000];
  const raw = days
    .flatMap((d) => d.bars ?? [])
    .filter((b) => b[0] >= lo && b[0] < hi)
    .sort((a, b) => a[0] - b[0]);
  const step = STEP_MS[resolution] / 1000;
  const binned: RawBar[] = [];
  if (resolution === "1m" || resolution === "1d") binned.push(...raw);
  else {
    for (const b of raw) {
      const t = Math.floor(b[0] / step) * step;
      const last = binned.at(-1);
      if (last && last[0] === t) {
        if (Number(b[2]) > Number(last[2])) last[2] = b[2];
        if (Number(b[3]) < Number(last[3])) last[3] = b[3];
        last[4] = b[4];
        last[5] = fromUnits(toUnits(last[5]) + toUnits(b[5]));
      } else binned.push([t, b[1], b[2], b[3], b[4], b[5]]);
    }
  }
  return binned.map(([t, o, h, l, c, v]) => ({ t: new Date(t * 1000).toISOString(), open: formatDecimal(o), high: formatDecimal(h), low: formatDecimal(l), close: formatDecimal(c), volume: formatDecimal(v) }));
}

/** GET /api/trades/:id/chart. */
export async function tradeChart(deps: Pick<Deps, "db" | "config" | "fetch" | "rateLimiter" | "log" | "now">, user: AuthUser, tradeId: string, query: ChartQuery) {
  const trade = await chartTrade(deps, user, tradeId);
  const fills = trade.fills ?? [];
  const opened = Date.parse(trade.openedAt);
  const closed = trade.closedAt ? Date.parse(trade.closedAt) : deps.now().getTime();
  const resolution = query.resolution ?? defaultResolution(opened, closed);
  const step = STEP_MS[resolution];
  const from = new Date(Math.floor(opened / step) * step - (query.before ?? DEFAULT_PADDING) * step);
  const to = new Date(Math.floor(closed / step) * step + ((query.after ?? DEFAULT_PADDING) + 1) * step);
  const base: BarResolution = resolution === "1d" ? "1d" : "1m";
  const frame = {
    tradeId: trade.id,
    symbol: trade.symbol,
    assetClass: trade.assetClass,
    direction: trade.direction,
    multiplier: trade.multiplier,
    closedAt: trade.closedAt,
    resolution,
    from: from.toISOString(),
    to: to.toISOString(),
    fills,
    stopPrice: trade.stopPrice,
    targetPrice: trade.targetPrice,
    averageCost: averageCostLine(fills),
  };
  if (trade.assetClass === "option") {
    return { ...frame, bars: [], coverage: { sources: [], key: false, missing: [] }, note: "Options are charted by their fills only: there is no premium history." };
  }
  const days = daysOf(from.getTime(), Math.min(to.getTime(), deps.now().getTime()), base);
  if (base === "1m" && days.length > MAX_MINUTE_DAYS) {
    throw new AppError("VALIDATION_ERROR", `This window spans ${days.length} trading days: minute bars go up to ${MAX_MINUTE_DAYS}. Choose 1d.`, {
      fields: [{ path: "resolution", message: `spans more than ${MAX_MINUTE_DAYS} trading days of minute bars: choose 1d` }],
    });
  }
  let window = await stored(deps, user.id, trade.symbol, base, days);
  const settled = (d: string) => window.states.some((s) => s.day === d && (s.status === "ok" || s.status === "empty"));
  if (window.key && !days.every(settled)) {
    const queued = await queueBarDays(deps, user.id, trade.symbol, base, days);
    // The days the trade lived first: its own bars matter more than the padding's.
    const mine = new Set(daysOf(opened, Math.min(closed, deps.now().getTime()), base));
    const todo = queued.filter((d) => d.status === "queued").map((d) => d.day).sort((a, b) => Number(mine.has(b)) - Number(mine.has(a)));
    await fetchDaysNow(deps, user.id, trade.symbol, base, todo, INLINE_FETCHES);
    window = await stored(deps, user.id, trade.symbol, base, days);
  }
  const { key, states } = window;
  const bars = windowBars(states, resolution, from, to);
  const sources = [...new Set(states.flatMap((d) => (d.source && d.bars?.length ? [d.source] : [])))].sort();
  const known = new Map(states.map((s) => [s.day, s]));
  const missing = days.flatMap((day) => {
    const s = known.get(day);
    if (s && (s.status === "ok" || s.status === "empty")) return [];
    return [{ day, status: s?.status ?? "none", detail: s?.detail ?? (key ? null : "no bars: save a bar provider key in Settings, or upload a candle CSV") }];
  });
  return {
    ...frame,
    bars,
    coverage: { sources, key, missing },
    note: bars.length ? null : key ? "The bars are on their way from your bar provider." : "No bars for this trade: the chart shows the path through its fills.",
  };
}

