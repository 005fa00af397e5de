// Black-Scholes for European options on a non-dividend-paying underlying (Black and Scholes 1973; Hull,
// "Options, Futures, and Other Derivatives", chapters 15 and 19): a price, the Greeks, and the implied volatility
// that prices an option at what was paid. The journal uses it for the Greeks a trader entered with (DESIGN.md
// section 11, "Greeks at entry"): numbers, not money, so floats are right here. Pure.

export type Right = "call" | "put";
export type Greeks = { delta: number; gamma: number; theta: number; vega: number };

/** The standard normal density. */
export const normalPdf = (x: number) => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

/**
 * The standard normal distribution function, to double precision over the whole line (W. J. Cody's rational
 * approximations of erfc, as in Hart's "Computer Approximations" algorithm 5666, used by West 2005 for
 * cumulative normal values: relative error below 1e-14).
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  let c: number;
  if (z > 37) c = 0;
  else {
    const e = Math.exp(-z * z * 0.5);
    if (z < 7.07106781186547) {
      let n = 3.52624965998911e-2 * z + 0.700383064443688;
      n = n * z + 6.37396220353165;
      n = n * z + 33.912866078383;
      n = n * z + 112.079291497871;
      n = n * z + 221.213596169931;
      n = n * z + 220.206867912376;
      let d = 8.83883476483184e-2 * z + 1.75566716318264;
      d = d * z + 16.064177579207;
      d = d * z + 86.7807322029461;
      d = d * z + 296.564248779674;
      d = d * z + 637.333633378831;
      d = d * z + 793.826512519948;
      d = d * z + 440.413735824752;
      c = (e * n) / d;
    } else {
      let f = z + 0.65;
      f = z + 4 / f;
      f = z + 3 / f;
      f = z + 2 / f;
      f = z + 1 / f;
      c = e / f / 2.506628274631;
    }
  }
  return x > 0 ? 1 - c : c;
}

export type Inputs = { right: Right; spot: number; strike: number; years: number; rate: number; volatility: number };

function d1d2({ spot, strike, years, rate, volatility }: Inputs): [number, number] {
  const root = volatility * Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (rate + (volatility * volatility) / 2) * years) / root;
  return [d1, d1 - root];
}

/** The option's price per unit of the underlying. */
export function price(i: Inputs): number {
  if (i.years <= 0 || i.volatility <= 0) return Math.max(0, i.right === "call" ? i.spot - i.strike : i.strike - i.spot);
  const [d1, d2] = d1d2(i);
  const discounted = i.strike * Math.exp(-i.rate * i.years);
  return i.right === "call" ? i.spot * normalCdf(d1) - discounted * normalCdf(d2) : discounted * normalCdf(-d2) - i.spot * normalCdf(-d1);
}

/**
 * The Greeks per unit of the underlying, long one option: delta, gamma, theta per calendar day (the yearly theta
 * / 365) and vega per volatility point (per 0.01 of volatility), as trading platforms show them.
 */
export function greeks(i: Inputs): Greeks {
  const [d1, d2] = d1d2(i);
  const rootT = Math.sqrt(i.years);
  const discounted = i.strike * Math.exp(-i.rate * i.years);
  const gamma = normalPdf(d1) / (i.spot * i.volatility * rootT);
  const vega = (i.spot * normalPdf(d1) * rootT) / 100;
  const decay = -(i.spot * normalPdf(d1) * i.volatility) / (2 * rootT);
  const theta = (i.right === "call" ? decay - i.rate * discounted * normalCdf(d2) : decay + i.rate * discounted * normalCdf(-d2)) / 365;
  return { delta: i.right === "call" ? normalCdf(d1) : normalCdf(d1) - 1, gamma, theta, vega };
}

/**
 * The volatility at which the option is worth `premium` (per unit of the underlying), or null when no volatility
 * can: a premium below the discounted intrinsic value or at or above the most an option can be worth (the spot
 * for a call, the discounted strike for a put). Newton's method from 30%, bisection when it strays.
 */
export function impliedVolatility(premium: number, i: Omit<Inputs, "volatility">): number | null {
  if (!(i.years > 0) || !(i.spot > 0) || !(i.strike > 0) || !(premium > 0)) return null;
  const discounted = i.strike * Math.exp(-i.rate * i.years);
  const floor = Math.max(0, i.right === "call" ? i.spot - discounted : discounted - i.spot);
  const ceiling = i.right === "call" ? i.spot : discounted;
  if (premium <= floor || premium >= ceiling) return null;
  let lo = 1e-6;
  let hi = 10;
  let sigma = 0.3;
  for (let n = 0; n < 100; n++) {
    const diff = price({ ...i, volatility: sigma }) - premium;
    if (Math.abs(diff) < 1e-10) return sigma;
    if (diff > 0) hi = sigma;
    else lo = sigma;
    const slope = i.spot * normalPdf(d1d2({ ...i, volatility: sigma })[0]) * Math.sqrt(i.years);
    const next = sigma - diff / slope;
    sigma = slope > 1e-12 && next > lo && next < hi ? next : (lo + hi) / 2;
  }
  return sigma;
}
