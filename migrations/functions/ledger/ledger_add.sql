-- ledger_add(user, account, type, amount, occurred_at, note, fill_id): adds an entry to an account of the
-- user and renumbers the ledger from it. Returns the entry, or no row when the account is not theirs.
-- Atomic: one statement for the caller (so also over the HTTP driver). Locks the account row first.

CREATE OR REPLACE FUNCTION ledger_add(
  p_user uuid, p_account uuid, p_type text, p_amount numeric, p_occurred_at timestamptz, p_note text, p_fill_id uuid
) RETURNS SETOF ledger_entries
LANGUAGE plpgsql AS $$
DECLARE
  entry ledger_entries;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO ledger_entries (account_id, type, amount, occurred_at, note, fill_id)
  VALUES (p_account, p_type, p_amount, p_occurred_at, p_note, p_fill_id)
  RETURNING * INTO entry;
  PERFORM ledger_renumber(p_account, entry.occurred_at, entry.id);
  RETURN QUERY SELECT * FROM ledger_entries WHERE id = entry.id;
END;
$$;
