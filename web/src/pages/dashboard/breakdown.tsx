import { Link } from "react-router";
import { compareDecimals } from "../../lib/decimal.ts";
import { formatSigned, symbolLabel, toneOf, type Unit } from "../../lib/format.ts";
import { formatWinRate } from "./format.ts";

export type BreakdownBy = "symbol" | "direction" | "tag" | "setup" | "weekday" | "hour" | "rules" | "strategy";
/**
 * `trades`: the count shown (closed trades; in R, those with a 1R); the win rate is `wins` of `closed` (all the
 * group's closed trades: none when only partial exits realised P&L in the range).
 */
export type BreakdownGroup = { key: string; netPnl: string; trades: number; wins: number; closed: number };

export const BREAKDOWN_LABELS: Record<BreakdownBy, string> = {
  symbol: "Symbol",
  direction: "Long or short",
  tag: "Tag",
  setup: "Setup",
  weekday: "Weekday of entry",
  hour: "Hour of entry",
  rules: "Trading rules kept",
  strategy: "Option strategy",
};

/** The largest magnitude, exactly: bars are drawn relative to it. */
function largest(groups: readonly BreakdownGroup[]): string {
  let max = "0";
  for (const g of groups) {
    const abs = g.netPnl.startsWith("-") ? g.netPnl.slice(1) : g.netPnl;
    if (compareDecimals(abs, max) > 0) max = abs;
  }
  return max;
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/**
 * The trades list's filters for a group (web/src/pages/trades: the API's symbol, direction, tag, setup,
 * entryWeekday, entryHour and rules), or null when the group has none.
 */
export function groupFilter(by: BreakdownBy, key: string): Record<string, string> | null {
  switch (by) {
    case "symbol":
      return { symbol: key };
    case "direction":
      return key === "Long" || key === "Short" ? { direction: key.toLowerCase() } : null;
    case "tag":
      return { tag: key };
    case "setup":
      return key === "No setup" ? { noSetup: "1" } : { setup: key };
    case "weekday":
      return WEEKDAYS.includes(key) ? { entryWeekday: String(WEEKDAYS.indexOf(key) + 1) } : null;
    case "hour":
      return /^\d{1,2}$/.test(key) ? { entryHour: key } : null;
    case "rules":
      return key === "Broke a rule" ? { rules: "broke" } : key === "Kept every rule" ? { rules: "kept" } : null;
    case "strategy":
      return null; // a strategy kind opens the strategies list (the dashboard's link), not the trades list
  }
}

function keyLabel(by: BreakdownBy, key: string): string {
  if (by === "hour") return `${key.padStart(2, "0")}:00`;
  // An option reads as everywhere else in the app ("SPY 16 Feb 24 480 Call"), not as its OCC code.
  return by === "symbol" ? symbolLabel(key) : key;
}

/**
 * Net P&L per group as a table (in R: `netPnl` holds the group's R and `trades` those with a 1R); the bar
 * beside each figure is decoration (aria-hidden), the text is the data.
 */
export function BreakdownTable({ by, groups, unit, tradesHref }: { by: BreakdownBy; groups: readonly BreakdownGroup[]; unit: Unit; tradesHref?: (key: string) => string | null }) {
  const inR = unit.kind === "r";
  const max = largest(groups);
  // Bar widths are pixels, not money: a float ratio is fine here.
  const width = (v: string) => (Number(max) === 0 ? 0 : Math.round((Math.abs(Number(v)) / Number(max)) * 100));
  return (
    <div className="table-wrap">
      <table className="breakdown stack-table">
        <caption className="visually-hidden">
          {inR ? "R" : "Net P&L"} by {BREAKDOWN_LABELS[by].toLowerCase()}
        </caption>
        <thead>
          <tr>
            <th scope="col">{BREAKDOWN_LABELS[by]}</th>
            <th scope="col" className="num">
              {by === "strategy" ? (inR ? "Strategies with risk" : "Strategies") : inR ? "Trades with risk" : "Trades"}
            </th>
            <th scope="col" className="num">
              Win rate
            </th>
            <th scope="col" className="num">
              {inR ? "Total R" : "Net P&L"}
            </th>
            <th scope="col" className="breakdown__bar-col">
              <span className="visually-hidden">Bar</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => {
            const tone = toneOf(g.netPnl);
            return (
              <tr key={g.key}>
                <th scope="row">
                  {tradesHref?.(g.key) ? (
                    <Link to={tradesHref(g.key)!} title={`The trades of ${keyLabel(by, g.key)} in this period`}>
                      {keyLabel(by, g.key)}
                    </Link>
                  ) : (
                    keyLabel(by, g.key)
                  )}
                </th>
                <td className="num" data-label={inR ? "Trades with risk" : "Trades"}>
                  {g.trades}
                </td>
                <td className="num" data-label="Win rate">
                  {formatWinRate(g.wins, g.closed)}
                </td>
                <td className={`num ${tone}`} data-label={inR ? "Total R" : "Net P&L"}>
                  {formatSigned(g.netPnl, unit)}
                </td>
                <td className="breakdown__bar-col" aria-hidden="true">
                  <span className={`breakdown__bar breakdown__bar--${tone}`} style={{ width: `${width(g.netPnl)}%` }} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
