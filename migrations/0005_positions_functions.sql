-- Fills, their cash entries and the positions built from them. Like the ledger functions (0003), each
-- is a single statement for the caller and locks the account first.

-- Rebuilds the positions of one account and symbol from its fills, in (executed_at, id) order, with the
-- average-cost method. A position runs from flat to flat; a fill that crosses zero closes the position
-- and opens the opposite one with the remainder (its fees are split in proportion). Positions keep their
-- id and journal fields (notes, tags, setup, rating) as long as the same fill still opens them.
CREATE OR REPLACE FUNCTION positions_rebuild(p_account uuid, p_symbol text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  f fills;
  pos_id uuid;
  dir integer := 0;          -- +1 long, -1 short, 0 flat
  mult numeric;
  open_qty numeric := 0;     -- absolute quantity still open
  max_qty numeric := 0;
  entry_qty numeric := 0;
  entry_val numeric := 0;
  exit_qty numeric := 0;
  exit_val numeric := 0;
  pos_fees numeric := 0;
  gross numeric := 0;
  s integer;
  q numeric;
  fee numeric;
  closing numeric;
  fee_part numeric;
  kept uuid[] := '{}';
BEGIN
  DELETE FROM position_fills pf USING positions p
  WHERE pf.position_id = p.id AND p.account_id = p_account AND p.symbol = p_symbol;

  FOR f IN SELECT * FROM fills WHERE account_id = p_account AND symbol = p_symbol ORDER BY executed_at, id LOOP
    s := CASE WHEN f.side = 'buy' THEN 1 ELSE -1 END;
    q := f.quantity;
    fee := f.fees;

    IF dir <> 0 AND s <> dir THEN
      closing := least(q, open_qty);
      fee_part := CASE WHEN closing = q THEN fee ELSE round(fee * closing / q, 10) END;
      gross := gross + closing * (f.price - entry_val / entry_qty) * mult * dir;
      exit_qty := exit_qty + closing;
      exit_val := exit_val + closing * f.price;
      pos_fees := pos_fees + fee_part;
      open_qty := open_qty - closing;
      INSERT INTO position_fills (position_id, fill_id, quantity, fees, role)
      VALUES (pos_id, f.id, closing, fee_part, CASE WHEN open_qty = 0 THEN 'close' ELSE 'reduce' END);
      IF open_qty = 0 THEN
        -- Flat again: the exact result, free of the rounding in the average price.
        gross := (exit_val - entry_val) * mult * dir;
        UPDATE positions SET closed_at = f.executed_at, open_quantity = 0, max_quantity = max_qty,
          entry_quantity = entry_qty, entry_value = entry_val, exit_quantity = exit_qty, exit_value = exit_val,
          fees = pos_fees, gross_pnl = gross, net_pnl = gross - pos_fees, updated_at = now()
        WHERE id = pos_id;
        dir := 0;
      END IF;
      q := q - closing;
      fee := fee - fee_part;
      IF q = 0 THEN
        CONTINUE;
      END IF;
    ELSIF dir <> 0 THEN
      entry_qty := entry_qty + q;
      entry_val := entry_val + q * f.price;
      open_qty := open_qty + q;
      max_qty := greatest(max_qty, open_qty);
      pos_fees := pos_fees + fee;
      INSERT INTO position_fills (position_id, fill_id, quantity, fees, role) VALUES (pos_id, f.id, q, fee, 'add');
      CONTINUE;
    END IF;

    -- Flat (or just reversed): this fill opens a position with what is left of it.
    dir := s;
    mult := f.multiplier;
    open_qty := q;
    max_qty := q;
    entry_qty := q;
    entry_val := q * f.price;
    exit_qty := 0;
    exit_val := 0;
    pos_fees := fee;
    gross := 0;
    INSERT INTO positions (account_id, open_fill_id, symbol, asset_class, multiplier, direction, opened_at, closed_at,
      open_quantity, max_quantity, entry_quantity, entry_value, exit_quantity, exit_value, fees, gross_pnl, net_pnl)
    VALUES (p_account, f.id, f.symbol, f.asset_class, f.multiplier, CASE WHEN s = 1 THEN 'long' ELSE 'short' END,
      f.executed_at, NULL, q, q, q, q * f.price, 0, 0, fee, 0, -fee)
    ON CONFLICT (open_fill_id) DO UPDATE SET account_id = excluded.account_id, symbol = excluded.symbol,
      asset_class = excluded.asset_class, multiplier = excluded.multiplier, direction = excluded.direction,
      opened_at = excluded.opened_at, closed_at = NULL, open_quantity = excluded.open_quantity,
      max_quantity = excluded.max_quantity, entry_quantity = excluded.entry_quantity, entry_value = excluded.entry_value,
      exit_quantity = 0, exit_value = 0, fees = excluded.fees, gross_pnl = 0, net_pnl = excluded.net_pnl, updated_at = now()
    RETURNING id INTO pos_id;
    kept := kept || pos_id;
    INSERT INTO position_fills (position_id, fill_id, quantity, fees, role) VALUES (pos_id, f.id, q, fee, 'open');
  END LOOP;

  IF dir <> 0 THEN
    UPDATE positions SET closed_at = NULL, open_quantity = open_qty, max_quantity = max_qty,
      entry_quantity = entry_qty, entry_value = entry_val, exit_quantity = exit_qty, exit_value = exit_val,
      fees = pos_fees, gross_pnl = gross, net_pnl = gross - pos_fees, updated_at = now()
    WHERE id = pos_id;
  END IF;

  DELETE FROM positions WHERE account_id = p_account AND symbol = p_symbol AND NOT (id = ANY (kept));
END;
$$;
--> statement-breakpoint

-- The cash effect of a fill: buys spend, sells receive, fees always reduce cash.
CREATE OR REPLACE FUNCTION fill_cash(p_side text, p_quantity numeric, p_price numeric, p_multiplier numeric, p_fees numeric)
RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE WHEN p_side = 'sell' THEN 1 ELSE -1 END) * p_quantity * p_price * p_multiplier - p_fees
$$;
--> statement-breakpoint

-- Adds a fill to an account of the user, with its ledger entry and the rebuilt positions of its symbol.
-- Returns the fill, or nothing when the account is not theirs.
CREATE OR REPLACE FUNCTION fill_add(
  p_user uuid, p_account uuid, p_symbol text, p_asset_class text, p_multiplier numeric, p_side text,
  p_quantity numeric, p_price numeric, p_fees numeric, p_executed_at timestamptz, p_execution_id text, p_import_id uuid
) RETURNS SETOF fills
LANGUAGE plpgsql AS $$
DECLARE
  added fills;
  entry_id uuid;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, execution_id, import_id)
  VALUES (p_account, p_symbol, p_asset_class, p_multiplier, p_side, p_quantity, p_price, p_fees, p_executed_at, p_execution_id, p_import_id)
  RETURNING * INTO added;
  INSERT INTO ledger_entries (account_id, type, amount, occurred_at, fill_id)
  VALUES (p_account, 'fill', fill_cash(p_side, p_quantity, p_price, p_multiplier, p_fees), p_executed_at, added.id)
  RETURNING id INTO entry_id;
  PERFORM ledger_renumber(p_account, p_executed_at, entry_id);
  PERFORM positions_rebuild(p_account, p_symbol);
  RETURN NEXT added;
END;
$$;
--> statement-breakpoint

-- Changes a fill of the user; its ledger entry and the positions of the old and new symbol follow.
CREATE OR REPLACE FUNCTION fill_update(
  p_user uuid, p_fill uuid, p_symbol text, p_asset_class text, p_multiplier numeric, p_side text,
  p_quantity numeric, p_price numeric, p_fees numeric, p_executed_at timestamptz
) RETURNS SETOF fills
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  old fills;
  changed fills;
BEGIN
  SELECT f.account_id INTO acct FROM fills f JOIN accounts a ON a.id = f.account_id WHERE f.id = p_fill AND a.user_id = p_user;
  IF acct IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM accounts WHERE id = acct FOR UPDATE;
  SELECT * INTO old FROM fills WHERE id = p_fill;
  IF old.id IS NULL THEN
    RETURN;
  END IF;
  UPDATE fills SET symbol = p_symbol, asset_class = p_asset_class, multiplier = p_multiplier, side = p_side,
    quantity = p_quantity, price = p_price, fees = p_fees, executed_at = p_executed_at
  WHERE id = p_fill RETURNING * INTO changed;
  UPDATE ledger_entries SET amount = fill_cash(p_side, p_quantity, p_price, p_multiplier, p_fees), occurred_at = p_executed_at
  WHERE fill_id = p_fill AND account_id = acct;
  PERFORM ledger_renumber(acct, least(old.executed_at, p_executed_at), '00000000-0000-0000-0000-000000000000'::uuid);
  PERFORM positions_rebuild(acct, old.symbol);
  IF p_symbol <> old.symbol THEN
    PERFORM positions_rebuild(acct, p_symbol);
  END IF;
  RETURN NEXT changed;
END;
$$;
--> statement-breakpoint

-- Deletes a fill of the user with its ledger entry, and rebuilds the positions of its symbol.
CREATE OR REPLACE FUNCTION fill_delete(p_user uuid, p_fill uuid) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  gone fills;
BEGIN
  SELECT f.account_id INTO acct FROM fills f JOIN accounts a ON a.id = f.account_id WHERE f.id = p_fill AND a.user_id = p_user;
  IF acct IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM accounts WHERE id = acct FOR UPDATE;
  DELETE FROM ledger_entries WHERE fill_id = p_fill AND account_id = acct;
  DELETE FROM fills WHERE id = p_fill RETURNING * INTO gone;
  IF gone.id IS NULL THEN
    RETURN;
  END IF;
  PERFORM ledger_renumber(acct, gone.executed_at, '00000000-0000-0000-0000-000000000000'::uuid);
  PERFORM positions_rebuild(acct, gone.symbol);
  RETURN NEXT gone.id;
END;
$$;
