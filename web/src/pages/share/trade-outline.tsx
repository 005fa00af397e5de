// What the public link's page and a mentor's view show of a trade alike (docs/sharing.md): its figures (R,
// return or net P&L, entry and exit, when it was held) and its fills; and a period's summary figures. Only
// what they are given: a money-hidden share passes no amounts.
import { useEffect, useRef } from "react";
import { baseChartOptions, chartPalette } from "../../lib/chart-theme.ts";
import { formatDateTime, formatPnl, formatPrice, formatQuantity, formatR, priceDecimals, quantityDecimals, toneOf } from "../../lib/format.ts";

export type OutlineTrade = {
  openedAt: string;
  closedAt: string | null;
  averageEntryPrice: string | null;
  averageExitPrice: string | null;
  risk: { rMultiple: string | null };
  returnPercent?: string | null;
  netPnl?: string;
  currency?: string | null;
};
export type OutlineBar = { t: string; open: string; high: string; low: string; close: string };
export type OutlineFill = { executedAt: string; side: "buy" | "sell"; price: string; quantityInTrade?: string };

const signedPercent = (v: string) => `${Number(v) > 0 ? "+" : ""}${v}%`;

/** The trade's figures and its fills table; quantities only where the fills carry them. */
export function TradeOutline({ trade, fills }: { trade: OutlineTrade; fills: readonly OutlineFill[] }) {
  const decimals = priceDecimals([trade.averageEntryPrice, trade.averageExitPrice, ...fills.map((f) => f.price)]);
  const withQuantity = fills.some((f) => f.quantityInTrade !== undefined);
  const qty = quantityDecimals(fills.map((f) => f.quantityInTrade));
  const r = trade.risk.rMultiple;
  return (
    <>
      <dl className="stats">
        <div>
          <dt>R multiple</dt>
          <dd className={r ? toneOf(r) : undefined}>{r ? formatR(r) : "No 1R"}</dd>
        </div>
        {trade.returnPercent !== undefined && (
          <div>
            <dt>Return</dt>
            <dd className={trade.returnPercent ? toneOf(trade.returnPercent) : undefined}>{trade.returnPercent ? signedPercent(trade.returnPercent) : "–"}</dd>
          </div>
        )}
        {trade.netPnl !== undefined && (
          <div>
            <dt>Net P&L</dt>
            <dd className={toneOf(trade.netPnl)}>{formatPnl(trade.netPnl, trade.currency ?? null)}</dd>
          </div>
        )}
        <div>
          <dt>Entry → exit</dt>
          <dd>
            {trade.averageEntryPrice ? formatPrice(trade.averageEntryPrice, decimals) : "–"} → {trade.averageExitPrice ? formatPrice(trade.averageExitPrice, decimals) : "–"}
          </dd>
        </div>
        <div>
          <dt>Held</dt>
          <dd>
            {formatDateTime(trade.openedAt)}
            {trade.closedAt ? ` – ${formatDateTime(trade.closedAt)}` : ""}
          </dd>
        </div>
      </dl>
      <section>
        <h2>Fills</h2>
        <div className="table-wrap">
          <table className="stack-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Side</th>
                {withQuantity && (
                  <th scope="col" className="num">
                    Quantity
                  </th>
                )}
                <th scope="col" className="num">
                  Price
                </th>
              </tr>
            </thead>
            <tbody>
              {fills.map((f, i) => (
                <tr key={i}>
                  <td>{formatDateTime(f.executedAt)}</td>
                  <td>{f.side === "buy" ? "Buy" : "Sell"}</td>
                  {withQuantity && <td className="num">{f.quantityInTrade ? formatQuantity(f.quantityInTrade, qty) : "–"}</td>}
                  <td className="num">{formatPrice(f.price, decimals)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

export type SummaryFigures = { trades: number; winRate: string | null; profitFactor: string | null; netPnl?: string; currency?: string | null; r: { total: string | null; expectancy: string | null } };

/** A period's summary: counts, win rate, profit factor, R; net P&L when given. */
export function SummaryOutline({ summary: s }: { summary: SummaryFigures }) {
  return (
    <dl className="stats">
      <div>
        <dt>Closed trades</dt>
        <dd>{s.trades}</dd>
      </div>
      <div>
        <dt>Win rate</dt>
        <dd>{s.winRate === null ? "–" : `${(Number(s.winRate) * 100).toFixed(1)}%`}</dd>
      </div>
      <div>
        <dt>Profit factor</dt>
        <dd>{s.profitFactor ?? "–"}</dd>
      </div>
      <div>
        <dt>Total R</dt>
        <dd>{s.r.total ? formatR(s.r.total) : "–"}</dd>
      </div>
      <div>
        <dt>Expectancy</dt>
        <dd>{s.r.expectancy ? formatR(s.r.expectancy) : "–"}</dd>
      </div>
      {s.netPnl !== undefined && (
        <div>
          <dt>Net P&L</dt>
          <dd className={toneOf(s.netPnl)}>{formatPnl(s.netPnl, s.currency ?? null)}</dd>
        </div>
      )}
    </dl>
  );
}

/** The bars around the trade, with its fills as markers (lightweight-charts, loaded on first use). */
export function BarsChart({ bars, fills, daily }: { bars: readonly OutlineBar[]; fills: readonly OutlineFill[]; daily: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element || typeof CanvasRenderingContext2D === "undefined") return;
    let remove: (() => void) | undefined;
    let disposed = false;
    void import("lightweight-charts").then((lw) => {
      if (disposed) return;
      const colors = chartPalette();
      const view = lw.createChart(element, { ...baseChartOptions(lw, colors), timeScale: { borderColor: colors.border, timeVisible: !daily, secondsVisible: false } });
      const price = view.addSeries(lw.CandlestickSeries, { upColor: colors.positive, downColor: colors.negative, borderVisible: false, wickUpColor: colors.positive, wickDownColor: colors.negative, priceLineVisible: false });
      const at = (iso: string) => Math.floor(Date.parse(iso) / 1000) as never;
      price.setData(bars.map((b) => ({ time: at(b.t), open: Number(b.open), high: Number(b.high), low: Number(b.low), close: Number(b.close) })));
      // Each fill on the bar it falls in.
      const starts = bars.map((b) => Date.parse(b.t));
      const barOf = (t: number) => starts.reduce((found, s) => (s <= t ? s : found), starts[0]!);
      lw.createSeriesMarkers(
        price,
        fills
          .map((f) => ({ time: Math.floor(barOf(Date.parse(f.executedAt)) / 1000) as never, position: f.side === "buy" ? ("belowBar" as const) : ("aboveBar" as const), shape: f.side === "buy" ? ("arrowUp" as const) : ("arrowDown" as const), color: f.side === "buy" ? colors.positive : colors.negative, text: f.side === "buy" ? "Buy" : "Sell" }))
          .sort((a, b) => Number(a.time) - Number(b.time)),
      );
      view.timeScale().fitContent();
      element.dataset.candles = String(bars.length);
      remove = () => view.remove();
    });
    return () => {
      disposed = true;
      remove?.();
    };
  }, [bars, fills, daily]);
  return <div ref={host} className="trade-chart" role="img" aria-label={`Price bars around the trade with its ${fills.length} fills marked`} />;
}

