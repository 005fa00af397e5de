-- fill_update(user, fill, ...): changes the fields of a fill of the user that are not NULL (NULL keeps what
-- the fill has, read under the lock, so two racing edits of different fields both stay); its ledger entry,
-- the running balance and the positions of the old and new symbol follow, each rebuilt from the earliest
-- time the edit touches there (every earlier fill is unchanged); journals follow their fills (journals_follow).
-- A generated fill (an option's expiry close) that the trader edits becomes theirs (generated cleared);
-- editing any other fill drops the generated fills of its symbols and asks for them again (options_expire).
-- Atomic: one statement for the caller. Locks the fill's account row before reading the fill.

CREATE OR REPLACE FUNCTION fill_update(
  p_user uuid, p_fill uuid, p_symbol text, p_asset_class text, p_multiplier numeric, p_side text,
  p_quantity numeric, p_price numeric, p_fees numeric, p_executed_at timestamptz
) RETURNS SETOF fills
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  old fills;
  changed fills;
  dropped timestamptz;
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
  UPDATE fills SET symbol = coalesce(p_symbol, old.symbol), asset_class = coalesce(p_asset_class, old.asset_class),
    multiplier = coalesce(p_multiplier, old.multiplier), side = coalesce(p_side, old.side),
    quantity = coalesce(p_quantity, old.quantity), price = coalesce(p_price, old.price), fees = coalesce(p_fees, old.fees),
    -- Fees typed in are reported, no longer the fee schedule's estimate.
    fees_estimated = CASE WHEN p_fees IS NULL THEN old.fees_estimated ELSE false END,
    executed_at = coalesce(p_executed_at, old.executed_at),
    generated = NULL
  WHERE id = p_fill RETURNING * INTO changed;
  IF old.generated IS NULL THEN
    dropped := fills_drop_generated(acct, ARRAY[old.symbol, changed.symbol]);
  END IF;
  UPDATE ledger_entries
  SET amount = fill_cash(changed.asset_class, changed.side, changed.quantity, changed.price, changed.multiplier, changed.fees, 0),
    occurred_at = changed.executed_at
  WHERE fill_id = p_fill; -- by its fill alone (ledger_entries_fill_idx), as in fill_delete
  IF changed.symbol = old.symbol THEN
    PERFORM positions_rebuild_from(acct, old.symbol, least(old.executed_at, changed.executed_at, dropped));
  ELSE
    PERFORM positions_rebuild_from(acct, old.symbol, least(old.executed_at, dropped));
    PERFORM positions_rebuild_from(acct, changed.symbol, least(changed.executed_at, dropped));
  END IF;
  PERFORM journals_follow(acct, ARRAY[old.symbol, changed.symbol]);
  PERFORM ledger_renumber(acct, least(old.executed_at, changed.executed_at, dropped), '00000000-0000-0000-0000-000000000000'::uuid);
  IF old.generated IS NULL AND (old.asset_class = 'option' OR changed.asset_class = 'option') THEN
    PERFORM options_expire(acct, ARRAY[old.symbol, changed.symbol], now());
  END IF;
  RETURN NEXT changed;
END;
$$;
