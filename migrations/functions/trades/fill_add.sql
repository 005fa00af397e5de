-- fill_add(user, account, ...): adds a fill to an account of the user with its ledger entry, rebuilds the
-- positions of its symbol from the fill on (positions_rebuild_from: every earlier fill is unchanged; this
-- settles a futures fill's cash), lets the symbol's journals follow their fills (journals_follow) and
-- renumbers the ledger from it. A fill the journal generated for the symbol (an option's expiry close) is
-- dropped first and asked for again after (options_expire): the trader's fill may be the real close.
-- Returns the fill, or no row when the account is not theirs.
-- Atomic: one statement for the caller. Locks the account row first, so fills, ledger and positions of an
-- account change one writer at a time.

CREATE OR REPLACE FUNCTION fill_add(
  p_user uuid, p_account uuid, p_symbol text, p_asset_class text, p_multiplier numeric, p_side text,
  p_quantity numeric, p_price numeric, p_fees numeric, p_executed_at timestamptz, p_execution_id text, p_import_id uuid
) RETURNS SETOF fills
LANGUAGE plpgsql AS $$
DECLARE
  added fills;
  dropped timestamptz;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  dropped := fills_drop_generated(p_account, ARRAY[p_symbol]);
  INSERT INTO fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, execution_id, import_id)
  VALUES (p_account, p_symbol, p_asset_class, p_multiplier, p_side, p_quantity, p_price, p_fees, p_executed_at, p_execution_id, p_import_id)
  RETURNING * INTO added;
  INSERT INTO ledger_entries (account_id, type, amount, occurred_at, fill_id)
  VALUES (p_account, 'fill', fill_cash(p_asset_class, p_side, p_quantity, p_price, p_multiplier, p_fees, 0), p_executed_at, added.id);
  -- From the fill on, not the symbol's whole history: adding today's fill to a symbol with 6,000 fills took
  -- ~90 ms replaying them all.
  PERFORM positions_rebuild_from(p_account, p_symbol, least(p_executed_at, dropped));
  PERFORM journals_follow(p_account, ARRAY[p_symbol]);
  PERFORM ledger_renumber(p_account, least(p_executed_at, dropped), '00000000-0000-0000-0000-000000000000'::uuid);
  IF p_asset_class = 'option' THEN
    PERFORM options_expire(p_account, ARRAY[p_symbol], now());
  END IF;
  RETURN NEXT added;
END;
$$;
