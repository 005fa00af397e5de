-- ledger_delete_manual(user, account, entry): deletes a manual entry (deposit, withdrawal, adjustment, a prop firm's fee or payout) of
-- an account of the user and renumbers the ledger after it. Returns the deleted id, or no row when there is
-- no such manual entry for them (opening and fill entries are never deleted here).
-- Atomic: one statement for the caller. Locks the account row first.

CREATE OR REPLACE FUNCTION ledger_delete_manual(p_user uuid, p_account uuid, p_entry uuid) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  gone ledger_entries;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM ledger_entries
  WHERE id = p_entry AND account_id = p_account AND type IN ('deposit', 'withdrawal', 'adjustment', 'prop_fee', 'payout')
  RETURNING * INTO gone;
  IF gone.id IS NULL THEN
    RETURN;
  END IF;
  PERFORM ledger_renumber(p_account, gone.occurred_at, gone.id);
  RETURN NEXT gone.id;
END;
$$;
