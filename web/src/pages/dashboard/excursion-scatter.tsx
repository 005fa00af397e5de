// The dashboard's excursion scatter plots (docs/charts.md): each closed trade with excursions as a point, its
// MAE (or MFE) across and its net P&L up, winners green and losers red, in money or in R. An SVG with its
// axes at zero; the words beneath say what the points show (how far winners and losers went against you,
// how much of the move the trades kept), and each point names its trade on hover and focus.
import { useId } from "react";
import { Link } from "react-router";
import { formatSigned, symbolLabel, type Unit } from "../../lib/format.ts";

export type ExcursionPoint = {
  tradeId: string;
  symbol: string;
  netPnl: string;
  positionMae: string;
  positionMfe: string;
  maeR: string | null;
  mfeR: string | null;
  rMultiple: string | null;
  efficiency: string | null;
};

const BOX = { width: 320, height: 220, pad: 28 };

function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** One plot: `which` across (MAE or MFE) against the result up. */
function Scatter({ points, which, unit }: { points: ReadonlyArray<{ x: number; y: number; p: ExcursionPoint }>; which: "MAE" | "MFE"; unit: Unit }) {
  const titleId = useId();
  const xs = points.map((q) => q.x);
  const ys = points.map((q) => q.y);
  const [x0, x1] = [Math.min(0, ...xs), Math.max(0, ...xs)];
  const [y0, y1] = [Math.min(0, ...ys), Math.max(0, ...ys)];
  const sx = (x: number) => BOX.pad + ((x - x0) / (x1 - x0 || 1)) * (BOX.width - 2 * BOX.pad);
  const sy = (y: number) => BOX.height - BOX.pad - ((y - y0) / (y1 - y0 || 1)) * (BOX.height - 2 * BOX.pad);
  const fmt = (v: number) => formatSigned(v.toFixed(2), unit);
  return (
    <figure className="scatter">
      <figcaption id={titleId}>
        {which} against the result{unit.kind === "r" ? " (R)" : ""}
      </figcaption>
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} role="img" aria-labelledby={titleId} className="scatter__plot">
        <line x1={sx(0)} x2={sx(0)} y1={BOX.pad / 2} y2={BOX.height - BOX.pad / 2} className="scatter__axis" />
        <line x1={BOX.pad / 2} x2={BOX.width - BOX.pad / 2} y1={sy(0)} y2={sy(0)} className="scatter__axis" />
        <text x={BOX.width - BOX.pad / 2} y={sy(0) - 4} textAnchor="end" className="scatter__label">
          {which} {fmt(which === "MAE" ? x0 : x1)}
        </text>
        <text x={sx(0) + 4} y={BOX.pad / 2 + 8} className="scatter__label">
          result {fmt(y1)}
        </text>
        {points.map(({ x, y, p }) => (
          <Link key={p.tradeId} to={`/trades/${p.tradeId}`} aria-label={`${p.symbol}: ${which} ${fmt(x)}, result ${fmt(y)}`}>
            <circle cx={sx(x)} cy={sy(y)} r={3.5} className={y >= 0 ? "scatter__dot scatter__dot--win" : "scatter__dot scatter__dot--loss"}>
              <title>{`${symbolLabel(p.symbol)}: ${which} ${fmt(x)}, result ${fmt(y)}`}</title>
            </circle>
          </Link>
        ))}
      </svg>
    </figure>
  );
}

export function ExcursionScatter({ points, trades, withExcursions, unit }: { points: readonly ExcursionPoint[]; trades: number; withExcursions: number; unit: Unit }) {
  const inR = unit.kind === "r";
  const usable = points.filter((p) => !inR || (p.maeR !== null && p.mfeR !== null && p.rMultiple !== null));
  const mae = usable.map((p) => ({ x: Number(inR ? p.maeR : p.positionMae), y: Number(inR ? p.rMultiple : p.netPnl), p }));
  const mfe = usable.map((p) => ({ x: Number(inR ? p.mfeR : p.positionMfe), y: Number(inR ? p.rMultiple : p.netPnl), p }));
  const winners = mae.filter((q) => q.y > 0).map((q) => q.x);
  const losers = mae.filter((q) => q.y < 0).map((q) => q.x);
  const kept = median(usable.flatMap((p) => (p.efficiency === null ? [] : [Number(p.efficiency)])));
  const fmt = (v: number | null) => (v === null ? "—" : formatSigned(v.toFixed(2), unit));
  if (withExcursions === 0) {
    return (
      <p className="muted">
        None of the {trades} closed {trades === 1 ? "trade" : "trades"} has bars yet: add a bar provider key in Settings, or upload candles on a
        trade's page, to see how far each went for and against you.
      </p>
    );
  }
  return (
    <>
      <p className="muted">
        {usable.length} of {trades} closed {trades === 1 ? "trade" : "trades"} with bars{inR ? " and a 1R" : ""}. Median MAE of winners {fmt(median(winners))}, of
        losers {fmt(median(losers))}; median share of the best exit kept {kept === null ? "—" : `${Math.round(kept * 100)} %`}.
      </p>
      <div className="scatter-pair">
        <Scatter points={mae} which="MAE" unit={unit} />
        <Scatter points={mfe} which="MFE" unit={unit} />
      </div>
    </>
  );
}
