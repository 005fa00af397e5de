// A prop-firm evaluation run over an account's fills (DESIGN.md section 11, "Prop-firm accounts";
// docs/prop-firms.md): the balance after every fill, the open equity at every fill and bar, the floor under the
// firm's drawdown mode, the day's loss from the trading day's start, and the first breach where it happened,
// with its rule. Pure: the fills and bars in, the status and the days out; the same function gives the live
// status and the replay of a history under other rules.
//
// Amounts are bigint units (lib/money.ts, 10 decimals), exact. Positions are matched first in, first out, as
// brokers and firms report realised P&L; the equity (balance + open P&L) does not depend on the matching.
import { fromUnits, multiplyUnits, toUnits } from "../money.ts";
import { addDays, wallClock, zonedTimeToUtc } from "../time/zoned.ts";

export const DRAWDOWN_MODES = ["static", "eod_trailing", "intraday_trailing", "trailing_lock"] as const;
export type DrawdownMode = (typeof DRAWDOWN_MODES)[number];

/** The rules of an evaluation or funded account, as DESIGN.md section 11 names them (amounts as decimal strings). */
export type PropRules = {
  startingBalance: string;
  /** Profit to reach for a pass (null: a funded account, never "passed"). */
  profitTarget: string | null;
  maxDrawdown: string;
  drawdownMode: DrawdownMode;
  /** A day's loss that breaches (null: none), measured from the trading day's starting balance. */
  dailyLossLimit: string | null;
  /** Whether the day's loss counts open P&L (equity) or only what was realised (balance). */
  dailyLossIncludesOpen: boolean;
  /** "HH:MM": when the trading day starts, in dayZone (17:00 America/Chicago for most futures firms). */
  dayStartsAt: string;
  dayZone: string;
  minTradingDays: number;
  /** The best day's share of the total profit may be at most this percentage (null: no such rule). */
  consistencyPct: number | null;
  /** Open contracts at most (null: no limit). */
  maxContracts: number | null;
  /**
   * Where a trailing floor stops: once it reaches the starting balance plus this, it stays there (Topstep and
   * Alpha Futures at the start, Apex, Tradeify and Lucid at the start + 100). trailing_lock: 0 when not given;
   * eod_trailing and intraday_trailing: never unless given. Not in DESIGN.md's list: an addition the firms need.
   */
  floorLocksAt?: string | null;
  /**
   * What the day's loss is measured from: the trading day's starting balance (the default: FTMO, FundedNext,
   * Topstep), or the higher of it and the equity at the day's start (The5ers, FundingPips), so an open profit
   * carried into the day is room the day may lose. Not in DESIGN.md's list: an addition the firms need.
   */
  dailyLossFrom?: "balance" | "higher_of_balance_and_equity";
  /**
   * What the floor is measured against in the static and end-of-day modes: the balance (the default), or the
   * equity, open P&L included, at every fill and bar (FTMO's maximum loss, Earn2Trade's end-of-day floor
   * enforced on open losses). The intraday modes always measure the equity. Not in DESIGN.md's list.
   */
  drawdownOn?: "balance" | "equity";
  /**
   * A soft daily loss limit (Tradeify, Lucid, Alpha Futures' funded guard): reaching it ends the trading day
   * (`PropDay.limitHit`), not the account. Not in DESIGN.md's list.
   */
  dailyLossSoft?: boolean;
  /**
   * A day counts toward minTradingDays only when it made at least this percentage of the starting balance (The5ers'
   * profitable days: 0.5); null or absent: every day traded counts. Not in DESIGN.md's list.
   */
  minDayProfitPct?: number | null;
};

export type PropFill = {
  id: string;
  /** ISO time. */
  at: string;
  symbol: string;
  side: "buy" | "sell";
  quantity: string;
  price: string;
  fees: string;
  multiplier: string;
};

/** A price bar of a symbol (its high and low): where bars cover an open position, the equity between fills. */
export type PropBar = { at: string; symbol: string; high: string; low: string; close: string };

export type BreachRule = "max_drawdown" | "daily_loss" | "max_contracts";

export type PropDay = {
  /** The trading day (YYYY-MM-DD), named by the date it ends on when it starts in the afternoon. */
  day: string;
  startBalance: string;
  endBalance: string;
  /** Realised on the day, fees included. */
  pnl: string;
  /** The floor at the day's end. */
  floor: string;
  /** The deepest the day's loss went (from its starting balance; with open P&L when the rules count it). */
  worstLoss: string;
  traded: boolean;
  breached: BreachRule | null;
  /** A soft daily loss limit reached this day: trading should have stopped (the account goes on). */
  limitHit?: boolean;
};

export type PropStatus = {
  state: "active" | "passed" | "breached";
  breachedAt: string | null;
  breachRule: BreachRule | null;
  breachFillId: string | null;
  balance: string;
  floor: string;
  distanceToFloor: string;
  dailyLossUsed: string;
  profitToTarget: string | null;
  tradingDays: number;
  bestDayPct: string | null;
  consistencyOk: boolean;
};

/** The trading day under way in a run. */
type OpenDay = { day: string; startBalance: bigint; lossFrom: bigint; worst: bigint; traded: boolean; breached: BreachRule | null; limitHit?: boolean };

/**
 * A run's state after its last fill or bar, as JSON (bigint units as strings): kept per evaluation so the
 * status after one more fill runs that fill only (lib/prop/evaluations.ts).
 */
export type EngineState = {
  balance: string;
  floor: string;
  peak: string;
  locked: boolean;
  eodHigh: string;
  positions: Array<[string, { long: boolean; multiplier: string; mark: string; lots: Array<[string, string]> }]>;
  today: { day: string; startBalance: string; lossFrom: string; worst: string; traded: boolean; breached: BreachRule | null; limitHit?: boolean } | null;
  dayEnds: number;
  breach: { at: string; rule: BreachRule; fillId: string | null } | null;
  days: PropDay[];
};

type Lot = { quantity: bigint; price: bigint };
type Position = { long: boolean; lots: Lot[]; multiplier: bigint; mark: bigint };

/**
 * The trading day of an instant under the rules: a day starting at or after noon (17:00 Chicago) is named by
 * the date it ends on, one starting before noon (00:00) by the date it starts on. The zone's own clock, so a
 * daylight-saving change moves the boundary with it.
 */
export function tradingDay(at: number, dayStartsAt: string, zone: string): string {
  const [h, m] = dayStartsAt.split(":").map(Number) as [number, number];
  const start = h * 60 + m;
  const t = wallClock(at, zone);
  const minutes = t.hour * 60 + t.minute;
  // The local date, then a day on when past an afternoon start, or a day back when before a morning start.
  let shift = 0;
  if (start >= 12 * 60 && minutes >= start) shift = 1;
  if (start < 12 * 60 && minutes < start) shift = -1;
  const d = new Date(Date.UTC(t.year, t.month - 1, t.day + shift));
  return d.toISOString().slice(0, 10);
}

/** The modes that measure the equity at every moment (the bars between fills too), not the balance. */
export const isIntraday = (rules: Pick<PropRules, "drawdownMode">) => rules.drawdownMode === "intraday_trailing" || rules.drawdownMode === "trailing_lock";

/**
 * The first instant of the trading day `day` under the rules: the day before at the start time when the day
 * starts in the afternoon (named by the date it ends on), the day itself otherwise (tradingDay).
 */
export function tradingDayStart(day: string, rules: Pick<PropRules, "dayStartsAt" | "dayZone">): Date {
  const [h, m] = rules.dayStartsAt.split(":").map(Number) as [number, number];
  const [y, mo, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d - (h >= 12 ? 1 : 0)));
  return zonedTimeToUtc({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: h, minute: m, second: 0, millisecond: 0 }, rules.dayZone);
}


/**
 * Runs the rules over the fills (and bars) from the evaluation's start, in time order: the status as of `now`
 * and the days. After the first breach the account is breached for good; the figures still follow the fills.
 */
export function runEvaluation(
  rules: PropRules,
  fills: readonly PropFill[],
  bars: readonly PropBar[],
  now: Date,
  /** Where an earlier run stopped (its `state`): `fills` and `bars` are then only what came after it. */
  resume?: EngineState | null,
): { status: PropStatus; days: PropDay[]; passedOn: string | null; state: EngineState } {
  const start = toUnits(rules.startingBalance);
  const maxDd = toUnits(rules.maxDrawdown);
  const dailyLimit = rules.dailyLossLimit === null ? null : toUnits(rules.dailyLossLimit);
  const intraday = isIntraday(rules);
  /** The floor measured against the equity (the intraday modes, or drawdownOn: equity), else the balance. */
  const onEquity = intraday || rules.drawdownOn === "equity";
  const lockOffset = rules.floorLocksAt ?? (rules.drawdownMode === "trailing_lock" ? "0" : null);
  const lockAt = lockOffset === null || rules.drawdownMode === "static" ? null : start + toUnits(lockOffset);
  const dayOf = (at: number) => tradingDay(at, rules.dayStartsAt, rules.dayZone);

  let balance = resume ? BigInt(resume.balance) : start;
  let floor = resume ? BigInt(resume.floor) : start - maxDd;
  let peak = resume ? BigInt(resume.peak) : start;
  let locked = resume?.locked ?? false;
  let eodHigh = resume ? BigInt(resume.eodHigh) : start;
  const positions = new Map<string, Position>(
    (resume?.positions ?? []).map(([symbol, p]) => [symbol, { long: p.long, multiplier: BigInt(p.multiplier), mark: BigInt(p.mark), lots: p.lots.map(([q, pr]) => ({ quantity: BigInt(q), price: BigInt(pr) })) }]),
  );
  let breach: { at: string; rule: BreachRule; fillId: string | null } | null = resume?.breach ?? null;
  const days: PropDay[] = [...(resume?.days ?? [])];
  let today: OpenDay | null = resume?.today
    ? { ...resume.today, startBalance: BigInt(resume.today.startBalance), lossFrom: BigInt(resume.today.lossFrom ?? resume.today.startBalance), worst: BigInt(resume.today.worst) }
    : null;

  /** A trailing floor that reached its lock stays there. */
  const lockFloor = () => {
    if (lockAt !== null && floor >= lockAt) {
      floor = lockAt;
      locked = true;
    }
  };
  const openPnl = (mark: (p: Position) => bigint) => {
    let sum = 0n;
    for (const p of positions.values()) {
      for (const lot of p.lots) sum += multiplyUnits(multiplyUnits(mark(p) - lot.price, lot.quantity), p.multiplier) * (p.long ? 1n : -1n);
    }
    return sum;
  };
  const contracts = () => {
    let n = 0n;
    for (const p of positions.values()) for (const lot of p.lots) n += lot.quantity;
    return n;
  };
  const closeDay = () => {
    if (!today) return;
    if (rules.drawdownMode === "eod_trailing" && !locked) {
      eodHigh = balance > eodHigh ? balance : eodHigh;
      floor = eodHigh - maxDd;
      lockFloor();
    }
    days.push({
      day: today.day,
      startBalance: fromUnits(today.startBalance),
      endBalance: fromUnits(balance),
      pnl: fromUnits(balance - today.startBalance),
      floor: fromUnits(floor),
      worstLoss: fromUnits(today.worst),
      traded: today.traded,
      breached: today.breached,
      ...(today.limitHit ? { limitHit: true } : {}),
    });
    today = null;
  };
  // The next trading day's first instant: the zone's clock is asked once a day, not once a fill.
  let dayEnds = resume?.dayEnds ?? Number.NEGATIVE_INFINITY;
  const enterDay = (at: number) => {
    if (today && at < dayEnds) return;
    const day = dayOf(at);
    if (today?.day === day) return;
    closeDay();
    // The day's loss is measured from its starting balance, or the higher of it and the equity then.
    const equity = balance + openPnl((p) => p.mark);
    const lossFrom = rules.dailyLossFrom === "higher_of_balance_and_equity" && equity > balance ? equity : balance;
    today = { day, startBalance: balance, lossFrom, worst: 0n, traded: false, breached: null };
    dayEnds = tradingDayStart(addDays(day, 1), rules).getTime();
  };
  /** After a fill or a bar: the peak and the floor, then each rule against the worst equity of the moment. */
  const check = (at: string, fillId: string | null, best: bigint, worst: bigint) => {
    if (intraday && !locked) {
      const high = best > peak ? best : peak;
      peak = high;
      floor = high - maxDd;
      lockFloor();
    }
    const measured = onEquity ? worst : balance;
    const dayLoss = today!.lossFrom - (rules.dailyLossIncludesOpen ? worst : balance);
    if (dayLoss > today!.worst) today!.worst = dayLoss;
    let rule: BreachRule | null = null;
    if (measured <= floor) rule = "max_drawdown";
    else if (dailyLimit !== null && dayLoss >= dailyLimit && rules.dailyLossSoft) today!.limitHit = true;
    else if (dailyLimit !== null && dayLoss >= dailyLimit) rule = "daily_loss";
    else if (rules.maxContracts !== null && contracts() > BigInt(rules.maxContracts) * UNIT) rule = "max_contracts";
    if (rule) {
      today!.breached ??= rule;
      breach ??= { at, rule, fillId };
    }
  };

  // Fills and bars in time order; a bar at a fill's instant comes after it (the fill made the position).
  type Step = { at: number; fill?: PropFill; bar?: PropBar };
  const steps: Step[] = [...fills.map((fill) => ({ at: Date.parse(fill.at), fill })), ...bars.map((bar) => ({ at: Date.parse(bar.at), bar }))];
  steps.sort((a, b) => a.at - b.at || (a.fill ? 0 : 1) - (b.fill ? 0 : 1));
  for (const step of steps) {
    enterDay(step.at);
    if (step.fill) {
      const f = step.fill;
      balance += realise(positions, f);
      today!.traded = true;
      const equity = balance + openPnl((p) => p.mark);
      check(f.at, f.id, equity, equity);
    } else {
      const b = step.bar!;
      const p = positions.get(b.symbol);
      if (!p || p.lots.length === 0) continue;
      // The bar's best and worst for the open position: its high and low (the other way round when short).
      const [high, low] = [toUnits(b.high), toUnits(b.low)];
      const markAt = (price: bigint) => balance + openPnl((q) => (q === p ? price : q.mark));
      const [up, down] = [markAt(high), markAt(low)];
      p.mark = toUnits(b.close);
      check(b.at, null, up > down ? up : down, up > down ? down : up);
    }
  }
  // The day under way ends once the next trading day has begun; until then it is today's, and its loss is used.
  // Where the next run may take up (before the day under way is closed: later fills may still be of it).
  const t = today as OpenDay | null;
  const state: EngineState = {
    balance: String(balance),
    floor: String(floor),
    peak: String(peak),
    locked,
    eodHigh: String(eodHigh),
    positions: [...positions].filter(([, p]) => p.lots.length > 0).map(([symbol, p]) => [symbol, { long: p.long, multiplier: String(p.multiplier), mark: String(p.mark), lots: p.lots.map((l) => [String(l.quantity), String(l.price)] as [string, string]) }]),
    today: t ? { ...t, startBalance: String(t.startBalance), lossFrom: String(t.lossFrom), worst: String(t.worst) } : null,
    dayEnds,
    breach,
    days: [...days],
  };
  const open = today as { day: string; lossFrom: bigint } | null;
  const equityNow = balance + openPnl((p) => p.mark);
  let dailyLossUsed = 0n;
  if (open && open.day === dayOf(now.getTime())) {
    dailyLossUsed = open.lossFrom - (rules.dailyLossIncludesOpen ? equityNow : balance);
    days.push(dayView(today!, balance, floor));
  } else closeDay();

  // A day toward minTradingDays: one traded, and with minDayProfitPct one that made that share of the start
  // (exact: pnl * 100 >= pct * start).
  const minDay = rules.minDayProfitPct ?? null;
  const counts = (d: PropDay) => d.traded && (minDay === null || toUnits(d.pnl) * 10_000n >= BigInt(Math.round(minDay * 100)) * start);
  // The first day at whose end every condition of a pass held, nothing breached before (the replay's answer).
  let passedOn: string | null = null;
  if (rules.profitTarget !== null) {
    const goal = toUnits(rules.profitTarget);
    let traded = 0;
    let bestSoFar = 0n;
    for (const d of days) {
      if (d.breached) break;
      if (counts(d)) traded += 1;
      const made = toUnits(d.pnl);
      if (made > bestSoFar) bestSoFar = made;
      const total = toUnits(d.endBalance) - start;
      const steady = rules.consistencyPct === null || total <= 0n || bestSoFar * 10_000n <= BigInt(Math.round(rules.consistencyPct * 100)) * total;
      if (total >= goal && traded >= rules.minTradingDays && steady) {
        passedOn = d.day;
        break;
      }
    }
  }
  const profit = balance - start;
  const tradingDays = days.filter(counts).length;
  const best = days.reduce((m, d) => (toUnits(d.pnl) > m ? toUnits(d.pnl) : m), 0n);
  // The best day's share of the profit, in hundredths of a percent rounded half up.
  const bestDayPct = profit > 0n ? fromUnits((((best * 20_000n) / profit + 1n) / 2n) * (UNIT / 100n)) : null;
  // At the threshold is within it; a cent past it is not (exact: best / profit <= pct / 100).
  const consistencyOk = rules.consistencyPct === null || profit <= 0n || best * 10_000n <= BigInt(Math.round(rules.consistencyPct * 100)) * profit;
  const target = rules.profitTarget === null ? null : toUnits(rules.profitTarget);

  const measuredNow = onEquity ? equityNow : balance;
  const b = breach as { at: string; rule: BreachRule; fillId: string | null } | null;
  return {
    days,
    passedOn,
    state,
    status: {
      // Passed on a day before any breach: the evaluation is over, whatever came after.
      state: passedOn !== null ? "passed" : b ? "breached" : "active",
      breachedAt: b?.at ?? null,
      breachRule: b?.rule ?? null,
      breachFillId: b?.fillId ?? null,
      balance: fromUnits(balance),
      floor: fromUnits(floor),
      distanceToFloor: fromUnits(measuredNow - floor),
      dailyLossUsed: fromUnits(dailyLossUsed > 0n ? dailyLossUsed : 0n),
      profitToTarget: target === null ? null : fromUnits(target - profit > 0n ? target - profit : 0n),
      tradingDays,
      bestDayPct,
      consistencyOk,
    },
  };
}

const UNIT = 10n ** 10n;

function dayView(d: OpenDay, balance: bigint, floor: bigint): PropDay {
  return {
    day: d.day,
    startBalance: fromUnits(d.startBalance),
    endBalance: fromUnits(balance),
    pnl: fromUnits(balance - d.startBalance),
    floor: fromUnits(floor),
    worstLoss: fromUnits(d.worst),
    traded: d.traded,
    breached: d.breached,
    ...(d.limitHit ? { limitHit: true } : {}),
  };
}

/** A fill against the symbol's open lots, first in first out: what it realised, its fees taken. */
function realise(positions: Map<string, Position>, f: PropFill): bigint {
  const qty = toUnits(f.quantity);
  const price = toUnits(f.price);
  const multiplier = toUnits(f.multiplier);
  const buy = f.side === "buy";
  let p = positions.get(f.symbol);
  if (!p || p.lots.length === 0) {
    p = { long: buy, lots: [], multiplier, mark: price };
    positions.set(f.symbol, p);
  }
  p.mark = price;
  let realised = -toUnits(f.fees);
  let left = qty;
  if (p.long !== buy) {
    while (left > 0n && p.lots.length > 0) {
      const lot = p.lots[0]!;
      const take = lot.quantity < left ? lot.quantity : left;
      realised += multiplyUnits(multiplyUnits(price - lot.price, take), p.multiplier) * (p.long ? 1n : -1n);
      lot.quantity -= take;
      left -= take;
      if (lot.quantity === 0n) p.lots.shift();
    }
    // A fill past flat opens the other way.
    if (left > 0n) {
      p.long = buy;
      p.lots = [];
    }
  }
  if (left > 0n) p.lots.push({ quantity: left, price });
  return realised;
}
