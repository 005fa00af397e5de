-- positions_rebuild(account, symbol): replays every fill of one symbol of an account, in (executed_at, id)
-- order, into positions and their fill shares (position_fills). The reference for positions_rebuild_from.
-- Rules: a position opens from flat, adds in its direction, reduces or closes against it; a fill that
-- crosses zero closes the position and opens the opposite one with the rest, its fees split in proportion.
-- Each reducing share realises closed quantity x (price - average entry) x multiplier, rounded to 10
-- decimals; the closing share realises what is left of the exact (exit value - entry value) x multiplier,
-- so the shares of a closed position add up to its gross P&L exactly. Each share keeps its fill's time.
-- A position opened by the same fill as before keeps its id (journals follow fills: journals_follow). Futures fills'
-- ledger entries follow their realised P&L (ledger_sync_futures); the caller renumbers the ledger.
-- A fill before a stock split of the symbol counts in post-split shares and prices (split_factor,
-- split_quantity, split_price); the shares (position_fills.quantity) are in those units.
-- Written in bulk (arrays, one statement per table). Locks: none of its own; callers hold the account row.

CREATE OR REPLACE FUNCTION positions_rebuild(p_account uuid, p_symbol text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  f fills;
  existing jsonb;
  cur integer := 0;          -- index of the current position in the arrays, 0 when flat
  dir integer := 0;          -- +1 long, -1 short, 0 flat
  s integer;
  q numeric;
  fee numeric;
  closing numeric;
  fee_part numeric;
  gain numeric;
  has_future boolean := false;
  has_splits boolean := account_has_splits(p_account, p_symbol);
  factor numeric[];
  px numeric;
  -- positions
  ids uuid[] := '{}';
  open_fills uuid[] := '{}';
  asset_classes text[] := '{}';
  multipliers numeric[] := '{}';
  directions text[] := '{}';
  opened timestamptz[] := '{}';
  closed timestamptz[] := '{}';
  open_qty numeric[] := '{}';
  max_qty numeric[] := '{}';
  entry_qty numeric[] := '{}';
  entry_val numeric[] := '{}';
  exit_qty numeric[] := '{}';
  exit_val numeric[] := '{}';
  pos_fees numeric[] := '{}';
  gross numeric[] := '{}';
  -- fill shares
  pf_position uuid[] := '{}';
  pf_fill uuid[] := '{}';
  pf_qty numeric[] := '{}';
  pf_fees numeric[] := '{}';
  pf_role text[] := '{}';
  pf_at timestamptz[] := '{}';
  pf_realized numeric[] := '{}';
BEGIN
  SELECT coalesce(jsonb_object_agg(open_fill_id::text, id::text), '{}'::jsonb) INTO existing
  FROM positions WHERE account_id = p_account AND symbol = p_symbol;

  FOR f IN SELECT * FROM fills WHERE account_id = p_account AND symbol = p_symbol ORDER BY executed_at, id LOOP
    has_future := has_future OR f.asset_class = 'future';
    s := CASE WHEN f.side = 'buy' THEN 1 ELSE -1 END;
    q := f.quantity;
    px := f.price;
    IF has_splits THEN
      factor := split_factor(p_account, p_symbol, f.executed_at);
      q := split_quantity(q, factor);
      px := split_price(px, factor);
    END IF;
    fee := f.fees;

    IF dir <> 0 AND s <> dir THEN
      closing := least(q, open_qty[cur]);
      fee_part := CASE WHEN closing = q THEN fee ELSE round(fee * closing / q, 10) END;
      exit_qty[cur] := exit_qty[cur] + closing;
      exit_val[cur] := exit_val[cur] + closing * px;
      pos_fees[cur] := pos_fees[cur] + fee_part;
      open_qty[cur] := open_qty[cur] - closing;
      IF open_qty[cur] = 0 THEN
        -- Flat again: the exact result, free of the rounding in the average price.
        gain := round((exit_val[cur] - entry_val[cur]) * multipliers[cur] * dir, 10) - gross[cur];
        closed[cur] := f.executed_at;
      ELSE
        gain := round(closing * (px * entry_qty[cur] - entry_val[cur]) * multipliers[cur] * dir / entry_qty[cur], 10);
      END IF;
      gross[cur] := gross[cur] + gain;
      pf_position := pf_position || ids[cur];
      pf_fill := pf_fill || f.id;
      pf_qty := pf_qty || closing;
      pf_fees := pf_fees || fee_part;
      pf_role := pf_role || CASE WHEN open_qty[cur] = 0 THEN 'close' ELSE 'reduce' END;
      pf_at := pf_at || f.executed_at;
      pf_realized := pf_realized || gain;
      IF open_qty[cur] = 0 THEN
        dir := 0;
      END IF;
      q := q - closing;
      fee := fee - fee_part;
      IF q = 0 THEN
        CONTINUE;
      END IF;
    ELSIF dir <> 0 THEN
      entry_qty[cur] := entry_qty[cur] + q;
      entry_val[cur] := entry_val[cur] + q * px;
      open_qty[cur] := open_qty[cur] + q;
      max_qty[cur] := greatest(max_qty[cur], open_qty[cur]);
      pos_fees[cur] := pos_fees[cur] + fee;
      pf_position := pf_position || ids[cur];
      pf_fill := pf_fill || f.id;
      pf_qty := pf_qty || q;
      pf_fees := pf_fees || fee;
      pf_role := pf_role || 'add'::text;
      pf_at := pf_at || f.executed_at;
      pf_realized := pf_realized || 0::numeric;
      CONTINUE;
    END IF;

    -- Flat (or just reversed): this fill opens a position with what is left of it. A position opened by
    -- the same fill as before keeps its id.
    dir := s;
    cur := cur + 1;
    ids := ids || coalesce((existing ->> f.id::text)::uuid, gen_random_uuid());
    open_fills := open_fills || f.id;
    asset_classes := asset_classes || f.asset_class;
    multipliers := multipliers || f.multiplier;
    directions := directions || CASE WHEN s = 1 THEN 'long' ELSE 'short' END;
    opened := opened || f.executed_at;
    closed := closed || NULL::timestamptz;
    open_qty := open_qty || q;
    max_qty := max_qty || q;
    entry_qty := entry_qty || q;
    entry_val := entry_val || q * px;
    exit_qty := exit_qty || 0::numeric;
    exit_val := exit_val || 0::numeric;
    pos_fees := pos_fees || fee;
    gross := gross || 0::numeric;
    pf_position := pf_position || ids[cur];
    pf_fill := pf_fill || f.id;
    pf_qty := pf_qty || q;
    pf_fees := pf_fees || fee;
    pf_role := pf_role || 'open'::text;
    pf_at := pf_at || f.executed_at;
    pf_realized := pf_realized || 0::numeric;
  END LOOP;

  DELETE FROM position_fills pf USING positions p
  WHERE pf.position_id = p.id AND p.account_id = p_account AND p.symbol = p_symbol;
  DELETE FROM positions p
  WHERE p.account_id = p_account AND p.symbol = p_symbol
    AND NOT EXISTS (SELECT 1 FROM unnest(ids) AS kept(id) WHERE kept.id = p.id);

  INSERT INTO positions (id, account_id, open_fill_id, symbol, asset_class, multiplier, direction, opened_at, closed_at,
    open_quantity, max_quantity, entry_quantity, entry_value, exit_quantity, exit_value, fees, gross_pnl, net_pnl)
  SELECT u.id, p_account, u.open_fill, p_symbol, u.asset_class, u.multiplier, u.direction, u.opened, u.closed,
    u.open_qty, u.max_qty, u.entry_qty, u.entry_val, u.exit_qty, u.exit_val, u.fees, u.gross, u.gross - u.fees
  FROM unnest(ids, open_fills, asset_classes, multipliers, directions, opened, closed, open_qty, max_qty,
              entry_qty, entry_val, exit_qty, exit_val, pos_fees, gross)
    AS u(id, open_fill, asset_class, multiplier, direction, opened, closed, open_qty, max_qty,
         entry_qty, entry_val, exit_qty, exit_val, fees, gross)
  ON CONFLICT (id) DO UPDATE SET open_fill_id = excluded.open_fill_id, asset_class = excluded.asset_class,
    multiplier = excluded.multiplier, direction = excluded.direction, opened_at = excluded.opened_at,
    closed_at = excluded.closed_at, open_quantity = excluded.open_quantity, max_quantity = excluded.max_quantity,
    entry_quantity = excluded.entry_quantity, entry_value = excluded.entry_value, exit_quantity = excluded.exit_quantity,
    exit_value = excluded.exit_value, fees = excluded.fees, gross_pnl = excluded.gross_pnl, net_pnl = excluded.net_pnl,
    updated_at = now();

  INSERT INTO position_fills (position_id, fill_id, quantity, fees, role, executed_at, realized, account_id)
  SELECT u.*, p_account FROM unnest(pf_position, pf_fill, pf_qty, pf_fees, pf_role, pf_at, pf_realized) AS u;

  IF has_future THEN
    PERFORM ledger_sync_futures(p_account, p_symbol, '-infinity');
  END IF;
END;
$$;
