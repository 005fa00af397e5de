-- fill_delete(user, fill): deletes a fill of the user with its ledger entry, renumbers the ledger and
-- rebuilds the positions of its symbol from the fill's time (every earlier fill is unchanged); the journal
-- of its trade follows the fills it keeps, or is detached (journals_follow). Deleting a fill the journal
-- generated (an option's expiry close) keeps that option open: it is not generated again
-- (option_expiry_kept). Deleting any other fill drops the symbol's generated fills and asks for them again
-- (options_expire), and keeps what it was in fill_tombstones (an import that brings it back says so).
-- Returns the deleted id, or no row when it is not theirs.
-- Atomic: one statement for the caller. Locks the fill's account row first.

CREATE OR REPLACE FUNCTION fill_delete(p_user uuid, p_fill uuid) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  gone fills;
  dropped timestamptz;
BEGIN
  SELECT f.account_id INTO acct FROM fills f JOIN accounts a ON a.id = f.account_id WHERE f.id = p_fill AND a.user_id = p_user;
  IF acct IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM accounts WHERE id = acct FOR UPDATE;
  -- By its fill alone (ledger_entries_fill_idx): adding the account lets the planner read its whole ledger.
  DELETE FROM ledger_entries WHERE fill_id = p_fill;
  DELETE FROM fills WHERE id = p_fill RETURNING * INTO gone;
  IF gone.id IS NULL THEN
    RETURN;
  END IF;
  IF gone.generated IS NOT NULL THEN
    INSERT INTO option_expiry_kept (account_id, symbol) VALUES (acct, gone.symbol) ON CONFLICT DO NOTHING;
  ELSE
    dropped := fills_drop_generated(acct, ARRAY[gone.symbol]);
    INSERT INTO fill_tombstones (account_id, symbol, side, quantity, price, executed_at, execution_id)
    VALUES (acct, gone.symbol, gone.side, gone.quantity, gone.price, gone.executed_at, gone.execution_id);
  END IF;
  PERFORM positions_rebuild_from(acct, gone.symbol, least(gone.executed_at, dropped));
  PERFORM journals_follow(acct, ARRAY[gone.symbol]);
  PERFORM ledger_renumber(acct, least(gone.executed_at, dropped), '00000000-0000-0000-0000-000000000000'::uuid);
  IF gone.generated IS NULL AND gone.asset_class = 'option' THEN
    PERFORM options_expire(acct, ARRAY[gone.symbol], now());
  END IF;
  RETURN NEXT gone.id;
END;
$$;
