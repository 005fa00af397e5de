// Exact decimals for reference models: values as integers of 10^-10 (what numeric(28, 10) holds).
export const S = 10n ** 10n;

/** A decimal string as units of 10^-10. */
export const toS = (v: string) => {
  const neg = v.startsWith("-");
  const [i, f = ""] = v.replace(/^-/, "").split(".");
  const units = BigInt(i!) * S + BigInt((f + "0".repeat(10)).slice(0, 10));
  return neg ? -units : units;
};

/** Units of 10^-10 in the API's output form (lib/money.ts formatDecimal). */
export const fmt = (v: bigint) => {
  const neg = v < 0n;
  const a = neg ? -v : v;
  const frac = (a % S).toString().padStart(10, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${neg && a !== 0n ? "-" : ""}${a / S}.${frac}`;
};

/** n / d rounded half away from zero, as Postgres rounds numeric. */
export const roundDiv = (n: bigint, d: bigint) => (n >= 0n ? (2n * n + d) / (2n * d) : -((2n * -n + d) / (2n * d)));

export type ModelFill = { side: "buy" | "sell"; qty: bigint; price: bigint; fees: bigint };

/**
 * A plain reference model of the trade rules (docs/trading.md, "Trades"): flat to flat, average cost, a fill
 * crossing zero closes one trade and opens the other with its fees split in proportion; each closed trade's
 * gross is (exit value - entry value) rounded to 10 decimals. Cash is the fills' own.
 */
export function positionModel(fills: ModelFill[]) {
  const closed: Array<{ direction: string; gross: bigint; fees: bigint }> = [];
  let dir = 0;
  let open = 0n;
  let entryV = 0n;
  let exitV = 0n;
  let fees = 0n;
  let cash = 0n;
  for (const f of fills) {
    const s = f.side === "buy" ? 1 : -1;
    cash += roundDiv(BigInt(-s) * f.qty * f.price, S) - f.fees;
    let q = f.qty;
    let fee = f.fees;
    if (dir !== 0 && s !== dir) {
      const closing = q < open ? q : open;
      const part = closing === q ? fee : roundDiv(fee * closing, q);
      exitV += closing * f.price;
      fees += part;
      open -= closing;
      if (open === 0n) {
        closed.push({ direction: dir === 1 ? "long" : "short", gross: roundDiv((exitV - entryV) * BigInt(dir), S), fees });
        dir = 0;
      }
      q -= closing;
      fee -= part;
      if (q === 0n) continue;
    } else if (dir !== 0) {
      entryV += q * f.price;
      open += q;
      fees += fee;
      continue;
    }
    dir = s;
    open = q;
    entryV = q * f.price;
    exitV = 0n;
    fees = fee;
  }
  return { closed, open: dir === 0 ? null : { direction: dir === 1 ? "long" : "short", qty: open }, cash };
}
