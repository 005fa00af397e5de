-- Excursions of a closed stock or futures trade (docs/charts.md, "Excursions"), from the bars of its
-- user covering its life: 1-minute bars when any fall in it, else daily bars.
--
-- The trade is replayed in time order, bars and fills together. A bar counts with the position held at its
-- start (fills at or after its start come after it): a bar during which the trade was flat at its start
-- (the bar of the opening fill) adds nothing but the fill. Each fill adds its price and the running P&L just
-- after it (realised so far, the rest marked at that price); each bar with a position adds its high and low
-- and the running P&L marked at both. Average cost, as the trades (positions_rebuild), gross of fees.
-- - price MAE / MFE: the worst and the best price against / for the trade's direction among those;
-- - position MAE / MFE: the lowest and the highest running P&L (0 at the opening fill, so MAE <= 0 <= MFE);
-- - best-exit P&L: position MFE less the trade's fees: what it would have netted leaving at its best.
-- Rounded to 10 decimals. A trade no bar covers gets a row of NULLs (bars_from NULL).

-- trade_excursions_compute(position): the row, not stored; NULL for an open trade, an option or no trade.
CREATE OR REPLACE FUNCTION trade_excursions_compute(p_position uuid) RETURNS trade_excursions
LANGUAGE plpgsql STABLE AS $$
DECLARE
  pos positions;
  uid uuid;
  res text;
  len interval;
  e trade_excursions;
  ev record;
  dir numeric;
  m numeric;
  open_q numeric := 0;
  entry_v numeric := 0;
  realised numeric := 0;
  pnl numeric;
  best_px numeric;
  worst_px numeric;
  lo_pnl numeric;
  hi_pnl numeric;
BEGIN
  SELECT * INTO pos FROM positions WHERE id = p_position;
  IF pos.id IS NULL OR pos.closed_at IS NULL OR pos.asset_class = 'option' THEN
    RETURN NULL;
  END IF;
  SELECT a.user_id INTO uid FROM accounts a WHERE a.id = pos.account_id;
  e.position_id := p_position;
  e.basis := pos.updated_at;
  e.computed_at := now();
  IF EXISTS (SELECT 1 FROM bars b WHERE b.user_id = uid AND b.symbol = pos.symbol AND b.resolution = '1m'
      AND b.t > pos.opened_at - interval '1 minute' AND b.t < pos.closed_at) THEN
    res := '1m';
    len := interval '1 minute';
  ELSIF EXISTS (SELECT 1 FROM bars b WHERE b.user_id = uid AND b.symbol = pos.symbol AND b.resolution = '1d'
      AND b.t > pos.opened_at - interval '1 day' AND b.t < pos.closed_at) THEN
    res := '1d';
    len := interval '1 day';
  ELSE
    RETURN e;
  END IF;
  dir := CASE WHEN pos.direction = 'long' THEN 1 ELSE -1 END;
  m := pos.multiplier;

  FOR ev IN
    SELECT 1 AS kind, pf.executed_at AS at, pf.fill_id::text AS tie, pf.quantity AS q, pf.role IN ('open', 'add') AS adds,
      CASE WHEN account_has_splits(f.account_id, f.symbol) THEN split_price(f.price, split_factor(f.account_id, f.symbol, f.executed_at)) ELSE f.price END AS px,
      NULL::numeric AS hi, NULL::numeric AS lo
    FROM position_fills pf JOIN fills f ON f.id = pf.fill_id
    WHERE pf.position_id = p_position
    UNION ALL
    SELECT 0, b.t, '', NULL, NULL, NULL, b.high, b.low
    FROM bars b
    WHERE b.user_id = uid AND b.symbol = pos.symbol AND b.resolution = res AND b.t > pos.opened_at - len AND b.t < pos.closed_at
    ORDER BY 2, 1, 3
  LOOP
    IF ev.kind = 1 THEN
      IF ev.adds THEN
        open_q := open_q + ev.q;
        entry_v := entry_v + ev.q * ev.px;
      ELSE
        realised := realised + dir * m * (ev.q * ev.px - entry_v * ev.q / open_q);
        entry_v := entry_v - entry_v * ev.q / open_q;
        open_q := open_q - ev.q;
      END IF;
      pnl := realised + dir * m * (open_q * ev.px - entry_v);
      lo_pnl := least(lo_pnl, pnl);
      hi_pnl := greatest(hi_pnl, pnl);
      worst_px := CASE WHEN dir = 1 THEN least(worst_px, ev.px) ELSE greatest(worst_px, ev.px) END;
      best_px := CASE WHEN dir = 1 THEN greatest(best_px, ev.px) ELSE least(best_px, ev.px) END;
    ELSIF open_q > 0 THEN
      lo_pnl := least(lo_pnl, realised + dir * m * (open_q * ev.lo - entry_v), realised + dir * m * (open_q * ev.hi - entry_v));
      hi_pnl := greatest(hi_pnl, realised + dir * m * (open_q * ev.lo - entry_v), realised + dir * m * (open_q * ev.hi - entry_v));
      worst_px := CASE WHEN dir = 1 THEN least(worst_px, ev.lo) ELSE greatest(worst_px, ev.hi) END;
      best_px := CASE WHEN dir = 1 THEN greatest(best_px, ev.hi) ELSE least(best_px, ev.lo) END;
    END IF;
  END LOOP;

  e.price_mae := round(worst_px, 10);
  e.price_mfe := round(best_px, 10);
  e.position_mae := round(lo_pnl, 10);
  e.position_mfe := round(hi_pnl, 10);
  e.best_exit_pnl := round(hi_pnl - pos.fees, 10);
  e.bars_from := res;
  RETURN e;
END;
$$;
--> statement-breakpoint
-- trade_excursions_fresh(position): the stored row when it is fresh (computed for the trade as it is now),
-- else computed and stored. NULL when trade_excursions_compute is.
CREATE OR REPLACE FUNCTION trade_excursions_fresh(p_position uuid) RETURNS trade_excursions
LANGUAGE plpgsql AS $$
DECLARE
  e trade_excursions;
BEGIN
  SELECT x.* INTO e FROM trade_excursions x JOIN positions p ON p.id = x.position_id AND p.updated_at = x.basis WHERE x.position_id = p_position;
  IF e.position_id IS NOT NULL THEN
    RETURN e;
  END IF;
  e := trade_excursions_compute(p_position);
  IF e.position_id IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO trade_excursions VALUES (e.*)
  ON CONFLICT (position_id) DO UPDATE SET basis = excluded.basis, price_mae = excluded.price_mae, price_mfe = excluded.price_mfe,
    position_mae = excluded.position_mae, position_mfe = excluded.position_mfe, best_exit_pnl = excluded.best_exit_pnl,
    bars_from = excluded.bars_from, computed_at = excluded.computed_at;
  RETURN e;
END;
$$;
--> statement-breakpoint
-- trade_excursions_catch_up(limit): deletes the rows of trades that are gone, then computes up to `limit`
-- closed stock and futures trades without a fresh row whose user holds bars of their symbol. Returns how many
-- it computed (the compute-excursions job).
CREATE OR REPLACE FUNCTION trade_excursions_catch_up(p_limit integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  pid uuid;
  n integer := 0;
BEGIN
  DELETE FROM trade_excursions x WHERE NOT EXISTS (SELECT 1 FROM positions p WHERE p.id = x.position_id);
  FOR pid IN
    SELECT p.id FROM positions p JOIN accounts a ON a.id = p.account_id
    WHERE p.closed_at IS NOT NULL AND p.asset_class <> 'option'
      AND NOT EXISTS (SELECT 1 FROM trade_excursions x WHERE x.position_id = p.id AND x.basis = p.updated_at)
      AND EXISTS (SELECT 1 FROM bar_days d WHERE d.user_id = a.user_id AND d.symbol = p.symbol AND d.status = 'ok')
    ORDER BY p.closed_at DESC
    LIMIT p_limit
  LOOP
    PERFORM trade_excursions_fresh(pid);
    n := n + 1;
  END LOOP;
  RETURN n;
END;
$$;
