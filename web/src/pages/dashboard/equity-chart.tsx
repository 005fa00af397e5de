import { useId } from "react";
import { formatDate, formatPnl, toneOf } from "../../lib/format.ts";
import { scaleEquity, type EquityPoint } from "./equity.ts";

const BOX = { width: 640, height: 240, top: 12, right: 8, bottom: 12, left: 8 };

export type Bucket = "day" | "week" | "month";

const BUCKET_WORD: Record<Bucket, string> = { day: "Day", week: "Week of", month: "Month" };

function bucketLabel(start: string, bucket: Bucket): string {
  if (bucket === "month") {
    return new Intl.DateTimeFormat(undefined, { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${start}T00:00:00Z`));
  }
  return formatDate(`${start}T00:00:00Z`, "UTC");
}

/**
 * Cumulative net P&L per bucket, drawn as SVG. The picture is described in words (title, description)
 * and every value is in the table below it, so nothing depends on seeing the line.
 */
export function EquityChart({ points, bucket, currency }: { points: readonly EquityPoint[]; bucket: Bucket; currency: string | null }) {
  const titleId = useId();
  const descId = useId();
  const g = scaleEquity(points, BOX);
  const last = points[points.length - 1];
  const first = points[0];
  const description =
    first && last
      ? `From ${bucketLabel(first.start, bucket)} to ${bucketLabel(last.start, bucket)}, ${points.length} ${bucket}${points.length === 1 ? "" : "s"} with closed trades. ` +
        `Cumulative net P&L ends at ${formatPnl(last.equity, currency)}; highest ${formatPnl(g.max, currency)}, lowest ${formatPnl(g.min, currency)}.`
      : "No closed trades in this period.";
  const tone = last ? toneOf(last.equity) : "zero";
  return (
    <figure className="equity">
      <dl className="equity__legend">
        <div>
          <dt>End</dt>
          <dd className={tone}>{last ? formatPnl(last.equity, currency) : "—"}</dd>
        </div>
        <div>
          <dt>High</dt>
          <dd>{formatPnl(g.max, currency)}</dd>
        </div>
        <div>
          <dt>Low</dt>
          <dd>{formatPnl(g.min, currency)}</dd>
        </div>
      </dl>
      <svg
        className="equity__svg"
        viewBox={`0 0 ${BOX.width} ${BOX.height}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
      >
        <title id={titleId}>Equity curve by {bucket}</title>
        <desc id={descId}>{description}</desc>
        <line className="equity__zero" x1={BOX.left} x2={BOX.width - BOX.right} y1={g.zeroY} y2={g.zeroY} vectorEffect="non-scaling-stroke" />
        {points.length > 1 && <path className="equity__area" d={g.area} />}
        {points.length > 1 && <path className={`equity__line equity__line--${tone}`} d={g.line} vectorEffect="non-scaling-stroke" />}
        {points.length <= 1 &&
          // A zero-length round-capped stroke: a dot that stays round although the SVG stretches to the width.
          g.coords.map((c) => (
            <path key={c.point.start} className={`equity__dot equity__dot--${tone}`} d={`M${c.x} ${c.y} l0 0`} vectorEffect="non-scaling-stroke" />
          ))}
      </svg>
      {first && last && (
        <figcaption className="equity__axis">
          <span>{bucketLabel(first.start, bucket)}</span>
          <span>{bucketLabel(last.start, bucket)}</span>
        </figcaption>
      )}
      <details className="equity__data">
        <summary>Equity curve data table</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Net P&amp;L and cumulative P&amp;L by {bucket}</caption>
            <thead>
              <tr>
                <th scope="col">{BUCKET_WORD[bucket]}</th>
                <th scope="col" className="num">
                  Trades
                </th>
                <th scope="col" className="num">
                  Net P&amp;L
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
                  <td className="num">{p.trades}</td>
                  <td className={`num ${toneOf(p.netPnl)}`}>{formatPnl(p.netPnl, currency)}</td>
                  <td className={`num ${toneOf(p.equity)}`}>{formatPnl(p.equity, currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
