// Risk in R (DESIGN.md section 10, "Risk and R"; docs/trading.md "Risk and R"): a trade's 1R, its result in R
// and its planned reward-to-risk, as SQL over a position `p`, its journal `j` (left-joined: a trade without a
// journal has no plan) and its account `a`. One definition, read by the trades, the statistics and the advisor.
import { sql } from "drizzle-orm";
import { formatDecimal } from "./money.ts";

/**
 * 1R in money: the planned risk when set, else |entry - stop| x the largest size the trade held x the
 * multiplier, else the account's default risk, else null (the SQL function trade_one_r, its one definition,
 * which the maintained statistics read too). The entry (the average price of the opening fills) is kept on
 * the journal with the trade (journals_follow).
 */
const ONE_R = "trade_one_r(j.planned_risk, j.entry_price, j.stop_price, p.max_quantity, p.multiplier, a.default_risk)";

/**
 * 1R of each trade, for aggregates. Statistics group trades by their 1R and divide each group's sums once:
 * sum(net / 1R) over a group is sum(net) / 1R, and R > 0 exactly when net > 0. Many trades share a 1R (the
 * account's default risk), so this is one division per distinct 1R instead of one per trade (at 100,000
 * trades a per-trade division cost as much again as the rest of the summary), and it is exact.
 */
export const ONE_R_SQL = sql.raw(`(${ONE_R})`);

/** The trade's net realised P&L (so far, while open) in R, unrounded (the R distribution buckets each trade). */
export const R_MULTIPLE_TEXT = `(p.net_pnl / nullif(${ONE_R}, 0))`;
export const R_MULTIPLE = sql.raw(R_MULTIPLE_TEXT);

/** The risk object's columns, as text (null when undefined). */
export const riskColumns = sql.raw(`j.stop_price::text as stop_price, j.target_price::text as target_price,
  j.planned_risk::text as planned_risk, round(${ONE_R}, 10)::text as one_r,
  round(p.net_pnl / nullif(${ONE_R}, 0), 2)::text as r_multiple,
  round(abs(j.target_price - j.entry_price) / nullif(abs(j.entry_price - j.stop_price), 0), 2)::text as planned_rr`);

export type RiskRow = {
  stop_price: string | null;
  target_price: string | null;
  planned_risk: string | null;
  one_r: string | null;
  r_multiple: string | null;
  planned_rr: string | null;
};

const dec = (v: string | null) => (v === null ? null : formatDecimal(v));

/** `risk` of a trade: {stopPrice, targetPrice, plannedRisk, oneR, rMultiple, plannedRR}, strings or null. */
export function toRisk(r: RiskRow) {
  return {
    stopPrice: dec(r.stop_price),
    targetPrice: dec(r.target_price),
    plannedRisk: dec(r.planned_risk),
    oneR: dec(r.one_r),
    rMultiple: dec(r.r_multiple),
    plannedRR: dec(r.planned_rr),
  };
}
