// A strategy's payoff at expiry (docs/options.md): profit up, the underlying's price across, the profit green above
// zero and the loss red below, the strikes marked on the axis, the breakevens dashed and the underlying at entry
// dotted. An SVG whose caption says the same in words, for a screen reader and for a reader in a hurry.
import { useId } from "react";
import { formatDateTime, formatPnl, formatPrice, priceDecimals } from "../../lib/format.ts";
import { payoffData, type ApiLeg } from "./payoff.ts";

const BOX = { width: 640, height: 240, left: 64, right: 16, top: 20, bottom: 32 };

type Quote = { price: string; asOf: string; stale: boolean };
type Props = { legs: readonly ApiLeg[]; breakevens: readonly string[]; maxProfit: string | null; maxLoss: string | null; currency: string; quote?: Quote | null; zone?: string | undefined };

export function PayoffChart({ legs, breakevens, maxProfit, maxLoss, currency, quote = null, zone }: Props) {
  const raw = useId();
  const id = raw.replace(/[^a-zA-Z0-9_-]/g, "");
  const data = payoffData(legs, breakevens, quote?.price ?? null);
  if (!data)
    return (
      <p className="muted">
        {new Set(legs.map((l) => l.expiry).filter(Boolean)).size > 1
          ? "Its legs expire on different days, so there is no single payoff at expiry to draw."
          : "The payoff cannot be drawn: a leg's option symbol or price could not be read."}
      </p>
    );
  const { low, high, points } = data;
  const profits = points.map((p) => p.profit);
  const [top, bottom] = [Math.max(0, ...profits), Math.min(0, ...profits)];
  const span = top - bottom || 1;
  const [y0, y1] = [bottom - span * 0.08, top + span * 0.08];
  const sx = (x: number) => BOX.left + ((x - low) / (high - low)) * (BOX.width - BOX.left - BOX.right);
  const sy = (y: number) => BOX.top + ((y1 - y) / (y1 - y0)) * (BOX.height - BOX.top - BOX.bottom);
  const zero = sy(0);
  const line = points.map((p) => `${sx(p.price).toFixed(1)},${sy(p.profit).toFixed(1)}`).join(" ");
  const area = `${sx(low).toFixed(1)},${zero.toFixed(1)} ${line} ${sx(high).toFixed(1)},${zero.toFixed(1)}`;
  const strikes = [...new Set(legs.flatMap((l) => (l.strike ? [l.strike] : [])))];
  const entry = legs.find((l) => l.entry)?.entry?.underlyingPrice ?? null;
  const decimals = priceDecimals([...strikes, ...breakevens], 2);
  const price = (v: string) => formatPrice(v, decimals);
  const money = (v: number) => formatPnl(v.toFixed(2), currency);
  const inRange = (v: string) => Number(v) >= low && Number(v) <= high;
  return (
    <figure className="payoff">
      <figcaption id={`${id}-caption`}>
        At expiry: {maxProfit === null ? "the profit has no limit" : `at most ${formatPnl(maxProfit, currency)}`},{" "}
        {maxLoss === null ? "the loss has no limit" : `at worst ${formatPnl(`-${maxLoss}`, currency)}`}
        {breakevens.length > 0 ? `; breakeven at ${breakevens.map(price).join(" and ")}` : ""}
        {entry ? `; the underlying was at ${formatPrice(entry, priceDecimals([entry], 2))} at entry` : ""}
        {quote ? `; now ${formatPrice(quote.price, priceDecimals([quote.price], 2))} (delayed quote, ${quote.stale ? "stale, " : ""}${formatDateTime(quote.asOf, zone)})` : ""}. Fees not included.
      </figcaption>
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} role="img" aria-labelledby={`${id}-caption`} className="payoff__plot">
        <defs>
          <clipPath id={`${id}-above`}>
            <rect x={0} y={0} width={BOX.width} height={zero} />
          </clipPath>
          <clipPath id={`${id}-below`}>
            <rect x={0} y={zero} width={BOX.width} height={BOX.height - zero} />
          </clipPath>
        </defs>
        <polygon points={area} className="payoff__area payoff__area--profit" clipPath={`url(#${id}-above)`} />
        <polygon points={area} className="payoff__area payoff__area--loss" clipPath={`url(#${id}-below)`} />
        <line x1={BOX.left} x2={BOX.width - BOX.right} y1={zero} y2={zero} className="payoff__axis" />
        <text x={BOX.left - 6} y={zero + 3} textAnchor="end" className="payoff__label">
          {money(0)}
        </text>
        {top > 0 && (
          <text x={BOX.left - 6} y={sy(top) + 3} textAnchor="end" className="payoff__label">
            {money(top)}
          </text>
        )}
        {bottom < 0 && (
          <text x={BOX.left - 6} y={sy(bottom) + 3} textAnchor="end" className="payoff__label">
            {money(bottom)}
          </text>
        )}
        {strikes.filter(inRange).map((k) => (
          <g key={`k${k}`}>
            <line x1={sx(Number(k))} x2={sx(Number(k))} y1={BOX.height - BOX.bottom} y2={BOX.height - BOX.bottom + 4} className="payoff__axis" />
            <text x={sx(Number(k))} y={BOX.height - BOX.bottom + 16} textAnchor="middle" className="payoff__label">
              {price(k)}
            </text>
          </g>
        ))}
        {breakevens.filter(inRange).map((b) => (
          <line key={`b${b}`} x1={sx(Number(b))} x2={sx(Number(b))} y1={BOX.top} y2={BOX.height - BOX.bottom} className="payoff__breakeven" />
        ))}
        {entry && inRange(entry) && <line x1={sx(Number(entry))} x2={sx(Number(entry))} y1={BOX.top} y2={BOX.height - BOX.bottom} className="payoff__entry" />}
        {quote && inRange(quote.price) && <line x1={sx(Number(quote.price))} x2={sx(Number(quote.price))} y1={BOX.top} y2={BOX.height - BOX.bottom} className="payoff__now" />}
        <polyline points={line} className="payoff__line" />
        <text x={BOX.width - BOX.right} y={BOX.height - 4} textAnchor="end" className="payoff__label">
          Price of the underlying at expiry
        </text>
      </svg>
      <p className="payoff__legend muted">
        <span className="payoff__key payoff__key--breakeven" aria-hidden="true" /> breakeven
        {entry && (
          <>
            {" "}
            <span className="payoff__key payoff__key--entry" aria-hidden="true" /> underlying at entry
          </>
        )}
        {quote && (
          <>
            {" "}
            <span className="payoff__key payoff__key--now" aria-hidden="true" /> underlying now
          </>
        )}
      </p>
    </figure>
  );
}
