-- ledger_renumber(account, from_at, from_id): called after a change to an account's ledger from a sort key
-- on. Ranks and running balances are kept per day by the trigger ledger_days_follow (every statement that
-- writes entries makes its days right), so what is left here is the one rule across days: the opening entry
-- stays the oldest (ledger_keep_opening_first moves it when older history arrived; the trigger then makes
-- its old and new days right).
-- Locks: none of its own; every caller holds the account row FOR UPDATE.

CREATE OR REPLACE FUNCTION ledger_renumber(p_account uuid, p_from_at timestamptz, p_from_id uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_keep_opening_first(p_account, p_from_at, p_from_id);
END;
$$;
