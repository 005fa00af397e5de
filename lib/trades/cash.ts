// The cash effect of fills before they are written (the import preview), by the money rules of DESIGN.md
// section 9 as the SQL applies them (fill_cash, positions_rebuild): stocks and options move their notional,
// futures only their fees and the P&L they realise against the position they meet (average cost, shares
// rounded to 10 decimals, the closing share exact). Exact integer arithmetic in units of 10^-10.
import { multiplyUnits, toUnits } from "../money.ts";
import type { AssetClass } from "../instruments/instruments.ts";

const SCALE = 10n ** 10n;

export type CashFill = {
  symbol: string;
  asset_class: AssetClass;
  multiplier: string;
  side: "buy" | "sell";
  quantity: string;
  price: string;
  fees: string;
  executed_at: string;
};

/** A position open before the fills (its opening direction and sums), as positions stores it. */
export type OpenPosition = { direction: "long" | "short"; openQuantity: string; entryQuantity: string; entryValue: string; exitValue: string; grossPnl: string };

/** n / d rounded half away from zero (Postgres numeric round). */
function roundDiv(n: bigint, d: bigint): bigint {
  return n >= 0n ? (2n * n + d) / (2n * d) : -((2n * -n + d) / (2n * d));
}

type State = { dir: bigint; open: bigint; entryQ: bigint; entryV2: bigint; exitV2: bigint; gross: bigint };

/** What one futures fill realises against `state` (updated in place), in units. */
function realise(state: State, side: "buy" | "sell", quantity: bigint, price: bigint, multiplier: bigint): bigint {
  const s = side === "buy" ? 1n : -1n;
  let q = quantity;
  let realised = 0n;
  if (state.dir !== 0n && s !== state.dir) {
    const closing = q < state.open ? q : state.open;
    state.open -= closing;
    state.exitV2 += closing * price;
    if (state.open === 0n) {
      realised = roundDiv((state.exitV2 - state.entryV2) * multiplier * state.dir, SCALE * SCALE) - state.gross;
      state.dir = 0n;
    } else {
      realised = roundDiv(closing * (price * state.entryQ - state.entryV2) * multiplier * state.dir, SCALE * SCALE * state.entryQ);
      state.gross += realised;
    }
    q -= closing;
    if (q === 0n) return realised;
  } else if (state.dir !== 0n) {
    state.entryQ += q;
    state.entryV2 += q * price;
    state.open += q;
    return 0n;
  }
  Object.assign(state, { dir: s, open: q, entryQ: q, entryV2: q * price, exitV2: 0n, gross: 0n });
  return realised;
}

/**
 * The total cash effect of `fills` in units: futures replayed per symbol in time order from the open
 * position of that symbol (`open`), assuming the fills come after the account's own.
 */
export function cashEffectUnits(fills: readonly CashFill[], open: ReadonlyMap<string, OpenPosition> = new Map()): bigint {
  let total = 0n;
  const futures: CashFill[] = [];
  for (const f of fills) {
    if (f.asset_class === "future") futures.push(f);
    else total += (f.side === "sell" ? 1n : -1n) * multiplyUnits(multiplyUnits(toUnits(f.quantity), toUnits(f.price)), toUnits(f.multiplier)) - toUnits(f.fees);
  }
  // Only futures depend on the order: what a fill realises depends on the position it meets.
  const states = new Map<string, State>();
  futures.sort((a, b) => (a.executed_at < b.executed_at ? -1 : a.executed_at > b.executed_at ? 1 : 0));
  for (const f of futures) {
    const quantity = toUnits(f.quantity);
    const price = toUnits(f.price);
    const multiplier = toUnits(f.multiplier);
    let state = states.get(f.symbol);
    if (!state) {
      const p = open.get(f.symbol);
      state = p
        ? {
            dir: p.direction === "long" ? 1n : -1n,
            open: toUnits(p.openQuantity),
            entryQ: toUnits(p.entryQuantity),
            entryV2: toUnits(p.entryValue) * SCALE,
            exitV2: toUnits(p.exitValue) * SCALE,
            gross: toUnits(p.grossPnl),
          }
        : { dir: 0n, open: 0n, entryQ: 0n, entryV2: 0n, exitV2: 0n, gross: 0n };
      states.set(f.symbol, state);
    }
    total += realise(state, f.side, quantity, price, multiplier) - toUnits(f.fees);
  }
  return total;
}
