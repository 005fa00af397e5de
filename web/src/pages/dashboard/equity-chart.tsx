import { baseChartOptions, chartPalette } from "../../lib/chart-theme.ts";
import { ChartAttribution } from "../../components/chart-attribution.tsx";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { formatAxis, formatDate, formatSigned, toneOf, type Unit } from "../../lib/format.ts";
import { drawdowns, maxDrawdown, periodsLine, scaleEquity, type Bucket, type EquityPoint } from "./equity.ts";

const BOX = { width: 640, height: 240, top: 12, right: 8, bottom: 12, left: 8 };

export type { Bucket } from "./equity.ts";

const BUCKET_WORD: Record<Bucket, string> = { day: "Day", week: "Week of", month: "Month" };
const BUCKET_WORD_NET: Record<Bucket, string> = { day: "Day", week: "Week", month: "Month" };

function bucketLabel(start: string, bucket: Bucket): string {
  if (bucket === "month") {
    return new Intl.DateTimeFormat(undefined, { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${start}T00:00:00Z`));
  }
  return formatDate(`${start}T00:00:00Z`, "UTC");
}

type Hover = { label: string; equity: string; netPnl: string; drawdown: string; trades: number };

/**
 * Cumulative net P&L per bucket on TradingView's lightweight-charts (loaded on first use, in a chunk of its
 * own): a price axis in the account's currency, a date axis, gridlines, the area above zero green and below
 * red, and the drawdown from the running high shaded in a pane beneath. Moving the pointer (or a finger)
 * over it shows the bucket's exact figures above the chart. The picture is described in words (a labelled
 * image) and every value is in the table below it, so nothing depends on seeing the chart.
 */
export function EquityChart({ points, bucket, unit }: { points: readonly EquityPoint[]; bucket: Bucket; unit: Unit }) {
  // In R the points hold cumulative R (equity) and each bucket's R (netPnl) over the trades with a 1R.
  const pnl = (v: string) => formatSigned(v, unit);
  const what = unit.kind === "r" ? "Cumulative R" : "Cumulative net P&L";
  const titleId = useId();
  const descId = useId();
  const host = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const g = scaleEquity(points, BOX);
  const dd = useMemo(() => drawdowns(points), [points]);
  const deepest = useMemo(() => maxDrawdown(points), [points]);
  const last = points[points.length - 1];
  const first = points[0];
  const description =
    first && last
      ? `From ${bucketLabel(first.start, bucket)} to ${bucketLabel(last.start, bucket)}: ${periodsLine(points, bucket)} ` +
        `${what} ends at ${pnl(last.equity)}; highest ${pnl(g.max)}, lowest ${pnl(g.min)}; ` +
        `deepest drawdown at a ${bucket}'s end ${pnl(deepest)} (the summary's max drawdown counts after every fill, so it can be deeper).`
      : "No closed trades in this period.";
  const tone = last ? toneOf(last.equity) : "zero";

  useEffect(() => {
    const element = host.current;
    // Without a 2D canvas (a test DOM) there is nothing to draw on: the words and the table say it all.
    if (!element || points.length === 0 || typeof CanvasRenderingContext2D === "undefined") return;
    let disposed = false;
    let remove: (() => void) | undefined;
    void import("lightweight-charts")
      .then((lw) => {
        if (disposed) return;
        const colors = chartPalette();
        const chart = lw.createChart(element, {
          ...baseChartOptions(lw, colors),
          timeScale: { borderColor: colors.border, fixLeftEdge: true, fixRightEdge: true },
          localization: { priceFormatter: (p: number) => formatAxis(p.toFixed(2), unit) },
          handleScroll: false,
          handleScale: false,
        });
        const equity = chart.addSeries(lw.BaselineSeries, {
          baseValue: { type: "price", price: 0 },
          topLineColor: colors.positive,
          topFillColor1: "rgba(17, 104, 47, 0.28)",
          topFillColor2: "rgba(17, 104, 47, 0.04)",
          bottomLineColor: colors.negative,
          bottomFillColor1: "rgba(180, 35, 24, 0.04)",
          bottomFillColor2: "rgba(180, 35, 24, 0.28)",
          lineWidth: 2,
          priceLineVisible: false,
          lastValueVisible: true,
          title: "Cumulative",
        });
        equity.setData(points.map((p) => ({ time: p.start, value: Number(p.equity) })));
        const drawdown = chart.addSeries(
          lw.AreaSeries,
          {
            lineColor: colors.negative,
            topColor: "rgba(180, 35, 24, 0.10)",
            bottomColor: "rgba(180, 35, 24, 0.35)",
            invertFilledArea: true,
            lineWidth: 1,
            priceLineVisible: false,
            lastValueVisible: false,
            title: "Drawdown",
          },
          1,
        );
        drawdown.setData(points.map((p, i) => ({ time: p.start, value: Number(dd[i]) })));
        chart.panes()[1]?.setHeight(70);
        chart.timeScale().fitContent();
        const byTime = new Map(points.map((p, i) => [p.start, i]));
        chart.subscribeCrosshairMove((param) => {
          const i = param.time === undefined ? undefined : byTime.get(String(param.time));
          if (i === undefined) return setHover(null);
          const p = points[i]!;
          setHover({ label: bucketLabel(p.start, bucket), equity: p.equity, netPnl: p.netPnl, drawdown: dd[i]!, trades: p.trades });
        });
        remove = () => chart.remove();
      })
      .catch(() => {
        // No canvas (a test DOM) or the chunk failed to load: the words and the table below still say it all.
      });
    return () => {
      disposed = true;
      remove?.();
      setHover(null);
    };
  }, [points, dd, bucket, unit]);

  const shown = hover ?? (last ? { label: bucketLabel(last.start, bucket), equity: last.equity, netPnl: last.netPnl, drawdown: dd[dd.length - 1]!, trades: last.trades } : null);
  return (
    <figure className="equity">
      <dl className="equity__legend">
        <div>
          <dt>End</dt>
          <dd className={tone}>{last ? pnl(last.equity) : "—"}</dd>
        </div>
        <div>
          <dt>High</dt>
          <dd>{pnl(g.max)}</dd>
        </div>
        <div>
          <dt>Low</dt>
          <dd>{pnl(g.min)}</dd>
        </div>
        <div>
          {/* Between bucket ends: the summary's max drawdown also counts the moves within a bucket. */}
          <dt>Max drawdown by {bucket}</dt>
          <dd className={toneOf(deepest)}>{pnl(deepest)}</dd>
        </div>
      </dl>
      {shown && (
        <p className="equity__hover" data-testid="equity-hover">
          <span>{bucket === "week" ? `Week of ${shown.label}` : shown.label}</span>
          <span className={toneOf(shown.equity)}>Cumulative {pnl(shown.equity)}</span>
          <span className={toneOf(shown.netPnl)}>
            {BUCKET_WORD_NET[bucket]} {pnl(shown.netPnl)}
          </span>
          <span>
            {shown.trades} {shown.trades === 1 ? "trade" : "trades"}
            {unit.kind === "r" ? " with risk" : ""}
          </span>
          <span className={toneOf(shown.drawdown)}>Drawdown {pnl(shown.drawdown)}</span>
        </p>
      )}
      <div className="equity__chart" role="img" aria-labelledby={`${titleId} ${descId}`}>
        <span id={titleId} className="visually-hidden">
          Equity curve by {bucket}
        </span>
        <span id={descId} className="visually-hidden">
          {description}
        </span>
        <div ref={host} className="equity__canvas" aria-hidden="true" />
      </div>
      <ChartAttribution />
      <details className="equity__data">
        <summary>Equity curve data table</summary>
        <div className="table-wrap">
          <table className="stack-table">
            <caption className="visually-hidden">{unit.kind === "r" ? `R and cumulative R by ${bucket}` : `Net P&L and cumulative P&L by ${bucket}`}</caption>
            <thead>
              <tr>
                <th scope="col">{BUCKET_WORD[bucket]}</th>
                <th scope="col" className="num">
                  {unit.kind === "r" ? "Trades with risk" : "Trades"}
                </th>
                <th scope="col" className="num">
                  {unit.kind === "r" ? "R" : "Net P&L"}
                </th>
                <th scope="col" className="num">
                  Cumulative
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.start}>
                  <th scope="row">{bucketLabel(p.start, bucket)}</th>
                  <td className="num" data-label={unit.kind === "r" ? "Trades with risk" : "Trades"}>
                    {p.trades}
                  </td>
                  <td className={`num ${toneOf(p.netPnl)}`} data-label={unit.kind === "r" ? "R" : "Net P&L"}>
                    {pnl(p.netPnl)}
                  </td>
                  <td className={`num ${toneOf(p.equity)}`} data-label="Cumulative">
                    {pnl(p.equity)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
