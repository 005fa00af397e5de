// Excursions of a closed trade (docs/charts.md, "Excursions"): how far it went against and for the trader
// while open, from the bars covering it (migrations/functions/bars/trade_excursions.sql), in prices, in
// money and in R, with the best exit and how much of it the trade kept. SQL over the stored row `x`, the
// trade `p`, its journal `j` and its account `a` (for 1R, lib/risk.ts).
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { formatDecimal } from "../money.ts";
import { ONE_R_SQL } from "../risk.ts";

/** The excursion columns, as text; every one null when no bars cover the trade (or it is open, or an option). */
export const excursionColumns = sql`x.bars_from, x.price_mae::text as price_mae, x.price_mfe::text as price_mfe,
  x.position_mae::text as position_mae, x.position_mfe::text as position_mfe, x.best_exit_pnl::text as best_exit_pnl,
  round(x.position_mae / nullif(${ONE_R_SQL}, 0), 2)::text as mae_r, round(x.position_mfe / nullif(${ONE_R_SQL}, 0), 2)::text as mfe_r,
  (case when x.best_exit_pnl > 0 then round(p.net_pnl / x.best_exit_pnl, 4) end)::text as efficiency`;

/** The stored row of a trade when it is fresh (the list: computing is the job's and the detail's). */
export const freshExcursionsJoin = sql.raw("left join trade_excursions x on x.position_id = p.id and x.basis = p.updated_at");

/** The row of a trade, computed and stored when missing or stale (the detail). */
export const computedExcursionsJoin = sql.raw("left join lateral (select * from trade_excursions_fresh(p.id)) x on true");

export type ExcursionRow = {
  bars_from: "1m" | "1d" | null;
  price_mae: string | null;
  price_mfe: string | null;
  position_mae: string | null;
  position_mfe: string | null;
  best_exit_pnl: string | null;
  mae_r: string | null;
  mfe_r: string | null;
  efficiency: string | null;
};

const dec = (v: string | null) => (v === null ? null : formatDecimal(v));

/** `excursions` of a trade, or null when no bars cover it. */
export function toExcursions(r: ExcursionRow) {
  if (r.bars_from === null) return null;
  return {
    priceMae: dec(r.price_mae),
    priceMfe: dec(r.price_mfe),
    positionMae: dec(r.position_mae),
    positionMfe: dec(r.position_mfe),
    maeR: dec(r.mae_r),
    mfeR: dec(r.mfe_r),
    bestExitPnl: dec(r.best_exit_pnl),
    efficiency: r.efficiency,
    barsFrom: r.bars_from,
  };
}

/** Trades computed per run of the compute-excursions job. */
export const EXCURSIONS_PER_RUN = 500;

/** The job: deletes the rows of trades that are gone and computes up to EXCURSIONS_PER_RUN missing or stale ones. */
export async function computeExcursions(deps: Pick<Deps, "db">): Promise<number> {
  const [row] = rowsOf<{ computed: number | string }>(await deps.db.execute(sql`select trade_excursions_catch_up(${EXCURSIONS_PER_RUN}) as computed`));
  return Number(row?.computed ?? 0);
}
