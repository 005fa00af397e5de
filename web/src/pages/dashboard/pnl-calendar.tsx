import type { ReactNode } from "react";
import { Link } from "react-router";
import { addMonths, monthBounds, monthGrid, monthLabel, weekdayHeadings, type Month } from "./calendar.ts";
import { addDecimals } from "../../lib/decimal.ts";
import { formatSigned, formatSignedCompact, toneOf, type Unit } from "../../lib/format.ts";

export type CalendarDay = { date: string; netPnl: string; trades: number };

type Props = {
  month: Month;
  days: readonly CalendarDay[];
  weekStart: 0 | 1;
  /** Money, or R (then each day's `netPnl` is its R and `trades` those with a 1R). */
  unit: Unit;
  onMonthChange: (delta: number) => void;
  /** Days with a daily journal entry, and the account it is in (the mark links to that week's journal). */
  journaled?: ReadonlyMap<string, string>;
  /** Where a day's trades are listed (those with a fill that day): its amount links there. */
  tradesHref?: (date: string) => string;
};

/** Why a day without a closed trade has P&L. */
const NO_CLOSE = "no trade closed this day; its amount is fees and partial exits of trades still open";

/** A day's figures, as a link to its trades when there is a list to open. */
function DayLink({ href, date, children }: { href: string | undefined; date: string; children: ReactNode }) {
  if (!href) return <>{children}</>;
  return (
    <Link to={href} className="calendar__trades">
      <span className="visually-hidden">Trades of {date}: </span>
      {children}
    </Link>
  );
}

/**
 * One month of daily net P&L on the account's trading day. Each day with trades shows its signed amount
 * and trade count in text (a day where no trade closed says where its amount comes from); the colour only
 * repeats what the sign says. On a phone the cell shows a short
 * signed number without the currency symbol (the month total above the grid carries it). The last column
 * totals each week (its days within this month).
 */
export function PnlCalendar({ month, days, weekStart, unit, onMonthChange, journaled, tradesHref }: Props) {
  const { first, next } = monthBounds(month);
  const inMonth = days.filter((d) => d.date >= first && d.date < next);
  const byDate = new Map(inMonth.map((d) => [d.date, d]));
  const total = inMonth.reduce((sum, d) => addDecimals(sum, d.netPnl), "0");
  const trades = inMonth.reduce((n, d) => n + d.trades, 0);
  const label = monthLabel(month);
  const headings = weekdayHeadings(weekStart);
  return (
    <div className="calendar">
      <div className="calendar__nav">
        <button type="button" className="button button--secondary button--small" onClick={() => onMonthChange(-1)} aria-label={`Previous month, ${monthLabel(addMonths(month, -1))}`}>
          ‹ Previous
        </button>
        <p className="calendar__title" aria-live="polite">
          <strong>{label}</strong>{" "}
          <span className={toneOf(total)}>
            {trades > 0
              ? `${formatSigned(total, unit)} · ${trades} ${trades === 1 ? "trade" : "trades"}${unit.kind === "r" ? " with risk" : ""}`
              : unit.kind === "r"
                ? "No closed trades with risk"
                : "No closed trades"}
          </span>
        </p>
        <button type="button" className="button button--secondary button--small" onClick={() => onMonthChange(1)} aria-label={`Next month, ${monthLabel(addMonths(month, 1))}`}>
          Next ›
        </button>
      </div>
      <table className="calendar__grid">
        <caption className="visually-hidden">
          {unit.kind === "r" ? "Daily R" : "Daily net P&L"}, {label}
        </caption>
        <thead>
          <tr>
            {headings.map((h) => (
              <th key={h.long} scope="col">
                <abbr title={h.long}>{h.short}</abbr>
              </th>
            ))}
            <th scope="col" className="calendar__week-head">
              <abbr title="Week total">Week</abbr>
            </th>
          </tr>
        </thead>
        <tbody>
          {monthGrid(month, weekStart).map((week, w) => {
            const entries = week.flatMap((cell) => (cell && byDate.get(cell.date)) || []);
            const weekTotal = entries.reduce((sum, d) => addDecimals(sum, d.netPnl), "0");
            const weekTrades = entries.reduce((n, d) => n + d.trades, 0);
            return (
            <tr key={w}>
              {week.map((cell, i) => {
                if (!cell) return <td key={i} className="calendar__cell calendar__cell--outside" />;
                const entry = byDate.get(cell.date);
                const tone = entry ? toneOf(entry.netPnl) : "zero";
                return (
                  <td key={i} className={`calendar__cell${entry ? ` calendar__cell--${tone}` : ""}`} data-date={cell.date}>
                    <time dateTime={cell.date} className="calendar__day">
                      {cell.day}
                    </time>
                    {journaled?.has(cell.date) && (
                      <Link to={`/journal?account=${journaled.get(cell.date)}&week=${cell.date}`} className="calendar__journal" title="Journal entry">
                        ✎<span className="visually-hidden"> Journal entry of {cell.date}</span>
                      </Link>
                    )}
                    {entry && (
                      <DayLink href={tradesHref?.(cell.date)} date={cell.date}>
                        <span className="calendar__pnl">{formatSigned(entry.netPnl, unit)}</span>
                        <span className="calendar__pnl-compact" aria-hidden="true">
                          {formatSignedCompact(entry.netPnl, unit)}
                        </span>
                        {entry.trades > 0 ? (
                          <span className="calendar__count">
                            {entry.trades} {entry.trades === 1 ? "trade" : "trades"}
                          </span>
                        ) : (
                          <span className="calendar__count" title={NO_CLOSE}>
                            no close<span className="visually-hidden">: {NO_CLOSE}</span>
                          </span>
                        )}
                      </DayLink>
                    )}
                  </td>
                );
              })}
              <td className={`calendar__week${entries.length ? ` ${toneOf(weekTotal)}` : ""}`} data-week={w + 1}>
                {entries.length > 0 ? (
                  <>
                    <span className="calendar__pnl">{formatSigned(weekTotal, unit)}</span>
                    <span className="calendar__pnl-compact" aria-hidden="true">
                      {formatSignedCompact(weekTotal, unit)}
                    </span>
                    <span className="calendar__count">
                      {weekTrades} {weekTrades === 1 ? "trade" : "trades"}
                    </span>
                  </>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
