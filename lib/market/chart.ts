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
import { formatDecimal, fromUnits, multiplyUnits, toUnits } from "../money.ts";
import { getTrade } from "../trades/trades.ts";
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

async function readBars(deps: Pick<Deps, "db">, userId: string, symbol: string, resolution: ChartResolution, from: Date, to: Date): Promise<{ bars: BarOut[]; sources: string[] }> {
  const base: BarResolution = resolution === "1d" ? "1d" : "1m";
  const step = `${STEP_MS[resolution] / 1000} seconds`;
  const rows = rowsOf<{ t: string; open: string; high: string; low: string; close: string; volume: string; sources: string[] | string }>(
    await deps.db.execute(sql`select to_char(date_bin(${step}::interval, b.t, '2000-01-03T00:00:00Z'::timestamptz) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as t,
        ((array_agg(b.open order by b.t))[1])::text as open, max(b.high)::text as high, min(b.low)::text as low,
        ((array_agg(b.close order by b.t desc))[1])::text as close, sum(b.volume)::text as volume, array_agg(distinct b.source) as sources
      from bars b
      where b.user_id = ${userId}::uuid and b.symbol = ${symbol} and b.resolution = ${base} and b.t >= ${from.toISOString()}::timestamptz and b.t < ${to.toISOString()}::timestamptz
      group by 1 order by 1`),
  );
  const sources = new Set<string>();
  const bars = rows.map((r) => {
    for (const s of typeof r.sources === "string" ? r.sources.replace(/[{}]/g, "").split(",") : r.sources) sources.add(s);
    return { t: r.t, open: formatDecimal(r.open), high: formatDecimal(r.high), low: formatDecimal(r.low), close: formatDecimal(r.close), volume: formatDecimal(r.volume) };
  });
  return { bars, sources: [...sources].sort() };
}

async function hasBarsKey(deps: Pick<Deps, "db">, userId: string): Promise<boolean> {
  return rowsOf(await deps.db.execute(sql`select 1 from stored_keys where user_id = ${userId}::uuid and provider = ${BARS}`)).length > 0;
}

async function dayStates(deps: Pick<Deps, "db">, userId: string, symbol: string, base: BarResolution, days: readonly string[]): Promise<DayRow[]> {
  return rowsOf<DayRow>(
    await deps.db.execute(sql`select user_id::text, symbol, resolution, day, status, attempts, detail from bar_days
      where user_id = ${userId}::uuid and symbol = ${symbol} and resolution = ${base} and day = any(${`{${days.join(",")}}`}::text[])`),
  );
}

/** GET /api/trades/:id/chart. */
export async function tradeChart(deps: Pick<Deps, "db" | "config" | "fetch" | "rateLimiter" | "log" | "now">, user: AuthUser, tradeId: string, query: ChartQuery) {
  const { trade, fills } = await getTrade(deps, user, tradeId);
  const opened = Date.parse(trade.openedAt);
  const closed = trade.closedAt ? Date.parse(trade.closedAt) : deps.now().getTime();
  const resolution = query.resolution ?? defaultResolution(opened, closed);
  const step = STEP_MS[resolution];
  const from = new Date(Math.floor(opened / step) * step - (query.before ?? DEFAULT_PADDING) * step);
  const to = new Date(Math.floor(closed / step) * step + ((query.after ?? DEFAULT_PADDING) + 1) * step);
  const chartFills = fills.map((f) => ({ id: f.id, t: f.executedAt, side: f.side, quantity: f.quantityInTrade, price: f.price, role: f.role }));
  const base: BarResolution = resolution === "1d" ? "1d" : "1m";
  const frame = {
    tradeId: trade.id,
    symbol: trade.symbol,
    assetClass: trade.assetClass,
    direction: trade.direction,
    resolution,
    from: from.toISOString(),
    to: to.toISOString(),
    fills: chartFills,
    stopPrice: trade.risk.stopPrice,
    targetPrice: trade.risk.targetPrice,
  };
  if (trade.assetClass === "option") {
    return { ...frame, bars: [], averageCost: averageCostLine(chartFills), pnl: [], coverage: { sources: [], key: false, missing: [] }, note: "Options are charted by their fills only: there is no premium history." };
  }
  const days = daysOf(from.getTime(), Math.min(to.getTime(), deps.now().getTime()), base);
  if (base === "1m" && days.length > MAX_MINUTE_DAYS) {
    throw new AppError("VALIDATION_ERROR", `This window spans ${days.length} trading days: minute bars go up to ${MAX_MINUTE_DAYS}. Choose 1d.`, {
      fields: [{ path: "resolution", message: `spans more than ${MAX_MINUTE_DAYS} trading days of minute bars: choose 1d` }],
    });
  }
  const key = await hasBarsKey(deps, user.id);
  let states: DayRow[];
  if (key) {
    const queued = await queueBarDays(deps, user.id, trade.symbol, base, days);
    // The days the trade lived first: its own bars matter more than the padding's.
    const mine = new Set(daysOf(opened, Math.min(closed, deps.now().getTime()), base));
    const todo = queued.filter((d) => d.status === "queued").map((d) => d.day).sort((a, b) => Number(mine.has(b)) - Number(mine.has(a)));
    await fetchDaysNow(deps, user.id, trade.symbol, base, todo, INLINE_FETCHES);
    states = await dayStates(deps, user.id, trade.symbol, base, days);
  } else {
    states = await dayStates(deps, user.id, trade.symbol, base, days);
  }
  const known = new Map(states.map((s) => [s.day, s]));
  const missing = days.flatMap((day) => {
    const s = known.get(day);
    if (s && (s.status === "ok" || s.status === "empty")) return [];
    return [{ day, status: s?.status ?? "none", detail: s?.detail ?? (key ? null : "no bars: save a bar provider key in Settings, or upload a candle CSV") }];
  });
  const { bars, sources } = await readBars(deps, user.id, trade.symbol, resolution, from, to);
  return {
    ...frame,
    bars,
    averageCost: averageCostLine(chartFills),
    pnl: runningPnl(chartFills, bars, trade.direction, trade.multiplier, trade.closedAt),
    coverage: { sources, key, missing },
    note: bars.length ? null : key ? "The bars are on their way from your bar provider." : "No bars for this trade: the chart shows the path through its fills.",
  };
}

type ChartFill = { t: string; side: string; quantity: string; price: string; role: string };

/** The position's average cost after each fill while it is open (null once flat). */
function averageCostLine(fills: readonly ChartFill[]) {
  let openQ = 0n;
  let cost = 0n;
  return fills.map((f) => {
    const q = toUnits(f.quantity);
    const px = toUnits(f.price);
    if (f.role === "open" || f.role === "add") {
      openQ += q;
      cost += multiplyUnits(q, px);
    } else if (openQ > 0n) {
      cost -= (cost * q) / openQ;
      openQ -= q;
    }
    return { t: f.t, price: openQ > 0n ? fromUnits((cost * 10n ** 10n) / openQ) : null };
  });
}

/**
 * The running P&L (gross) at each fill and at each bar's close while the trade was open, with the position
 * held at the bar's start, as the excursions count it.
 */
function runningPnl(fills: readonly ChartFill[], bars: readonly BarOut[], direction: "long" | "short", multiplier: string, closedAt: string | null) {
  const dir = direction === "long" ? 1n : -1n;
  const m = toUnits(multiplier);
  type Event = { at: number; kind: 0; bar: BarOut } | { at: number; kind: 1; fill: ChartFill };
  const events: Event[] = [
    ...bars.map((b) => ({ at: Date.parse(b.t), kind: 0 as const, bar: b })),
    ...fills.map((f) => ({ at: Date.parse(f.t), kind: 1 as const, fill: f })),
  ].sort((a, b) => a.at - b.at || a.kind - b.kind);
  let openQ = 0n;
  let cost = 0n;
  let realised = 0n;
  const mark = (px: bigint) => realised + multiplyUnits(dir * (multiplyUnits(openQ, px) - cost), m);
  const out: Array<{ t: string; pnl: string }> = [];
  const end = closedAt ? Date.parse(closedAt) : Infinity;
  for (const e of events) {
    if (e.kind === 1) {
      const q = toUnits(e.fill.quantity);
      const px = toUnits(e.fill.price);
      if (e.fill.role === "open" || e.fill.role === "add") {
        openQ += q;
        cost += multiplyUnits(q, px);
      } else if (openQ > 0n) {
        const part = (cost * q) / openQ;
        realised += multiplyUnits(dir * (multiplyUnits(q, px) - part), m);
        cost -= part;
        openQ -= q;
      }
      out.push({ t: e.fill.t, pnl: fromUnits(mark(px)) });
    } else if (openQ > 0n && e.at < end) {
      out.push({ t: e.bar.t, pnl: fromUnits(mark(toUnits(e.bar.close))) });
    }
  }
  return out;
}
