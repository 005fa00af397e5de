-- positions_rebuild_from(account, symbol, from_at): the same positions and fill shares as positions_rebuild
-- when every fill before from_at is unchanged since the last rebuild. It replays only from the position open
-- just before from_at (from its opening share), set-based with window functions; with nothing before
-- from_at it is positions_rebuild. Used by imports and undos. Futures fills' ledger entries from the replay's
-- start follow their realised P&L (ledger_sync_futures); the caller renumbers the ledger. Locks: none of its
-- own; callers hold the account row.

CREATE OR REPLACE FUNCTION positions_rebuild_from(p_account uuid, p_symbol text, p_from_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  prev_at timestamptz;
  prev_id uuid;
  start_at timestamptz;
  start_id uuid;
  seed_qty numeric;
  seed_fees numeric;
  has_splits boolean := account_has_splits(p_account, p_symbol);
BEGIN
  -- The last unchanged fill, the position open after it (the latest one opened at or before it) and that
  -- position's opening share (all of its opening fill, or what a crossing fill had left after closing the
  -- position before). Without them the symbol is rebuilt from its first fill.
  SELECT executed_at, id INTO prev_at, prev_id FROM fills
  WHERE account_id = p_account AND symbol = p_symbol AND executed_at < p_from_at
  ORDER BY executed_at DESC, id DESC LIMIT 1;
  IF prev_id IS NOT NULL THEN
    SELECT p.opened_at, p.open_fill_id, pf.quantity, pf.fees INTO start_at, start_id, seed_qty, seed_fees
    FROM positions p JOIN position_fills pf ON pf.position_id = p.id AND pf.fill_id = p.open_fill_id AND pf.role = 'open'
    WHERE p.account_id = p_account AND p.symbol = p_symbol AND (p.opened_at, p.open_fill_id) <= (prev_at, prev_id)
    ORDER BY p.opened_at DESC, p.open_fill_id DESC LIMIT 1;
  END IF;
  IF seed_qty IS NULL THEN
    -- Nothing to keep (a fresh symbol, or every fill changed): the full replay, whose loop measured a
    -- little cheaper than the window functions below over a whole history.
    PERFORM positions_rebuild(p_account, p_symbol);
    RETURN;
  END IF;

  -- Positions opened from the start on are replaced: their fill shares go now, and the positions that
  -- no fill reopens go below (the others keep their id through the upsert).
  DELETE FROM position_fills pf USING positions p
  WHERE pf.position_id = p.id AND p.account_id = p_account AND p.symbol = p_symbol
    AND (p.opened_at, p.open_fill_id) >= (start_at, start_id);

  -- Before a stock split a fill counts in post-split shares and prices (split_factor, as positions_rebuild);
  -- the seed is a share, already in them.
  WITH f0 AS (
    SELECT f.*, CASE WHEN has_splits THEN split_factor(p_account, p_symbol, f.executed_at) ELSE ARRAY[1, 1]::numeric[] END AS factor
    FROM fills f
    WHERE f.account_id = p_account AND f.symbol = p_symbol AND (f.executed_at, f.id) >= (start_at, start_id)
  ),
  f AS (
    SELECT f.id, f.executed_at, f.asset_class, f.multiplier,
      split_price(f.price, f.factor) AS price,
      CASE WHEN f.side = 'buy' THEN 1 ELSE -1 END AS s,
      CASE WHEN f.id = start_id THEN seed_qty ELSE split_quantity(f.quantity, f.factor) END AS q,
      CASE WHEN f.id = start_id THEN seed_fees ELSE f.fees END AS fee
    FROM f0 f
  ),
  -- The signed open quantity after each fill, and the one it meets ("before").
  running AS (
    SELECT f.*, sum(s * q) OVER (ORDER BY executed_at, id ROWS UNBOUNDED PRECEDING) AS after FROM f
  ),
  c AS (
    SELECT r.*, r.after - r.s * r.q AS before, r.after - r.s * r.q <> 0 AND sign(r.after - r.s * r.q) <> r.s AS against
    FROM running r
  ),
  -- A fill is one or two legs: against the open position (reduce or close: leg 1), and opening or adding
  -- (leg 2: from flat, in the same direction, or what is left after crossing zero). Fees of a crossing fill
  -- are split in proportion, as in positions_rebuild.
  legs AS (
    SELECT id, executed_at, asset_class, multiplier, price, s, 1 AS leg, least(q, abs(before)) AS qty,
      CASE WHEN least(q, abs(before)) = q THEN fee ELSE round(fee * least(q, abs(before)) / q, 10) END AS fee_part,
      false AS entry, false AS opens, abs(before) - least(q, abs(before)) AS open_after
    FROM c WHERE against
    UNION ALL
    SELECT id, executed_at, asset_class, multiplier, price, s, 2 AS leg,
      CASE WHEN against THEN q - abs(before) ELSE q END AS qty,
      CASE WHEN against THEN fee - round(fee * abs(before) / q, 10) ELSE fee END AS fee_part,
      true AS entry, before = 0 OR against AS opens, abs(after) AS open_after
    FROM c WHERE NOT against OR sign(after) = s
  ),
  numbered AS (
    SELECT l.*,
      CASE WHEN l.opens THEN 'open' WHEN l.entry THEN 'add' WHEN l.open_after = 0 THEN 'close' ELSE 'reduce' END AS role,
      count(*) FILTER (WHERE l.opens) OVER (ORDER BY l.executed_at, l.id, l.leg ROWS UNBOUNDED PRECEDING) AS pos_no
    FROM legs l
  ),
  -- Per leg, the position's direction and multiplier (those of its opening leg) and the entry quantity and
  -- value so far (for the average price met by a reducing leg).
  win AS (
    SELECT n.*,
      first_value(n.s) OVER p AS dir,
      first_value(n.multiplier) OVER p AS mult,
      sum(CASE WHEN n.entry THEN n.qty * n.price END) OVER (p ROWS UNBOUNDED PRECEDING) AS ev,
      sum(CASE WHEN n.entry THEN n.qty END) OVER (p ROWS UNBOUNDED PRECEDING) AS eq
    FROM numbered n
    WINDOW p AS (PARTITION BY n.pos_no ORDER BY n.executed_at, n.id, n.leg)
  ),
  -- What a reducing leg realises at the average entry price, rounded as in positions_rebuild.
  gains AS (
    SELECT w.*,
      CASE WHEN w.entry THEN 0::numeric ELSE round(w.qty * (w.price * w.eq - w.ev) * w.mult * w.dir / w.eq, 10) END AS raw
    FROM win w
  ),
  agg AS (
    SELECT w.pos_no,
      (array_agg(w.id) FILTER (WHERE w.opens))[1] AS open_fill,
      (array_agg(w.asset_class) FILTER (WHERE w.opens))[1] AS asset_class,
      min(w.mult) AS mult,
      min(w.dir) AS dir,
      min(w.executed_at) AS opened,
      max(w.executed_at) FILTER (WHERE w.role = 'close') AS closed,
      (array_agg(w.open_after ORDER BY w.executed_at DESC, w.id DESC, w.leg DESC))[1] AS open_qty,
      max(w.open_after) AS max_qty,
      sum(w.qty) FILTER (WHERE w.entry) AS entry_qty,
      sum(w.qty * w.price) FILTER (WHERE w.entry) AS entry_val,
      coalesce(sum(w.qty) FILTER (WHERE NOT w.entry), 0) AS exit_qty,
      coalesce(sum(w.qty * w.price) FILTER (WHERE NOT w.entry), 0) AS exit_val,
      sum(w.fee_part) AS fees,
      sum(w.raw) AS running_gross,
      sum(w.raw) FILTER (WHERE w.role <> 'close') AS gross_before_close
    FROM gains w GROUP BY w.pos_no
  ),
  ids AS (
    SELECT a.*, coalesce(old.id, gen_random_uuid()) AS position_id,
      -- Flat again: the exact result, free of the rounding in the average price.
      CASE WHEN a.closed IS NULL THEN a.running_gross ELSE round((a.exit_val - a.entry_val) * a.mult * a.dir, 10) END AS gross
    FROM agg a LEFT JOIN positions old ON old.open_fill_id = a.open_fill AND old.account_id = p_account AND old.symbol = p_symbol
  ),
  gone AS (
    DELETE FROM positions p
    WHERE p.account_id = p_account AND p.symbol = p_symbol AND (p.opened_at, p.open_fill_id) >= (start_at, start_id)
      AND NOT EXISTS (SELECT 1 FROM ids WHERE ids.position_id = p.id)
  ),
  upserted AS (
    INSERT INTO positions (id, account_id, open_fill_id, symbol, asset_class, multiplier, direction, opened_at, closed_at,
      open_quantity, max_quantity, entry_quantity, entry_value, exit_quantity, exit_value, fees, gross_pnl, net_pnl)
    SELECT position_id, p_account, open_fill, p_symbol, asset_class, mult, CASE WHEN dir = 1 THEN 'long' ELSE 'short' END,
      opened, closed, open_qty, max_qty, entry_qty, entry_val, exit_qty, exit_val, fees, gross, gross - fees
    FROM ids
    ON CONFLICT (id) DO UPDATE SET open_fill_id = excluded.open_fill_id, asset_class = excluded.asset_class,
      multiplier = excluded.multiplier, direction = excluded.direction, opened_at = excluded.opened_at,
      closed_at = excluded.closed_at, open_quantity = excluded.open_quantity, max_quantity = excluded.max_quantity,
      entry_quantity = excluded.entry_quantity, entry_value = excluded.entry_value, exit_quantity = excluded.exit_quantity,
      exit_value = excluded.exit_value, fees = excluded.fees, gross_pnl = excluded.gross_pnl, net_pnl = excluded.net_pnl,
      updated_at = now()
  )
  -- The closing leg realises what is left of the exact result, so a closed position's shares add up to it.
  INSERT INTO position_fills (position_id, fill_id, quantity, fees, role, executed_at, realized, account_id)
  SELECT ids.position_id, g.id, g.qty, g.fee_part, g.role, g.executed_at,
    CASE WHEN g.role = 'close' THEN ids.gross - coalesce(ids.gross_before_close, 0) ELSE g.raw END, p_account
  FROM gains g JOIN ids USING (pos_no);

  IF EXISTS (SELECT 1 FROM positions WHERE account_id = p_account AND symbol = p_symbol AND asset_class = 'future') THEN
    PERFORM ledger_sync_futures(p_account, p_symbol, start_at);
  END IF;
END;
$$;
