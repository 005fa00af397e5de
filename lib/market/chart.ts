// A trade's chart (docs/charts.md, "The chart"): its bars around it, every fill, the average cost while it
// was open, the plan's stop and target, and its running P&L. Bars are the user's own: stored ones are read;
// with a bar provider key the days missing are queued and the first few fetched now (lib/market/bar-queue.ts),
// the rest arrive by the fetch-bars job and the answer says which are still missing. Options are drawn by
// their fills only. A provider that fails never makes this fail: the chart says what is missing.
import * as z from "zod/mini";
import { sql, type SQL } from "drizzle-orm";
import { confirmSessionOwner, SESSION_CTE, SESSION_OWNER_COLUMNS, sessionParams, type SessionClaim, type SessionOwnerRow } from "../auth/session.ts";
import { preparedStatement, type JsonText } from "../db/rows.ts";
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

/** The day keys of the stored bars a window needs: New York weekdays (1m), or months (1d). */
function daysOf(from: number, to: number, base: BarResolution): string[] {
  const days = new Set<string>();
  const stride = base === "1m" ? 3_600_000 : 86_400_000;
  for (let t = from; t < to + stride; t += stride) days.add(dayKey(new Date(Math.min(t, to)), base));
  const weekday = (d: string) => ![0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay());
  return [...days].filter((d) => base !== "1m" || weekday(d)).sort();
}

/** A bar as the chart answers it, and as bar_days.bars_json stores it (bars_store). */
type BarOut = { t: string; open: string; high: string; low: string; close: string; volume: string };
type StoredDay = Pick<DayRow, "day" | "status" | "detail"> & { source: "provider" | "upload" | null };

/** What the chart reads, in one call of trade_chart (migrations/functions/bars/trade_chart.sql). */
type ChartRead = {
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
  resolution: ChartResolution;
  from: string;
  to: string;
  key: boolean;
  /** The stored days the window touches, in order. */
  days: StoredDay[];
  /** Their bars as stored (one JSON text per day, '' for none), in the same order. */
  dayBars: string[];
};

/** GET /api/trades/:id/chart's answer. */
export type TradeChart = Omit<ChartRead, "id" | "openedAt" | "key" | "days" | "dayBars" | "fills"> & {
  tradeId: string;
  fills: ChartFill[];
  averageCost: ReturnType<typeof averageCostLine>;
  bars: BarOut[];
  coverage: { sources: Array<"provider" | "upload">; key: boolean; missing: Array<{ day: string; status: DayRow["status"] | "none"; detail: string | null }> };
  note: string | null;
};

/** trade_chart's call for the user `user` (SQL), its other arguments placeholders (chartParams). */
const chartCall = (user: SQL) =>
  sql`trade_chart(${user}, ${sql.placeholder("tradeId")}::uuid, ${sql.placeholder("resolution")}::text, ${sql.placeholder("before")}::integer,
    ${sql.placeholder("after")}::integer, ${sql.placeholder("now")}::timestamptz)`;
const chartParams = (tradeId: string, query: ChartQuery, now: Date) => ({
  tradeId,
  resolution: query.resolution ?? null,
  before: query.before ?? DEFAULT_PADDING,
  after: query.after ?? DEFAULT_PADDING,
  now: now.toISOString(),
});

/** The session check and the chart's read in one statement, prepared once per connection (lib/auth/session.ts, SESSION_CTE). */
const chartWithSession = preparedStatement<SessionOwnerRow & ChartRow>(
  "trade_chart",
  sql`with ${SESSION_CTE} select ${SESSION_OWNER_COLUMNS}, c.chart, c.bars from auth left join lateral ${chartCall(sql`auth.user_id`)} c on true`,
);
/** The chart's read for a user known already (an access token, or the second read after fetching bars). */
const chartOfUser = preparedStatement<ChartRow>("trade_chart_of_user", sql`select c.chart, c.bars from ${chartCall(sql`${sql.placeholder("userId")}::uuid`)} c`);
type ChartRow = { chart: string | null; bars: string | null };

/**
 * The trade, its window and the stored days it touches: one round trip, the caller's session checked in it.
 * The trade's resolution and window are worked out there, where the trade is read. No live session is
 * UNAUTHORIZED; a trade that is not the user's is NOT_FOUND.
 */
async function readChart(deps: Pick<Deps, "db">, caller: SessionClaim | { userId: string }, tradeId: string, query: ChartQuery, now: Date) {
  const params = chartParams(tradeId, query, now);
  let userId: string | null;
  let row: ChartRow | undefined;
  if ("userId" in caller) {
    userId = caller.userId;
    [row] = await chartOfUser(deps.db, { ...params, userId });
  } else {
    const [checked] = await chartWithSession(deps.db, { ...sessionParams(caller, now), ...params });
    userId = await confirmSessionOwner(deps, caller, checked, now);
    if (!userId) throw new AppError("UNAUTHORIZED", "Sign in to continue.");
    row = checked;
  }
  if (!row?.chart) throw new AppError("NOT_FOUND", "No such trade.");
  const read = JSON.parse(row.chart) as Omit<ChartRead, "dayBars">;
  return { userId, read: { ...read, dayBars: (row.bars ?? "").split("\x1e") } satisfies ChartRead };
}

/** How each bar starts in bar_days.bars_json, its time the 24 characters after (bars_store). */
const BAR_START = '{"t":"';

/**
 * The bars of one stored day (bars_store's compact text, in time order) whose time is in [from, to): their JSON
 * texts, comma-separated, cut out of the day's text (ISO times compare as text), and how many they are.
 */
function cutDay(text: string, from: string, to: string): { json: string; count: number } {
  let start = -1;
  let end = text.length - 1; // the closing bracket
  let count = 0;
  for (let at = text.indexOf(BAR_START); at !== -1; at = text.indexOf(BAR_START, at + BAR_START.length)) {
    const t = text.slice(at + BAR_START.length, at + BAR_START.length + 24);
    if (t < from) continue;
    if (t >= to) {
      end = at - 1; // the comma before it
      break;
    }
    if (start < 0) start = at;
    count++;
  }
  return start < 0 ? { json: "", count: 0 } : { json: text.slice(start, end), count };
}

/**
 * The window's bars from its days' texts, as JSON text (the inside of the array) and how many: the stored
 * resolution cut out as it is; 5m, 15m and 1h binned from the 1-minute bars (on the epoch's multiples of the
 * step: the hour and its quarters, UTC).
 */
function windowBars(dayBars: readonly string[], resolution: ChartResolution, from: string, to: string): { json: string; count: number } {
  const cuts = dayBars.map((text) => cutDay(text, from, to)).filter((cut) => cut.count > 0);
  const json = cuts.map((cut) => cut.json).join(",");
  if (resolution === "1m" || resolution === "1d") return { json, count: cuts.reduce((n, cut) => n + cut.count, 0) };
  const step = STEP_MS[resolution];
  const binned: Array<BarOut & { at: number }> = [];
  for (const b of JSON.parse(`[${json}]`) as BarOut[]) {
    const at = Math.floor(Date.parse(b.t) / step) * step;
    const last = binned.at(-1);
    if (last && last.at === at) {
      if (Number(b.high) > Number(last.high)) last.high = b.high;
      if (Number(b.low) < Number(last.low)) last.low = b.low;
      last.close = b.close;
      last.volume = formatDecimal(fromUnits(toUnits(last.volume) + toUnits(b.volume)));
    } else binned.push({ ...b, at, t: new Date(at).toISOString() });
  }
  return { json: JSON.stringify(binned.map(({ at: _at, ...bar }) => bar)).slice(1, -1), count: binned.length };
}

/** GET /api/trades/:id/chart. */
export async function tradeChart(
  deps: Pick<Deps, "db" | "config" | "fetch" | "rateLimiter" | "log" | "now">,
  caller: SessionClaim | { userId: string },
  tradeId: string,
  query: ChartQuery,
): Promise<JsonText<TradeChart>> {
  const now = deps.now();
  const first = await readChart(deps, caller, tradeId, query, now);
  const { userId } = first;
  let { read } = first;
  const fills = read.fills ?? [];
  const opened = Date.parse(read.openedAt);
  const closed = read.closedAt ? Date.parse(read.closedAt) : now.getTime();
  const { resolution } = read;
  const base: BarResolution = resolution === "1d" ? "1d" : "1m";
  const frame = {
    tradeId: read.id,
    symbol: read.symbol,
    assetClass: read.assetClass,
    direction: read.direction,
    multiplier: read.multiplier,
    closedAt: read.closedAt,
    resolution,
    from: read.from,
    to: read.to,
    fills,
    stopPrice: read.stopPrice,
    targetPrice: read.targetPrice,
    averageCost: averageCostLine(fills),
  };
  if (read.assetClass === "option") {
    return answer(frame, { json: "" }, { sources: [], key: false, missing: [] }, "Options are charted by their fills only: there is no premium history.");
  }
  const days = daysOf(Date.parse(read.from), Math.min(Date.parse(read.to), now.getTime()), base);
  if (base === "1m" && days.length > MAX_MINUTE_DAYS) {
    throw new AppError("VALIDATION_ERROR", `This window spans ${days.length} trading days: minute bars go up to ${MAX_MINUTE_DAYS}. Choose 1d.`, {
      fields: [{ path: "resolution", message: `spans more than ${MAX_MINUTE_DAYS} trading days of minute bars: choose 1d` }],
    });
  }
  const settled = (d: string) => read.days.some((s) => s.day === d && (s.status === "ok" || s.status === "empty"));
  if (read.key && !days.every(settled)) {
    const queued = await queueBarDays(deps, userId, read.symbol, base, days);
    // The days the trade lived first: its own bars matter more than the padding's.
    const mine = new Set(daysOf(opened, Math.min(closed, now.getTime()), base));
    const todo = queued.filter((d) => d.status === "queued").map((d) => d.day).sort((a, b) => Number(mine.has(b)) - Number(mine.has(a)));
    await fetchDaysNow(deps, userId, read.symbol, base, todo, INLINE_FETCHES);
    read = (await readChart(deps, { userId }, tradeId, { ...query, resolution }, now)).read;
  }
  const { key, days: states, dayBars } = read;
  const bars = windowBars(dayBars, resolution, read.from, read.to);
  const sources = [...new Set(states.flatMap((d, i) => (d.source && dayBars[i] ? [d.source] : [])))].sort();
  const known = new Map(states.map((s) => [s.day, s]));
  const missing = days.flatMap((day) => {
    const s = known.get(day);
    if (s && (s.status === "ok" || s.status === "empty")) return [];
    return [{ day, status: s?.status ?? "none", detail: s?.detail ?? (key ? null : "no bars: save a bar provider key in Settings, or upload a candle CSV") }];
  });
  const note = bars.count ? null : key ? "The bars are on their way from your bar provider." : "No bars for this trade: the chart shows the path through its fills.";
  return answer(frame, bars, { sources, key, missing }, note);
}

/** The chart as JSON text: its bars spliced in as cut from the stored days, never parsed and written again. */
function answer(frame: Omit<TradeChart, "bars" | "coverage" | "note">, bars: { json: string }, coverage: TradeChart["coverage"], note: string | null): JsonText<TradeChart> {
  const rest = JSON.stringify({ ...frame, coverage, note });
  return `${rest.slice(0, -1)},"bars":[${bars.json}]}` as JsonText<TradeChart>;
}
