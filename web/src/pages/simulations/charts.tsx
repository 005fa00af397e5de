// The Simulations page's pictures (docs/simulations.md), drawn as SVG from the figures the API answers: the fan
// of equity percentiles along the paths, a histogram, and two equity curves overlaid. Each is a labelled image
// whose words say what it shows; the figures are in the tables beside them.
import { useId } from "react";

const W = 640;
const H = 220;
const PAD = 8;

type Scale = { x(i: number): number; y(v: number): number };

function scale(count: number, values: number[]): Scale & { min: number; max: number } {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  return {
    min,
    max,
    x: (i) => PAD + (count <= 1 ? 0 : (i / (count - 1)) * (W - 2 * PAD)),
    y: (v) => H - PAD - ((v - min) / span) * (H - 2 * PAD),
  };
}

const line = (values: number[], s: Scale) => values.map((v, i) => `${i ? "L" : "M"}${s.x(i).toFixed(1)},${s.y(v).toFixed(1)}`).join("");
const band = (lo: number[], hi: number[], s: Scale) => `${line(hi, s)}${lo.map((v, i) => `L${s.x(lo.length - 1 - i).toFixed(1)},${s.y(lo[lo.length - 1 - i]!).toFixed(1)}`).join("")}Z`;

export type FanPoint = { trade: number; p5: string; p25: string; p50: string; p75: string; p95: string };

/** Percentile bands of equity along the paths (5-95 and 25-75), the median, and a few single paths. */
export function FanChart({ fan, samples, description }: { fan: readonly FanPoint[]; samples: readonly (readonly string[])[]; description: string }) {
  const titleId = useId();
  const col = (k: keyof Omit<FanPoint, "trade">) => fan.map((p) => Number(p[k]));
  const all = [...col("p5"), ...col("p95"), ...samples.flat().map(Number)];
  const s = scale(fan.length, all);
  return (
    <svg className="sim-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none">
      <title id={titleId}>{description}</title>
      {samples.map((p, i) => (
        <path key={i} d={line(p.map(Number), s)} className="sim-chart__sample" />
      ))}
      <path d={band(col("p5"), col("p95"), s)} className="sim-chart__band-outer" />
      <path d={band(col("p25"), col("p75"), s)} className="sim-chart__band-inner" />
      <path d={line(col("p50"), s)} className="sim-chart__median" />
    </svg>
  );
}

/** A histogram of `counts` in equal bins. */
export function Histogram({ counts, description }: { counts: readonly number[]; description: string }) {
  const titleId = useId();
  const top = Math.max(1, ...counts);
  const width = (W - 2 * PAD) / Math.max(1, counts.length);
  return (
    <svg className="sim-chart sim-chart--short" viewBox={`0 0 ${W} ${H / 2}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none">
      <title id={titleId}>{description}</title>
      {counts.map((c, i) => {
        const h = (c / top) * (H / 2 - 2 * PAD);
        return <rect key={i} x={PAD + i * width + 1} y={H / 2 - PAD - h} width={Math.max(1, width - 2)} height={h} className="sim-chart__bar" />;
      })}
    </svg>
  );
}

/** Two cumulative curves over the same dates: as it was (solid) and the what-if (dashed). */
export function OverlayChart({ actual, whatIf, description }: { actual: readonly string[]; whatIf: readonly string[]; description: string }) {
  const titleId = useId();
  const a = actual.map(Number);
  const w = whatIf.map(Number);
  const s = scale(a.length, [0, ...a, ...w]);
  return (
    <svg className="sim-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none">
      <title id={titleId}>{description}</title>
      <line x1={PAD} x2={W - PAD} y1={s.y(0)} y2={s.y(0)} className="sim-chart__zero" />
      <path d={line(a, s)} className="sim-chart__actual" />
      <path d={line(w, s)} className="sim-chart__what-if" />
    </svg>
  );
}
